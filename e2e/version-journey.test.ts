import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { publishFromEditor } from './support/deposit.js';
import { apiAs, draftWithFile, logIn } from './support/journey.js';
import { createAccount } from './support/server.js';
import { expectPath, expectValue, POLL, test } from './support/test.js';

const TITLE = 'Kittiwake nest counts';

/**
 * The versions list of a landing page: each entry as shown ("v2 LATEST May 1, 2024": the badge is
 * in capitals, the date in the page's language) and the one marked as the page's own.
 */
async function versionsShown(page: Page) {
  const region = page.getByRole('region', { name: 'Versions' });
  const entries = await region
    .getByRole('listitem')
    .evaluateAll((items) =>
      items.map((item) => (item as HTMLElement).innerText.replace(/\s+/g, ' ')),
    );
  const current = await region.locator('[aria-current="page"]').allTextContents();
  return { entries, current };
}

const BOTH_VERSIONS = [expect.stringMatching(/^v2 Latest /i), 'v1 May 1, 2024'];

describe('new version journey', () => {
  test('a new version imports the files of the previous one, is published and becomes the latest', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services, { name: 'Ada Lovelace' });
    const api = await apiAs(server, account);
    const firstId = await draftWithFile(api, {
      title: TITLE,
      version: 'v1',
      publication_date: '2024-05-01',
      resource_type: { id: 'dataset' },
      creators: [
        { person_or_org: { type: 'personal', family_name: 'Lovelace', given_name: 'Ada' } },
      ],
    });
    await api('POST', `/api/records/${firstId}/draft/actions/publish`);
    const firstFiles = await api('GET', `/api/records/${firstId}/files`);

    // The dashboard's "New version" opens the new draft in the editor, without files.
    await logIn(page, account, '/me/uploads');
    await page
      .getByRole('row')
      .filter({ hasText: TITLE })
      .getByRole('button', { name: /^New version/ })
      .click();
    await expectPath(page, /^\/uploads\/(?!new$)[^/]+$/);
    const secondId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    expect(secondId).not.toBe(firstId);
    await page.getByRole('heading', { name: 'Edit upload', level: 1 }).waitFor();
    await expectValue(page.getByRole('textbox', { name: 'Title', exact: true }), TITLE);
    await page.getByText('You can import files from the previous version.').waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'counts.csv' }).count()).toBe(0);
    expect(await axeViolations(page), 'new-version editor').toEqual([]);

    // The banner's button brings the previous version's files over; the banner goes.
    await page.getByRole('button', { name: 'Import files' }).click();
    const row = page.getByRole('row').filter({ hasText: 'counts.csv' });
    await row.getByRole('link', { name: 'counts.csv', exact: true }).waitFor();
    await page.getByText('You can import files from the previous version.').waitFor({
      state: 'hidden',
    });
    const imported = await api('GET', `/api/records/${secondId}/draft/files`);
    expect(
      imported.entries.map((entry: Record<string, unknown>) => [entry.key, entry.checksum]),
    ).toEqual(
      firstFiles.entries.map((entry: Record<string, unknown>) => [entry.key, entry.checksum]),
    );

    await page.getByRole('textbox', { name: 'Version', exact: true }).fill('v2');
    await publishFromEditor(page);

    // The new version's page lists both, itself as the latest; its file is the imported one.
    await expectPath(page, `/records/${secondId}`);
    await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
    await page
      .getByRole('region', { name: 'Files' })
      .getByRole('cell', { name: 'Bass Rock' })
      .waitFor();
    await expect
      .poll(() => versionsShown(page), POLL)
      .toEqual({ entries: BOTH_VERSIONS, current: ['v2'] });
    const versions = page.getByRole('region', { name: 'Versions' });
    expect(await axeViolations(page), '/records/:id (v2)').toEqual([]);

    // The first version's page still shows, and points to the latest.
    await versions.getByRole('link', { name: 'v1', exact: true }).click();
    await expectPath(page, `/records/${firstId}`);
    await expect
      .poll(() => versionsShown(page), POLL)
      .toEqual({ entries: BOTH_VERSIONS, current: ['v1'] });
    await versions.getByRole('link', { name: 'v2', exact: true }).waitFor();
  });
});
