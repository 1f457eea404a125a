import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildDraft, buildRecord } from '../../test/builders';
import { stubFetchSequence } from '../../test/fetch';
import { renderApp } from '../../test/renderApp';

describe('RecordPage', () => {
  it('shows the record from the bootstrap without asking the server', () => {
    const requests = stubFetchSequence();
    renderApp({ path: '/records/abcde-12345', bootstrap: { record: buildRecord() } });

    expect(screen.getByRole('heading', { level: 1, name: 'Ocean temperatures' })).toBeTruthy();
    expect(screen.getByText('Lovelace, Ada')).toBeTruthy();
    expect(screen.getByText('2024-05-01')).toBeTruthy();
    expect(screen.getByText('Dataset')).toBeTruthy();
    expect(screen.queryByText(/^Preview:/)).toBeNull();
    expect(requests).toHaveLength(0);
  });

  it('marks a preview of the draft', () => {
    renderApp({
      path: '/records/abcde-12345?preview=1',
      bootstrap: { record: buildDraft({ metadata: { title: 'Draft title' } }) },
    });

    expect(screen.getByRole('status').textContent).toContain(
      'Preview: this is how the record will look once published.',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Draft title' })).toBeTruthy();
  });
});
