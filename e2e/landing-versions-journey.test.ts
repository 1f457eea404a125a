import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { publishFromEditor } from './support/deposit.js';
import { apiAs, draftWithFile, logIn } from './support/journey.js';
import { createAccount } from './support/server.js';
import { expectPath, test } from './support/test.js';

const TITLE = 'Guillemot ledge counts';

describe('versions on the landing page', () => {
  test('the owner starts a new version from the landing page, takes a DOI from this site, and the older version points to it', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services, { name: 'Ada Lovelace' });
    const api = await apiAs(server, account);
    const firstId = await draftWithFile(api, {
      title: TITLE,
      publication_date: '2024-05-01',
      resource_type: { id: 'dataset' },
      publisher: 'Cairn',
      creators: [
        { person_or_org: { type: 'personal', family_name: 'Lovelace', given_name: 'Ada' } },
      ],
    });
    await api('POST', `/api/records/${firstId}/draft/pids/doi`);
    const first = await api('POST', `/api/records/${firstId}/draft/actions/publish`);
    const concept = first.parent.pids.doi.identifier as string;

    // The first version's page: its label, the DOI for all versions, and its owner's actions.
    await logIn(page, account, `/records/${firstId}`);
    await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
    const sidebar = page.getByRole('complementary');
    await sidebar.getByText(`Cite all versions: ${concept}`).waitFor();
    await page.getByRole('article').getByText('Version 1', { exact: true }).waitFor();
    expect(await axeViolations(page), '/records/:id (v1, owner)').toEqual([]);

    await page
      .getByRole('group', { name: 'Manage this record' })
      .getByRole('button', { name: 'New version' })
      .click();
    await expectPath(page, /^\/uploads\/(?!new$)[^/]+$/);
    const secondId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    expect(secondId).not.toBe(firstId);

    // After a version with a DOI from this site, this one may take one too, and only that.
    const needOne = page.getByRole('radio', { name: 'No, I need one' });
    await needOne.waitFor();
    await expect
      .poll(() => page.getByRole('radio', { name: 'Yes, I already have one' }).isDisabled())
      .toBe(true);
    expect(await needOne.isDisabled()).toBe(false);
    await needOne.check();
    await page.getByRole('button', { name: 'Get a DOI now!' }).click();
    await page.getByText(`10.5072/${secondId}`).waitFor();
    await page.getByRole('button', { name: 'Import files' }).click();
    await page.getByRole('row').filter({ hasText: 'counts.csv' }).waitFor();
    await publishFromEditor(page);

    await expectPath(page, `/records/${secondId}`);
    await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
    await page.getByRole('complementary').getByText(`Cite all versions: ${concept}`).waitFor();
    await page.getByRole('link', { name: `DOI 10.5072/${secondId}` }).waitFor();
    const versions = page.getByRole('region', { name: 'Versions' });
    await versions.getByText('Version 2', { exact: true }).waitFor();
    expect(await page.getByText('There is a newer version of this record.').count()).toBe(0);

    // The first version now says a newer one exists, and its link leads to it.
    await versions.getByRole('link', { name: 'Version 1', exact: true }).click();
    await expectPath(page, `/records/${firstId}`);
    await page.getByText('There is a newer version of this record.').waitFor();
    expect(await axeViolations(page), '/records/:id (older version)').toEqual([]);
    await page.getByRole('link', { name: 'View the latest version' }).click();
    await expectPath(page, `/records/${secondId}`);
  });
});
