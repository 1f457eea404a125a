import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { DRAFT_PATH } from './support/deposit.js';
import { activate, expectVisibleFocus, hasFocus, tabTo } from './support/keyboard.js';
import { logIn } from './support/journey.js';
import { createAccount } from './support/server.js';
import { expectPath, POLL, test } from './support/test.js';

let dir = '';
let csv = '';

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-keyboard-'));
  csv = path.join(dir, 'puffins.csv');
  await fs.writeFile(csv, 'burrow,occupied\n1,yes\n2,no\n');
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('keyboard journey', () => {
  test('a depositor creates, describes, licenses, uploads and publishes a record with the keyboard alone', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services, { name: 'Ada Lovelace' });
    await logIn(page, account, '/me/uploads');
    await page.getByRole('heading', { name: 'My uploads', level: 1 }).waitFor();

    // From here on: keys only. The skip link is the first stop and jumps past the header.
    await page.keyboard.press('Tab');
    expect(await expectVisibleFocus(page)).toContain('Skip to main content');
    await page.keyboard.press('Enter');
    expect(await hasFocus(page.getByRole('main'))).toBe(true);

    // Create: the dashboard's "New upload", the first stop in the main content.
    const newUpload = page.getByRole('main').getByRole('link', { name: 'New upload' });
    await page.keyboard.press('Tab');
    expect(await hasFocus(newUpload)).toBe(true);
    await expectVisibleFocus(page);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New upload', level: 1 }).waitFor();
    expect(await axeViolations(page), '/uploads/new').toEqual([]);

    // The resource type: typed into the searchable list, the option chosen with an arrow.
    const resourceType = page.getByRole('combobox', { name: 'Resource type', exact: true });
    await tabTo(page, resourceType);
    await page.keyboard.type('Dataset');
    // Typing filters the options; the arrow then highlights the one left.
    const options = page.getByRole('listbox').getByRole('option');
    await expect.poll(() => options.allTextContents(), POLL).toEqual(['Dataset']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => resourceType.inputValue(), POLL).toBe('Dataset');

    await tabTo(page, page.getByRole('textbox', { name: 'Title', exact: true }));
    await page.keyboard.type('Puffin burrow occupancy');

    // Creators: the dialog opens on Enter, takes the names and saves on Enter.
    const addCreator = page.getByRole('button', { name: 'Add creator', exact: true });
    await tabTo(page, addCreator);
    await page.keyboard.press('Enter');
    const creatorDialog = page.getByRole('dialog', { name: 'Add creator' });
    await creatorDialog.waitFor();
    await tabTo(page, creatorDialog.getByRole('textbox', { name: 'Family name', exact: true }));
    await page.keyboard.type('Lovelace');
    await tabTo(page, creatorDialog.getByRole('textbox', { name: 'Given names', exact: true }));
    await page.keyboard.type('Ada');
    await page.keyboard.press('Enter');
    await creatorDialog.waitFor({ state: 'hidden' });
    // The dialog hands the focus back to the button that opened it.
    await expect.poll(() => hasFocus(addCreator), POLL).toBe(true);
    await page.getByRole('list', { name: 'Creators' }).getByText('Lovelace, Ada').waitFor();

    // Licence: searched, picked with Space, confirmed.
    await tabTo(page, page.getByRole('button', { name: 'Add standard', exact: true }));
    await page.keyboard.press('Enter');
    const licenseDialog = page.getByRole('dialog', { name: 'Add standard license' });
    await licenseDialog.waitFor();
    await page.keyboard.type('Attribution 4.0');
    const ccBy = licenseDialog.getByRole('radio', {
      name: 'Creative Commons Attribution 4.0 International',
      exact: true,
    });
    await tabTo(page, ccBy);
    await page.keyboard.press('Space');
    await expect.poll(() => ccBy.isChecked(), POLL).toBe(true);
    expect(await axeViolations(page), 'licence dialog').toEqual([]);
    await activate(page, licenseDialog.getByRole('button', { name: 'Add license', exact: true }));
    await licenseDialog.waitFor({ state: 'hidden' });
    await page.getByText('Creative Commons Attribution 4.0 International').first().waitFor();

    // Upload through the button: Enter on "Choose files" opens the system's file dialog.
    const chooser = page.waitForEvent('filechooser');
    await tabTo(page, page.getByRole('button', { name: 'Choose files' }), { backwards: true });
    await page.keyboard.press('Enter');
    await (await chooser).setFiles(csv);
    await expectPath(page, DRAFT_PATH);
    const row = page.getByRole('row').filter({ hasText: 'puffins.csv' });
    await row.getByRole('link', { name: 'puffins.csv', exact: true }).waitFor();
    await row.getByText('100%').waitFor();
    expect(await axeViolations(page), '/uploads/:id with a file').toEqual([]);
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

    // Publish: the sidebar's button, then the confirmation dialog's.
    await tabTo(page, page.getByRole('button', { name: 'Publish', exact: true }));
    await page.keyboard.press('Enter');
    const publishDialog = page.getByRole('dialog', {
      name: 'Are you sure you want to publish this record?',
    });
    await publishDialog.waitFor();
    expect(await axeViolations(page), 'publish dialog').toEqual([]);
    await tabTo(page, publishDialog.getByRole('button', { name: 'Publish', exact: true }));
    await page.keyboard.press('Enter');

    await expectPath(page, `/records/${id}`);
    await page.getByRole('heading', { name: 'Puffin burrow occupancy', level: 1 }).waitFor();
    await page.getByText('Lovelace, Ada', { exact: true }).first().waitFor();
    await page.getByText('Creative Commons Attribution 4.0 International').first().waitFor();
    await page.getByRole('region', { name: 'Files' }).getByText('puffins.csv').first().waitFor();
  });
});
