import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { openPage } from './support/browser.js';
import {
  conflictBetween,
  conflictCells,
  PUBLISHER_FROM_B,
  savedDraft,
  TITLE,
  TITLE_FROM_A,
} from './support/conflict.js';
import { dialog, expectEventually, saveAndWait, textbox } from './support/editor.js';
import { hasFocus, tabTo } from './support/keyboard.js';
import { apiAs, type Api } from './support/journey.js';
import { createAccount, type TestAccount, type TestServer } from './support/server.js';
import { expectPath, expectValue, logIn, POLL, test } from './support/test.js';

const SHARE_DIALOG = `Share “${TITLE}”`;

/**
 * The owner of a never-published draft (made through the API) and a second person, named
 * `colleague` (the tests of a file share one server: each names its own).
 */
async function ownerAndColleague(server: TestServer, colleagueName = 'Grace Colleague') {
  const owner = await createAccount(server.services, { name: 'Ada Owner' });
  const colleague = await createAccount(server.services, { name: colleagueName });
  const api = await apiAs(server, owner);
  const id = await savedDraft(api);
  return { owner, colleague, api, id };
}

/** Opens the Share dialog with its button; returns the button and the dialog. */
async function openShare(page: Page) {
  const button = page.getByRole('button', { name: 'Share', exact: true });
  await button.click();
  const share = dialog(page, SHARE_DIALOG);
  await share.waitFor();
  return { button, share };
}

/** Grants `account` the permission through the API, as the Share dialog's People tab does. */
async function grantThrough(api: Api, id: string, account: TestAccount, permission: string) {
  await api('POST', `/api/records/${id}/access/grants`, {
    grants: [{ subject: { type: 'user', id: String(account.user.id) }, permission }],
  });
}

describe('sharing a draft', () => {
  test('by a link that shows the draft until revoked, and with a person who then edits it', async ({
    page,
    server,
    browser,
  }) => {
    const { colleague, owner, api, id } = await ownerAndColleague(server);
    await logIn(page, owner, `/uploads/${id}`);

    // From the editor's header: the dialog opens, Escape closes it, the focus is back on Share.
    const fromEditor = await openShare(page);
    await fromEditor.share.getByRole('tab', { name: 'Links' }).waitFor();
    await page.keyboard.press('Escape');
    await fromEditor.share.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(fromEditor.button), POLL).toBe(true);

    // From the landing page (the draft's preview, the only page a never-published draft has).
    await page.goto(`/records/${id}?preview=1`);
    const { share } = await openShare(page);
    await share.getByRole('combobox', { name: 'Permission' }).selectOption('preview');
    await share.getByRole('textbox', { name: 'Description (optional)' }).fill('Co-authors');
    await share.getByRole('button', { name: 'Create link' }).click();
    const address = share.getByRole('textbox', { name: 'Address of Co-authors' });
    await address.waitFor();
    const url = await address.inputValue();
    expect(url).toMatch(new RegExp(`^${server.url}/records/${id}\\?preview=1&token=[\\w-]+$`));
    expect(await axeViolations(page), 'the Share dialog with a link').toEqual([]);

    // Someone else, in a browser of their own and not signed in, opens the draft by the link.
    const visitor = await openPage(browser, server.url);
    try {
      await visitor.page.goto(url);
      await visitor.page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();

      page.once('dialog', (question) => void question.accept());
      await share.getByRole('button', { name: 'Revoke Co-authors' }).click();
      await address.waitFor({ state: 'detached' });
      await share.getByText('No links yet.').waitFor();

      // Revoked: the same address opens nothing any more.
      await visitor.page.goto(url);
      await visitor.page.getByRole('heading', { name: 'This record is restricted' }).waitFor();
      await visitor.page.getByText('The link you followed does not open this record').waitFor();
      expect(await visitor.page.getByRole('heading', { name: TITLE }).count()).toBe(0);
      expect(visitor.pageErrors).toEqual([]);
    } finally {
      await visitor.context.close();
    }

    // People: found by part of their name, given edit, listed by name.
    await share.getByRole('tab', { name: 'People' }).click();
    await share.getByText('Not shared with anyone yet.').waitFor();
    const person = share.getByRole('combobox', { name: 'Person' });
    await person.fill('Grace');
    await page.getByRole('option', { name: 'Grace Colleague' }).click();
    await share.getByRole('combobox', { name: 'Permission', exact: true }).selectOption('edit');
    await share.getByRole('textbox', { name: 'Message (optional)' }).fill('Please check it.');
    await share.getByRole('button', { name: 'Share', exact: true }).click();
    await share.getByRole('cell', { name: 'Grace Colleague', exact: true }).waitFor();
    expect(await share.getByRole('status').innerText()).toBe('Shared with Grace Colleague.');
    expect(
      await share.getByRole('combobox', { name: 'Permission of Grace Colleague' }).inputValue(),
    ).toBe('edit');
    expect(await axeViolations(page), 'the Share dialog with a person').toEqual([]);

    // Access requests: who may ask for the files, on what terms, saved on the record's parent.
    await share.getByRole('tab', { name: 'Access requests' }).click();
    await share
      .getByRole('switch', { name: 'Signed-in people may request access to restricted files' })
      .check();
    await share.getByRole('textbox', { name: 'Conditions' }).fill('For non-commercial research.');
    await share.getByRole('button', { name: 'Save access settings' }).click();
    await share.getByText('Access settings saved.').waitFor();
    expect((await api('GET', `/api/records/${id}/draft`)).parent.access.settings).toMatchObject({
      allow_user_requests: true,
      allow_guest_requests: false,
      accept_conditions_text: 'For non-commercial research.',
    });
    expect(await axeViolations(page), 'the Share dialog’s access requests').toEqual([]);

    // The colleague finds the draft under "Shared with me" and edits it.
    const other = await openPage(browser, server.url);
    try {
      await logIn(other.page, colleague, '/me/uploads');
      await other.page.getByRole('tab', { name: 'Shared with me' }).click();
      await other.page.getByRole('link', { name: TITLE, exact: true }).click();
      await expectPath(other.page, `/uploads/${id}`);
      await textbox(other.page, 'Publisher').fill(PUBLISHER_FROM_B);
      await saveAndWait(other.page);
      await expectEventually(
        async (): Promise<unknown> =>
          (await api('GET', `/api/records/${id}/draft`)).metadata.publisher,
        PUBLISHER_FROM_B,
      );
      expect(other.pageErrors).toEqual([]);
    } finally {
      await other.context.close();
    }
  });

  test('by keyboard alone: open, create a link, share with a person, close back to Share', async ({
    page,
    server,
  }) => {
    const { owner, id } = await ownerAndColleague(server, 'Grace Keys');
    await logIn(page, owner, `/records/${id}?preview=1`);
    const button = page.getByRole('button', { name: 'Share', exact: true });
    await tabTo(page, button);
    await page.keyboard.press('Enter');
    const share = dialog(page, SHARE_DIALOG);
    await share.waitFor();

    await tabTo(page, share.getByRole('button', { name: 'Create link' }));
    await page.keyboard.press('Enter');
    await share.getByRole('textbox', { name: 'Address of Link 1' }).waitFor();

    // The tabs: arrow keys move between them, as WAI-ARIA's tabs pattern has it.
    await tabTo(page, share.getByRole('tab', { name: 'Links' }), { backwards: true });
    await page.keyboard.press('ArrowRight');
    const person = share.getByRole('combobox', { name: 'Person' });
    await tabTo(page, person);
    await page.keyboard.type('Grace Keys');
    await page.getByRole('option', { name: 'Grace Keys' }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expectValue(person, 'Grace Keys');
    await tabTo(page, share.getByRole('button', { name: 'Share', exact: true }));
    await page.keyboard.press('Enter');
    await share.getByRole('cell', { name: 'Grace Keys', exact: true }).waitFor();

    await page.keyboard.press('Escape');
    await share.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(button), POLL).toBe(true);
  });
});

describe('two people editing the same draft', () => {
  test('the second save is refused showing the saved change and who saved it; taking it, then keeping mine, both save', async ({
    page,
    server,
    browser,
  }) => {
    const { owner, colleague, api, id } = await ownerAndColleague(server, 'Grace Conflict');
    await grantThrough(api, id, colleague, 'edit');
    await logIn(page, owner, `/uploads/${id}`);
    const other = await openPage(browser, server.url);
    try {
      const tabB = other.page;
      await logIn(tabB, colleague, `/uploads/${id}`);
      // The owner saves a new title; the colleague, who opened it before, is told on saving.
      let conflict = await conflictBetween(page, tabB);
      // Who saved the version that came first, by name.
      expect(await conflict.getByTestId('conflict-saved-by').innerText()).toMatch(
        /^Saved by Ada Owner at \d/,
      );
      await conflict.getByRole('button', { name: 'Use the saved version' }).click();
      await conflict.waitFor({ state: 'detached' });
      await expectValue(textbox(tabB, 'Title'), TITLE_FROM_A);
      await textbox(tabB, 'Publisher').fill(PUBLISHER_FROM_B);
      await saveAndWait(tabB);

      // Now the owner's editor is behind: their next save meets the colleague's publisher.
      await textbox(page, 'Title').fill(TITLE);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      conflict = dialog(page, 'This draft was changed elsewhere');
      await conflict.waitFor();
      expect(await conflictCells(conflict, 'metadata.publisher')).toEqual(['—', PUBLISHER_FROM_B]);
      expect(await conflict.getByTestId('conflict-saved-by').innerText()).toMatch(
        /^Saved by Grace Conflict at \d/,
      );
      await conflict.getByRole('button', { name: 'Keep my version' }).click();
      await conflict.waitFor({ state: 'detached' });
      await page.getByRole('status').getByText('Record successfully saved.').waitFor();
      const draft = await api('GET', `/api/records/${id}/draft`);
      expect(draft.metadata.title).toBe(TITLE);
      expect(other.pageErrors).toEqual([]);
    } finally {
      await other.context.close();
    }
  });
});
