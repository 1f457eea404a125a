import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import {
  conflictBetween,
  PUBLISHER_FROM_B,
  savedDraft,
  TITLE,
  TITLE_FROM_A,
} from './support/conflict.js';
import { saveAndWait, textbox } from './support/editor.js';
import { apiAs } from './support/journey.js';
import { createAccount, type TestServer } from './support/server.js';
import { expectValue, logIn, test } from './support/test.js';

/** Two tabs of one browser (one session) on the same draft, in conflict (see conflictBetween). */
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
  const conflict = await conflictBetween(tabA, tabB);
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
