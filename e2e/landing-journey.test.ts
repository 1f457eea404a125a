import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { createAccount, type TestAccount, type TestServer } from './support/server.js';
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

/** The REST API as one account, through a personal access token (what API clients do). */
async function apiAs(server: TestServer, account: TestAccount) {
  const { token } = await server.services.users.createToken(account.user.id, 'e2e');
  return async (method: string, path: string, body?: unknown, type = 'application/json') => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': type }),
      },
      ...(body === undefined
        ? {}
        : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as Record<string, any>) : {};
  };
}

/** A draft with one CSV file, made through the API; returns its id. */
async function draftWithFile(
  api: Awaited<ReturnType<typeof apiAs>>,
  access?: Record<string, unknown>,
): Promise<string> {
  const draft = await api('POST', '/api/records', {
    metadata: METADATA,
    ...(access ? { access } : {}),
  });
  const id = draft.id as string;
  await api('POST', `/api/records/${id}/draft/files`, [{ key: 'counts.csv' }]);
  await api(
    'PUT',
    `/api/records/${id}/draft/files/counts.csv/content`,
    'site,count\nBass Rock,150000\nNoss,11000\n',
    'application/octet-stream',
  );
  await api('POST', `/api/records/${id}/draft/files/counts.csv/commit`);
  return id;
}

async function logIn(page: Page, account: TestAccount, next: string): Promise<void> {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expectPath(page, next);
}

describe('landing page journey', () => {
  test('a depositor previews a draft, publishes it and lands on the record with files and a citation', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services, { name: 'Ada Lovelace' });
    const api = await apiAs(server, account);
    const id = await draftWithFile(api);
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
    await page.getByRole('button', { name: 'Publish' }).click();

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
    const id = await draftWithFile(api, { record: 'restricted', files: 'restricted' });
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
    const id = await draftWithFile(api);
    await api('POST', `/api/records/${id}/draft/actions/publish`);

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
  });
});
