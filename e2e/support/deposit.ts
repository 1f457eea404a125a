import type { Page } from 'playwright-core';

/** Adds a person through the creators widget's dialog, as a depositor does. */
export async function addCreator(page: Page, familyName: string, givenNames: string) {
  await page.getByRole('button', { name: 'Add creator', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add creator' });
  await dialog.getByRole('textbox', { name: 'Family name', exact: true }).fill(familyName);
  await dialog.getByRole('textbox', { name: 'Given names', exact: true }).fill(givenNames);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Publishes the draft in the editor through its confirmation dialog. */
export async function publishFromEditor(page: Page) {
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const dialog = page.getByRole('dialog', {
    name: 'Are you sure you want to publish this record?',
  });
  await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
}

/** A saved draft's address, `/uploads/<id>` — not `/uploads/new`, where a new upload starts. */
export const DRAFT_PATH = /^\/uploads\/(?!new$)[^/]+$/;

/** The names of the creator rows the list shows, top to bottom (in the order of their places). */
export async function creatorRowNames(page: Page): Promise<string[]> {
  return page
    .getByRole('list', { name: 'Creators' })
    .getByRole('listitem')
    .evaluateAll((rows) =>
      rows
        .filter((row) => row.hasAttribute('aria-posinset'))
        .sort(
          (a, b) =>
            Number(a.getAttribute('aria-posinset')) - Number(b.getAttribute('aria-posinset')),
        )
        .map((row) => row.querySelector('p')?.textContent ?? ''),
    );
}
