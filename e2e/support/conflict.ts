import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations } from './axe.js';
import { dialog, saveAndWait, textbox } from './editor.js';
import type { Api } from './journey.js';
import { expectValue } from './test.js';

export const TITLE = 'Razorbill ledge counts';
export const TITLE_FROM_A = 'Razorbill ledge counts, 2024 season';
export const PUBLISHER_FROM_B = 'Isle of May Observatory';

/** A saved draft, made through the API; returns its id. */
export async function savedDraft(api: Api): Promise<string> {
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
 * Two editors on draft `id`, each already open on it: A saves a new title, then B, which opened
 * the draft before that save, changes the publisher and saves. The server refuses B's save (412,
 * the revision moved on) and B's editor shows both versions, field by field, to choose from:
 * A's change is the saved one. Whether A and B are two tabs of one person or two people in
 * their own browsers is the caller's.
 */
export async function conflictBetween(tabA: Page, tabB: Page): Promise<Locator> {
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
  // Both versions: B's title is the one it opened with, A's is the saved one.
  expect(await conflictCells(conflict, 'metadata.title')).toEqual([TITLE, TITLE_FROM_A]);
  expect(await conflictCells(conflict, 'metadata.publisher')).toEqual([PUBLISHER_FROM_B, '—']);
  expect(await axeViolations(tabB)).toEqual([]);
  return conflict;
}

/** A field's row of the conflict dialog: this tab's value, then the saved one. */
export function conflictCells(conflict: Locator, path: string): Promise<string[]> {
  return conflict.getByRole('row', { name: path }).getByRole('cell').allInnerTexts();
}
