import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { describe, expect } from 'vitest';
import {
  RGW_START_TIMEOUT_MS,
  s3Environment,
  startRgw,
} from '../packages/server/src/test/ceph-rgw.js';
import { cairnCommand } from '../packages/server/src/test/cli-process.js';
import { addCreator, DRAFT_PATH } from './support/deposit.js';
import { createAccount, startServer } from './support/server.js';
import { expectPath, logIn, test } from './support/test.js';

const MiB = 1024 * 1024;
const BUCKET = 'cairn-e2e';

// eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from this pattern.
test.override('server', { scope: 'file' }, async ({}, { onCleanup }) => {
  const rgw = await startRgw();
  try {
    const server = await startServer(s3Environment(rgw, BUCKET));
    // The bucket and its CORS rule for the site's origin come from the operator's own command:
    // the upload below is what proves the rule lets a browser send parts.
    await cairnCommand(['storage', 'setup'], {
      ...s3Environment(rgw, BUCKET),
      CAIRN_SITE_URL: server.url,
      CAIRN_DATA_DIR: server.services.config.dataDir,
    });
    onCleanup(async () => {
      await server.close();
      await rgw.stop();
    });
    return server;
  } catch (error) {
    await rgw.stop();
    throw error;
  }
});

/**
 * The deposit form on S3 storage: its parts go from the browser straight to the bucket through
 * presigned links, on another origin than the site's, which the pages' Content-Security-Policy
 * must let the form reach (the page fixture fails the test on any refusal).
 */
describe('file uploader journey on S3', () => {
  test(
    'a file of 20 MiB is sent in parts from the browser straight to the bucket',
    { timeout: RGW_START_TIMEOUT_MS },
    async ({ page, server }) => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-s3-uploads-'));
      try {
        const file = path.join(dir, 'diffraction.bin');
        const bytes = Buffer.alloc(20 * MiB);
        for (let i = 0; i < bytes.length; i += 4) bytes.writeUInt32LE((i * 2654435761) >>> 0, i);
        await fs.writeFile(file, bytes);

        const account = await createAccount(server.services);
        await logIn(page, account, '/uploads/new');
        await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Photo 51 on S3');
        await addCreator(page, 'Franklin', 'Rosalind');

        const bucket = new URL((await server.services.store.uploadOrigin?.()) ?? 'http://missing')
          .origin;
        const toBucket: Request[] = [];
        page.on('request', (request) => {
          if (request.method() === 'PUT' && new URL(request.url()).origin === bucket)
            toBucket.push(request);
        });
        await chooseFile(page, file);
        await expectPath(page, DRAFT_PATH);
        const row = page.getByRole('row').filter({ hasText: 'diffraction.bin' });
        await row.getByRole('link', { name: 'diffraction.bin', exact: true }).waitFor({
          timeout: 60_000,
        });
        await row.getByText('100%').waitFor();

        // 20 MiB is two parts (16 MiB and 4 MiB), both sent to the bucket's origin, not the site's.
        expect(
          toBucket.map((request) => new URL(request.url()).searchParams.get('partNumber')).sort(),
        ).toEqual(['1', '2']);
        const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
        const stored = await page.evaluate(async (url) => {
          const response = await fetch(url, { headers: { Accept: 'application/json' } });
          return (await response.json()) as { size: number; checksum: string };
        }, `/api/records/${id}/draft/files/diffraction.bin`);
        expect(stored).toMatchObject({
          size: 20 * MiB,
          checksum: `md5:${createHash('md5').update(bytes).digest('hex')}`,
        });
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    },
  );
});

/** Picks a file through the "Choose files" button. */
async function chooseFile(page: Page, file: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose files' }).click();
  await (await chooser).setFiles([file]);
}
