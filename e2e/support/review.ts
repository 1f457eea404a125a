import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations } from './axe.js';
import { expectPath } from './test.js';

/**
 * The depositor, in the editor, picks the community for their draft and submits it for review
 * through the dialog, with `message`; returns the request id from the page it then shows.
 */
export async function submitThroughEditor(
  page: Page,
  draftId: string,
  communityTitle: string,
  message: string,
): Promise<string> {
  await page.goto(`/uploads/${draftId}`);
  await page.getByRole('heading', { name: 'Edit upload', level: 1 }).waitFor();
  const bar = page.getByRole('region', { name: 'Community' });
  await bar.getByRole('button', { name: 'Select a community', exact: true }).click();
  const picker = page.getByRole('dialog', { name: 'Select a community', exact: true });
  await picker.getByRole('button', { name: `Select ${communityTitle}`, exact: true }).click();
  await picker.waitFor({ state: 'hidden' });
  await bar.getByText(communityTitle).waitFor();

  // The file is listed as uploaded before Submit for review is enabled.
  await page.getByRole('row').filter({ hasText: 'counts.csv' }).getByRole('link').waitFor();
  await page.getByRole('button', { name: 'Submit for review', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Submit for review' });
  await dialog
    .getByRole('checkbox', {
      name: `The '${communityTitle}' curators will have access to view and edit your upload's metadata and files.`,
    })
    .check();
  await dialog
    .getByRole('checkbox', { name: /^If your upload is accepted by the community curators/ })
    .check();
  await dialog.getByRole('textbox', { name: 'Message to curators (optional)' }).fill(message);
  expect(await axeViolations(page), 'submit-for-review dialog').toEqual([]);
  await dialog.getByRole('button', { name: 'Submit record for review' }).click();

  await expectPath(page, /^\/me\/requests\/[^/]+$/);
  await commentWith(page, message).waitFor();
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
}

/** The comment with `text`, as shown in the conversation. */
export const commentWith = (page: Page, text: string) =>
  page.getByRole('article').filter({ hasText: text });
