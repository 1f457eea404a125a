import { describe, expect } from 'vitest';
import { apiAs, draftWithFile, logIn } from './support/journey.js';
import { axeViolations } from './support/axe.js';
import { publishFromEditor } from './support/deposit.js';
import { createAccount } from './support/server.js';
import { expectPath, test } from './support/test.js';

const METADATA = {
  title: 'Gannet colony counts',
  publication_date: '2024-05-01',
  resource_type: { id: 'dataset' },
  creators: [
    {
      person_or_org: {
        type: 'personal',
        family_name: 'Lovelace',
        given_name: 'Ada',
        identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
      },
    },
  ],
  description: '<p>Counts from <strong>Bass Rock</strong>.</p>',
  publisher: 'Cairn',
};

describe('landing page journey', () => {
  test('a depositor previews a draft, publishes it and lands on the record with files and a citation', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services, { name: 'Ada Lovelace' });
    const api = await apiAs(server, account);
    const id = await draftWithFile(api, METADATA);
    await logIn(page, account, `/records/${id}?preview=1`);

    await page
      .getByRole('status')
      .getByText('Preview: this is how the record will look once published.')
      .waitFor();
    await page.getByRole('heading', { name: METADATA.title, level: 1 }).waitFor();
    await page.getByRole('link', { name: 'counts.csv' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Back to editing' }).click();
    await page.getByRole('heading', { name: 'Edit upload', level: 1 }).waitFor();
    await publishFromEditor(page);

    await expectPath(page, `/records/${id}`);
    await page.getByRole('heading', { name: METADATA.title, level: 1 }).waitFor();
    const files = page.getByRole('region', { name: 'Files' });
    await files.getByRole('cell', { name: 'Bass Rock' }).waitFor();
    await page.getByRole('link', { name: 'ORCID profile of Lovelace, Ada' }).waitFor();
    await page
      .getByText('Lovelace, A. (2024). Gannet colony counts [Data set]. Cairn.', { exact: false })
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // The server-rendered head carries the citation tags crawlers read.
    const html = await (await fetch(`${server.url}/records/${id}`)).text();
    expect(html).toContain('<meta name="citation_title" content="Gannet colony counts">');
    const bibtex = await page.request.get(`/records/${id}/export/bibtex`);
    expect(await bibtex.text()).toMatch(/^@dataset\{lovelace_2024_/);
  });

  test('a restricted record stays invisible to another signed-in person', async ({
    page,
    server,
  }) => {
    const owner = await createAccount(server.services);
    const api = await apiAs(server, owner);
    const id = await draftWithFile(api, METADATA, { record: 'restricted', files: 'restricted' });
    await api('POST', `/api/records/${id}/draft/actions/publish`);

    const stranger = await createAccount(server.services);
    await logIn(page, stranger, '/me/uploads');
    await page.goto(`/records/${id}`);
    await page.getByText('Permission denied.').waitFor();
    expect(await page.getByText(METADATA.title).count()).toBe(0);
    expect(await page.getByText('counts.csv').count()).toBe(0);
    expect((await page.request.get(`/api/records/${id}`)).status()).toBe(403);
  });

  test('the pages around the editor have no WCAG 2.2 A/AA violations', async ({ page, server }) => {
    const account = await createAccount(server.services);
    const api = await apiAs(server, account);
    const id = await draftWithFile(api, METADATA);
    await api('POST', `/api/records/${id}/draft/actions/publish`);

    await page.goto('/signup');
    await page.getByRole('heading', { name: 'Sign up', level: 1 }).waitFor();
    expect(await axeViolations(page), '/signup').toEqual([]);

    await page.goto('/login');
    await page.getByRole('heading', { name: 'Log in', level: 1 }).waitFor();
    expect(await axeViolations(page), '/login').toEqual([]);
    await logIn(page, account, '/me/uploads');
    await page.getByRole('link', { name: METADATA.title }).waitFor();
    expect(await axeViolations(page), '/me/uploads').toEqual([]);

    await page.goto('/uploads/new');
    await page.getByRole('heading', { name: 'New upload', level: 1 }).waitFor();
    expect(await axeViolations(page), '/uploads/new').toEqual([]);

    await page.goto('/account/tokens');
    await page.getByRole('cell', { name: 'e2e' }).first().waitFor();
    expect(await axeViolations(page), '/account/tokens').toEqual([]);

    await page.goto(`/records/${id}`);
    await page
      .getByRole('region', { name: 'Files' })
      .getByRole('cell', { name: 'Bass Rock' })
      .waitFor();
    expect(await axeViolations(page), `/records/${id}`).toEqual([]);

    // /logout ends the session and lands, signed out, on the login page.
    await page.getByRole('link', { name: 'Log out' }).click();
    await expectPath(page, '/login');
    await page.getByRole('heading', { name: 'Log in', level: 1 }).waitFor();
    await page.getByRole('banner').getByRole('link', { name: 'Sign up' }).waitFor();
    expect(await axeViolations(page), 'after /logout').toEqual([]);
  });
});
