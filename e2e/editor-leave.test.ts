import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { dialog, draftIdOf, openNewUpload, textbox } from './support/editor.js';
import { createAccount } from './support/server.js';
import { expectPath, expectValue, POLL, test } from './support/test.js';

function header(page: Page) {
  return page.getByRole('banner');
}

async function openMyUploads(page: Page) {
  await header(page).getByRole('link', { name: 'My uploads', exact: true }).click();
}

/** The dashboard's link to the upload titled `title`. */
function uploadLink(page: Page, title: string) {
  return page.getByRole('table').getByRole('link', { name: title, exact: true });
}

describe('leaving the editor', () => {
  test('a new upload is found again in My uploads, and leaving unsaved edits asks first', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services);
    await openNewUpload(page, account);
    const title = textbox(page, 'Title');
    await title.fill('Storm petrel burrow calls');

    // Straight away, before autosave: the edits exist only in this tab.
    await openMyUploads(page);
    const ask = dialog(page, 'Leave without saving?');
    await ask.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await ask.getByRole('button', { name: 'Stay on this page', exact: true }).click();
    await ask.waitFor({ state: 'detached' });
    await expectValue(title, 'Storm petrel burrow calls');

    // The first change made the upload a draft of its own, saved after a pause in typing.
    const id = await draftIdOf(page);
    await page.getByRole('heading', { name: 'Edit upload', level: 1 }).waitFor();
    await openMyUploads(page);
    await expectPath(page, '/me/uploads');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await uploadLink(page, 'Storm petrel burrow calls').click();
    await expectPath(page, `/uploads/${id}`);

    // Back is held like a link, and undone while the person decides.
    await expectValue(title, 'Storm petrel burrow calls');
    await title.fill('Storm petrel burrow calls, Mousa');
    await page.evaluate(() => window.history.back());
    await dialog(page, 'Leave without saving?')
      .getByRole('button', { name: 'Stay on this page', exact: true })
      .click();
    await expectPath(page, `/uploads/${id}`);
    await expectValue(title, 'Storm petrel burrow calls, Mousa');

    // Saved on the way out when the person asks for it.
    await openMyUploads(page);
    await dialog(page, 'Leave without saving?')
      .getByRole('button', { name: 'Save and leave', exact: true })
      .click();
    await expectPath(page, '/me/uploads');
    await uploadLink(page, 'Storm petrel burrow calls, Mousa').waitFor();
  });

  test('closing or reloading the tab with unsaved edits gets the browser’s question', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services);
    await openNewUpload(page, account);
    await textbox(page, 'Title').fill('Leach’s petrel counts');
    const asked: string[] = [];
    page.on('dialog', (question) => {
      asked.push(question.type());
      void question.dismiss();
    });
    // Dismissed: the tab stays, with what was typed.
    await page.reload({ timeout: 2_000 }).catch(() => undefined);
    await expect.poll(() => asked, POLL).toEqual(['beforeunload']);
    await expectValue(textbox(page, 'Title'), 'Leach’s petrel counts');
  });
});
