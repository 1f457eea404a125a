import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../../../app/AppProviders';
import { createQueryClient } from '../../../app/query-client';
import { createI18n } from '../../../i18n/i18n';
import { buildBootstrap } from '../../../test/builders';
import type { FileEntry } from './uploader-state';
import { UploadResumeStatus } from './UploadResumeStatus';

const MiB = 1024 ** 2;

function renderStatus(entry: Partial<FileEntry>, language = 'en') {
  const full: FileEntry = {
    key: 'big.bin',
    size: 17 * MiB,
    status: 'pending',
    percent: 0,
    links: {},
    ...entry,
  };
  return render(
    <AppProviders
      bootstrap={buildBootstrap()}
      queryClient={createQueryClient()}
      i18n={createI18n(language)}
      env="test"
    >
      <UploadResumeStatus entry={full} />
    </AppProviders>,
  );
}

describe('UploadResumeStatus', () => {
  it('names the folder and the file to choose again for a file chosen in a folder', () => {
    renderStatus({ key: 'survey/raw/scan.bin', interrupted: true, safeBytes: 16 * MiB });
    screen.getByText(
      'Upload interrupted. To resume it, choose the folder survey again, or the file survey/raw/scan.bin (17.8 MB).',
    );
    screen.getByText('16.8 MB of 17.8 MB safe on the server');
  });

  it('points to the banner when the file can be read again, in German too', () => {
    renderStatus({ interrupted: true, reopenable: true, safeBytes: 16 * MiB }, 'de');
    screen.getByText('Upload unterbrochen. Setzen Sie ihn mit der Schaltfläche oben fort.');
    screen.getByText('16,8 MB von 17,8 MB sicher auf dem Server');
  });

  it('says what is safe while uploading, and nothing once the file is complete', () => {
    const { unmount } = renderStatus({ status: 'uploading', percent: 50, safeBytes: 16 * MiB });
    screen.getByText('16.8 MB of 17.8 MB safe on the server');
    expect(screen.queryByText(/interrupted/)).toBeNull();
    unmount();
    renderStatus({ status: 'completed', percent: 100, safeBytes: 17 * MiB });
    expect(screen.queryByText(/safe on the server/)).toBeNull();
  });
});
