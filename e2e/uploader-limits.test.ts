import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import { addCreator, publishFromEditor } from './support/deposit.js';
import { createAccount, startServer } from './support/server.js';
import { expectPath, logIn, test } from './support/test.js';

let dir = '';

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-limits-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

// eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from this pattern.
test.override('server', { scope: 'file' }, async ({}, { onCleanup }) => {
  const server = await startServer({ CAIRN_FILES_ALLOW_EMPTY: 'false' });
  onCleanup(() => server.close());
  return server;
});

async function writeFile(name: string, content: string): Promise<string> {
  const file = path.join(dir, name);
  await fs.writeFile(file, content);
  return file;
}

/** Picks files through the "Choose files" button, operated from the keyboard. */
async function chooseFiles(page: Page, files: string[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose files' }).focus();
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(files);
}

/**
 * The uploader knows the limits the server will hold it to before it sends anything: empty files
 * when the repository refuses them, and the person's own quota when an admin set one.
 */
describe('uploader limits', () => {
  test('skips empty files with a warning, and publishing goes ahead', async ({ page, server }) => {
    const account = await createAccount(server.services);
    await logIn(page, account, '/uploads/new');
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Tide gauge readings');
    await addCreator(page, 'Franklin', 'Rosalind');
    await page.getByRole('textbox', { name: 'Publication date', exact: true }).fill('2024-05-01');
    await page.getByRole('combobox', { name: 'Resource type', exact: true }).click();
    await page.getByRole('option', { name: 'Dataset', exact: true }).click();

    await chooseFiles(page, [
      await writeFile('empty.txt', ''),
      await writeFile('tides.csv', 'time,level\n0,1.2\n'),
    ]);

    const warning = page.getByRole('alert').filter({ hasText: 'Could not upload all files.' });
    await warning.getByText('Empty files were skipped.').waitFor();
    await warning.getByText('empty.txt').waitFor();
    const tides = page.getByRole('row').filter({ hasText: 'tides.csv' });
    await tides.getByText('100%').waitFor({ timeout: 60_000 });
    await page.getByRole('row').filter({ hasText: 'empty.txt' }).waitFor({ state: 'detached' });

    await publishFromEditor(page);
    await expectPath(page, /^\/records\/[^/]+$/);
  });

  test("warns before uploading past the person's own quota", async ({ page, server }) => {
    const account = await createAccount(server.services);
    await server.services.files.setUserQuota(account.user.id, 2, null);
    await logIn(page, account, '/uploads/new');
    await page.getByText('0 out of 2 files').waitFor();

    await chooseFiles(page, [
      await writeFile('a.csv', 'a'),
      await writeFile('b.csv', 'b'),
      await writeFile('c.csv', 'c'),
    ]);

    const warning = page.getByRole('alert').filter({ hasText: 'Could not upload files.' });
    await warning
      .getByText('Uploading the selected files would result in 3 files (max. 2).')
      .waitFor();
    // Nothing was sent: the selection was refused as a whole, as for the configured quota.
    await page.getByText('0 out of 2 files').waitFor();
  });
});
