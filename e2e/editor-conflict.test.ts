import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { dialog, saveAndWait, textbox } from './support/editor.js';
import { apiAs, type Api } from './support/journey.js';
import { createAccount, type TestServer } from './support/server.js';
import { expectValue, logIn, test } from './support/test.js';

const TITLE = 'Razorbill ledge counts';
const TITLE_FROM_A = 'Razorbill ledge counts, 2024 season';
const PUBLISHER_FROM_B = 'Isle of May Observatory';

/** A saved draft, made through the API; returns its id. */
async function savedDraft(api: Api): Promise<string> {
  const draft = await api('POST', '/api/records', {
    metadata: {
      title: TITLE,
      publication_date: '2024-05-01',
      resource_type: { id: 'dataset' },
      creators: [
        { person_or_org: { type: 'personal', family_name: 'Lovelace', given_name: 'Ada' } },
      ],
    },
    files: { enabled: false },
  });
  return draft.id as string;
}

/**
 * Two tabs of one browser (one session) on the same draft: A saves a new title, then B, which
 * opened the draft before that save, changes the publisher and saves. The server refuses B's save
 * (412, the revision moved on) and B's editor shows both versions to choose from.
 */
async function conflictingEdits(page: Page, server: TestServer) {
  const account = await createAccount(server.services);
  const api = await apiAs(server, account);
  const id = await savedDraft(api);
  await logIn(page, account, `/uploads/${id}`);
  const tabA = page;
  const tabB = await page.context().newPage();
  const errorsInB: Error[] = [];
  tabB.on('pageerror', (error) => errorsInB.push(error));
  await tabB.goto(`/uploads/${id}`);
  await expectValue(textbox(tabB, 'Title'), TITLE);

  await textbox(tabA, 'Title').fill(TITLE_FROM_A);
  await saveAndWait(tabA);

  await textbox(tabB, 'Publisher').fill(PUBLISHER_FROM_B);
  // An autosave after a pause may be the save that is refused first; either way the dialog opens.
  await tabB.getByRole('button', { name: 'Save', exact: true }).click();
  const conflict = dialog(tabB, 'This draft was changed elsewhere');
  await conflict
    .getByText(
      'Someone (perhaps you, in another tab) saved this draft after you opened it. Nothing has been overwritten. Choose which version to keep.',
    )
    .waitFor();
  // Both versions, field by field: B's title is the one it opened with, A's is saved.
  const cells = async (path: string) =>
    conflict.getByRole('row', { name: path }).getByRole('cell').allInnerTexts();
  expect(await cells('metadata.title')).toEqual([TITLE, TITLE_FROM_A]);
  expect(await cells('metadata.publisher')).toEqual([PUBLISHER_FROM_B, '—']);
  expect(await axeViolations(tabB)).toEqual([]);
  return { api, id, tabA, tabB, conflict, errorsInB };
}

describe('two tabs on one draft', () => {
  test('the second save is refused, both versions are shown, and keeping mine saves it knowingly', async ({
    page,
    server,
  }) => {
    const { api, id, tabB, conflict, errorsInB } = await conflictingEdits(page, server);

    await conflict.getByRole('button', { name: 'Keep my version' }).click();
    await conflict.waitFor({ state: 'detached' });
    await tabB.getByRole('status').getByText('Record successfully saved.').waitFor();

    const draft = await api('GET', `/api/records/${id}/draft`);
    expect(draft.metadata.title).toBe(TITLE);
    expect(draft.metadata.publisher).toBe(PUBLISHER_FROM_B);
    expect(errorsInB).toEqual([]);
  });

  test('taking the saved version fills the form from it, and the next save builds on it', async ({
    page,
    server,
  }) => {
    const { api, id, tabB, conflict, errorsInB } = await conflictingEdits(page, server);

    await conflict.getByRole('button', { name: 'Use the saved version' }).click();
    await conflict.waitFor({ state: 'detached' });
    await expectValue(textbox(tabB, 'Title'), TITLE_FROM_A);
    await expectValue(textbox(tabB, 'Publisher'), '');
    let draft = await api('GET', `/api/records/${id}/draft`);
    expect(draft.metadata.title).toBe(TITLE_FROM_A);
    expect(draft.metadata.publisher).toBeUndefined();

    // B is now on the saved revision: its next edit saves without a conflict, over A's title.
    await textbox(tabB, 'Publisher').fill(PUBLISHER_FROM_B);
    await saveAndWait(tabB);
    draft = await api('GET', `/api/records/${id}/draft`);
    expect(draft.metadata.title).toBe(TITLE_FROM_A);
    expect(draft.metadata.publisher).toBe(PUBLISHER_FROM_B);
    expect(errorsInB).toEqual([]);
  });
});
