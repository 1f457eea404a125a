import { execFileSync } from 'node:child_process';
import { FILES_EMBEDDED_MAX } from '@cairn/shared';
import { describe, expect } from 'vitest';
import { apiAs, draftWithFile, draftWithFiles, logIn } from './support/journey.js';
import { axeViolations } from './support/axe.js';
import { openPage } from './support/browser.js';
import { addCreator, publishFromEditor } from './support/deposit.js';
import { choose, combobox, draftIdOf, openNewUpload, textbox } from './support/editor.js';
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

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** A one-page PDF, empty. */
const PDF = [
  '%PDF-1.4',
  '1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj',
  '2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj',
  '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200]>> endobj',
  'trailer <</Root 1 0 R>>',
  '%%EOF',
].join('\n');
const MARKDOWN =
  '# Field notes\n\nCounts are **breeding pairs**, see [the protocol](https://example.org/p).\n\n- Bass Rock\n- Noss\n';

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
    const citation = page.getByRole('region', { name: 'Cite as' });
    await citation
      .getByText('Lovelace, A. (2024). Gannet colony counts [Data set]. Cairn.', { exact: false })
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // Another style is formatted by the server too; the page loads no citation processor.
    await citation.getByLabel('Citation style').selectOption('IEEE');
    await citation
      .getByText('[1] A. Lovelace, “Gannet colony counts,” Cairn, 2024.', { exact: false })
      .waitFor();
    const scripts = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((r) => r.name),
    );
    expect(scripts.filter((name) => /citation|citeproc/i.test(name))).toEqual([]);

    // The server-rendered head carries the citation tags crawlers read.
    const html = await (await fetch(`${server.url}/records/${id}`)).text();
    expect(html).toContain('<meta name="citation_title" content="Gannet colony counts">');
    const bibtex = await page.request.get(`/records/${id}/export/bibtex`);
    expect(await bibtex.text()).toMatch(/^@dataset\{lovelace_2024_/);
  });

  test('a record of more files than its JSON carries lists them all, the browser fetching the first page with the page', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services, { name: 'Ada Lovelace' });
    await server.services.files.setUserQuota(account.user.id, FILES_EMBEDDED_MAX + 1, null);
    const api = await apiAs(server, account);
    const files = Object.fromEntries(
      Array.from({ length: FILES_EMBEDDED_MAX + 1 }, (_, i) => [
        `counts/site-${String(i).padStart(3, '0')}.csv`,
        `site,count\n${i},${i * 2}\n`,
      ]),
    );
    const id = await draftWithFiles(api, METADATA, files);
    await api('POST', `/api/records/${id}/draft/actions/publish`);

    await page.goto(`/records/${id}`);
    const region = page.getByRole('region', { name: 'Files' });
    // The folder's count is of every file, read from the listing's pages.
    await region
      .getByRole('row')
      .filter({ hasText: 'counts/' })
      .getByText(`${FILES_EMBEDDED_MAX + 1} files`, { exact: true })
      .waitFor();
    // The page's head had the browser fetch the listing's first page; the app took that answer
    // instead of asking again.
    const fetched = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((r) => r.name.includes('/files?'))
        .map((r) => [
          new URL(r.name).pathname + new URL(r.name).search,
          (r as PerformanceResourceTiming).initiatorType,
        ]),
    );
    expect(fetched).toEqual([[`/api/records/${id}/files?page=1&size=1000`, 'link']]);
  });

  test('a restricted record its owner publishes in their browser stays invisible to another person in theirs', async ({
    page,
    browser,
    server,
  }) => {
    const owner = await createAccount(server.services, { name: 'Ada Lovelace' });
    const stranger = await createAccount(server.services);
    const title = 'Restricted kittiwake nests';

    // The owner makes the record restricted in the editor, uploads a file and publishes.
    await openNewUpload(page, owner);
    await choose(page, combobox(page, 'Resource type'), 'Dataset');
    await textbox(page, 'Title').fill(title);
    await addCreator(page, 'Lovelace', 'Ada');
    await textbox(page, 'Publication date').fill('2024-05-01');
    await page
      .getByRole('radiogroup', { name: 'Full record' })
      .getByText('Restricted', { exact: true })
      .click();
    await page.getByText('The full record is restricted.').waitFor();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose files' }).click();
    await (
      await chooser
    ).setFiles({
      name: 'nests.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('cliff,nests\nA,12\n'),
    });
    const id = await draftIdOf(page);
    await page
      .getByRole('row')
      .filter({ hasText: 'nests.csv' })
      .getByRole('link', { name: 'nests.csv', exact: true })
      .waitFor();
    await publishFromEditor(page);

    // The owner sees their record, restricted, with its file; the API finds it for them.
    await expectPath(page, `/records/${id}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    const access = page.getByRole('article').getByText('Restricted', { exact: true });
    await access.first().waitFor();
    await page
      .getByRole('region', { name: 'Files' })
      .getByRole('link', { name: 'nests.csv' })
      .waitFor();
    const mine = await page.request.get('/api/records?q=kittiwake');
    expect((await mine.json()).hits.total).toBe(1);

    // Beside it, the stranger's own browser: signed in, they get neither page, file nor hit.
    const strangerTab = await openPage(browser, server.url);
    try {
      const other = strangerTab.page;
      await logIn(other, stranger, '/me/uploads');
      await other.goto(`/records/${id}`);
      // The page says what they may do: ask the owner to check whom it was shared with.
      await other.getByRole('heading', { name: 'This record is restricted' }).waitFor();
      await other.getByText('If it was shared with you, ask its owner').waitFor();
      expect(await other.getByText(title).count()).toBe(0);
      expect(await other.getByText('nests.csv').count()).toBe(0);
      expect(await axeViolations(other), 'the restricted record page').toEqual([]);
      expect((await other.request.get(`/api/records/${id}`)).status()).toBe(403);
      expect((await other.request.get(`/api/records/${id}/files/nests.csv/content`)).status()).toBe(
        403,
      );
      const search = await other.request.get('/api/records?q=kittiwake');
      expect(search.status()).toBe(200);
      expect((await search.json()).hits.total).toBe(0);
      expect(strangerTab.pageErrors).toEqual([]);
    } finally {
      await strangerTab.context.close();
    }

    // The owner's session is untouched by the other's visit.
    await page.reload();
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
  });

  test('a personal access token is shown once, acts as its owner, and once revoked counts for nobody', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services);
    await logIn(page, account, '/account/tokens');
    await page.getByRole('textbox', { name: 'Name' }).fill('Harvester');
    await page.getByRole('button', { name: 'Create token' }).click();
    const created = page.getByRole('status').filter({ hasText: 'Token created' });
    await created.getByText('Copy it now: it will not be shown again.').waitFor();
    const secret = (await created.getByTestId('new-token').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^cairn_\S{20,}$/);
    await page.getByRole('row').filter({ hasText: 'Harvester' }).waitFor();
    // Under the pointer a filled button keeps AA contrast (Mantine lightens shade 9 by default).
    await page.getByRole('button', { name: 'Create token' }).hover();
    expect(await axeViolations(page), '/account/tokens with a new token').toEqual([]);

    // Outside the browser, as a script would: the token is the account.
    const asToken = (path: string, init: RequestInit = {}) =>
      fetch(`${server.url}${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${secret}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
      });
    const me = await asToken('/api/me');
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(account.email);
    const draft = await asToken('/api/records', {
      method: 'POST',
      body: JSON.stringify({ metadata: { title: 'Made by a script' } }),
    });
    expect(draft.status).toBe(201);
    const draftId = ((await draft.json()) as { id: string }).id;
    expect((await asToken(`/api/records/${draftId}/draft`)).status).toBe(200);

    // The secret is not shown again: a reload lists the token by name only.
    await page.reload();
    const tokenRow = page.getByRole('row').filter({ hasText: 'Harvester' });
    await tokenRow.waitFor();
    expect(await page.getByText(secret).count()).toBe(0);
    expect(await page.getByText('Token created').count()).toBe(0);

    // Chrome reads the hidden ": Harvester" as a word of its own ("Revoke : Harvester").
    await tokenRow.getByRole('button', { name: /^Revoke\s*: Harvester$/ }).click();
    await tokenRow.waitFor({ state: 'detached' });
    await page.getByText('You have no tokens.').waitFor();

    // Revoked, it is no one: the API answers as it does an anonymous caller.
    const after = await asToken('/api/me');
    expect(after.status).toBe(403);
    expect(await after.json()).toEqual(
      await (
        await fetch(`${server.url}/api/me`, { headers: { accept: 'application/json' } })
      ).json(),
    );
    expect((await asToken(`/api/records/${draftId}/draft`)).status).toBe(403);
    const refused = await asToken('/api/records', {
      method: 'POST',
      body: JSON.stringify({ metadata: { title: 'Too late' } }),
    });
    expect(refused.status).toBe(403);
    // Public reads still work with it, as they do for anyone.
    expect((await asToken('/api/records')).status).toBe(200);
  });

  test('what a visitor reads has no WCAG 2.2 A/AA violations: file previews, an embargo, a community', async ({
    page,
    server,
  }) => {
    const owner = await createAccount(server.services, { name: 'Ada Lovelace' });
    const api = await apiAs(server, owner);
    const publish = (id: string) => api('POST', `/api/records/${id}/draft/actions/publish`);
    const withPreviews = await draftWithFiles(
      api,
      { ...METADATA, title: 'Gannet field material' },
      { 'colony.png': PNG, 'notes.md': MARKDOWN, 'paper.pdf': PDF },
    );
    await publish(withPreviews);
    const until = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
    const embargoed = await draftWithFile(
      api,
      { ...METADATA, title: 'Embargoed gannet counts' },
      {
        record: 'public',
        files: 'restricted',
        embargo: { active: true, until, reason: 'Awaiting the paper' },
      },
    );
    await publish(embargoed);
    // The community's owner includes their own record directly (review policy "open").
    const community = await api('POST', '/api/communities', {
      slug: 'gannets',
      metadata: { title: 'Gannet watch', description: 'Colony counts around the North Sea.' },
      access: { visibility: 'public', review_policy: 'open' },
    });
    const included = await draftWithFile(api, { ...METADATA, title: 'Noss gannet census' });
    await api('PUT', `/api/records/${included}/draft/review`, {
      type: 'community-submission',
      receiver: { community: community.id },
    });
    const review = await api('POST', `/api/records/${included}/draft/actions/submit-review`);
    expect(review.status).toBe('accepted');

    // Everything below as an anonymous visitor.
    await page.goto(`/records/${withPreviews}`);
    const files = page.getByRole('region', { name: 'Files' });
    const image = files.getByRole('img', { name: 'Preview of colony.png' });
    await image.waitFor();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    expect(await axeViolations(page), 'image preview').toEqual([]);

    await files.getByRole('button', { name: 'Preview of notes.md' }).click();
    await files.getByRole('heading', { name: 'Field notes' }).waitFor();
    await files.getByRole('link', { name: 'the protocol' }).waitFor();
    expect(await axeViolations(page), 'Markdown preview').toEqual([]);

    await files.getByRole('button', { name: 'Preview of paper.pdf' }).click();
    const frame = files.locator('iframe[title="Preview of paper.pdf"]');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toBe(
      `/api/records/${withPreviews}/files/paper.pdf/content`,
    );
    expect(await axeViolations(page), 'PDF preview').toEqual([]);

    await page.goto(`/records/${embargoed}`);
    await page.getByRole('heading', { name: 'Embargoed gannet counts', level: 1 }).waitFor();
    await files.getByText('Files under embargo').waitFor();
    await files.getByText('Reason: Awaiting the paper').waitFor();
    expect(await files.getByText('counts.csv').count()).toBe(0);
    expect(await axeViolations(page), 'embargoed record').toEqual([]);

    await page.goto('/communities/gannets');
    await page.getByRole('heading', { name: 'Gannet watch', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Noss gannet census' }).waitFor();
    await page.getByRole('region', { name: 'Members' }).getByText('Ada Lovelace').waitFor();
    expect(await axeViolations(page), '/communities/gannets (anonymous)').toEqual([]);
  });

  test('a reader looks inside a zip without downloading it, by keyboard, free of axe violations', async ({
    page,
    server,
  }) => {
    const owner = await createAccount(server.services, { name: 'Ada Lovelace' });
    const api = await apiAs(server, owner);
    // Written by Python's zipfile, as a depositor's own tools would.
    const zip = execFileSync('python3', [
      '-c',
      `import io, sys, zipfile
b = io.BytesIO()
with zipfile.ZipFile(b, 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('README.txt', 'Counts from two stations.\\n')
    z.writestr('raw/2024/station-1.csv', 'site,count\\n' * 400)
    z.writestr('raw/2024/station-2.csv', 'site,count\\n')
sys.stdout.buffer.write(b.getvalue())`,
    ]);
    const id = await draftWithFiles(
      api,
      { ...METADATA, title: 'Gannet counts, zipped' },
      { 'field-data.zip': zip },
    );
    await api('POST', `/api/records/${id}/draft/actions/publish`);
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));

    await page.goto(`/records/${id}`);
    const preview = page.getByRole('region', { name: 'Preview of field-data.zip' });
    await preview.getByText('3 entries in this archive.').waitFor();
    await preview.getByText('README.txt').waitFor();
    expect(await preview.getByText('station-1.csv').isVisible()).toBe(false);
    // Folders open from the keyboard.
    const raw = preview.locator('summary', { hasText: 'raw/' });
    await raw.focus();
    await page.keyboard.press('Enter');
    const year = preview.locator('summary', { hasText: '2024/' });
    await year.focus();
    await page.keyboard.press('Enter');
    await preview.getByText('station-1.csv').waitFor();
    await preview.getByText('4.4 kB').waitFor();
    expect(await axeViolations(page), 'archive preview').toEqual([]);
    // The listing came from the server; the archive's bytes were never fetched.
    expect(fetched).toContain(`/api/records/${id}/files/field-data.zip/container`);
    expect(fetched.filter((p) => p.endsWith('/field-data.zip/content'))).toEqual([]);
  });

  test('a record with an empty file previews its CSV, and says the empty one is empty', async ({
    page,
    server,
  }) => {
    const owner = await createAccount(server.services, { name: 'Ada Lovelace' });
    const api = await apiAs(server, owner);
    // "empty.csv" comes first by name, and is a CSV: the first file the page could preview.
    const id = await draftWithFiles(
      api,
      { ...METADATA, title: 'Gannet counts with an empty log' },
      { 'empty.csv': '', 'readings.csv': 'site,count\nBass Rock,150000\nNoss,11000\n' },
    );
    await api('POST', `/api/records/${id}/draft/actions/publish`);
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
    });

    await page.goto(`/records/${id}`);
    const files = page.getByRole('region', { name: 'Files' });
    const table = files.getByRole('table', { name: 'First 2 rows of readings.csv' });
    await table.getByRole('cell', { name: 'Bass Rock' }).waitFor();
    expect(await files.getByRole('alert').count()).toBe(0);
    expect(await page.getByText('Requested range not satisfiable').count()).toBe(0);

    await files.getByRole('button', { name: 'Preview of empty.csv' }).click();
    await files
      .getByRole('region', { name: 'Preview of empty.csv' })
      .getByText('This file is empty.')
      .waitFor();
    expect(await files.getByRole('alert').count()).toBe(0);
    expect(refused).toEqual([]);
    expect(await axeViolations(page), 'record with an empty file').toEqual([]);
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

    // /logout ends the session and lands, signed out, on the home page.
    await page.getByRole('link', { name: 'Log out' }).click();
    await expectPath(page, '/');
    await page.getByRole('heading', { name: 'Welcome to Cairn', level: 1 }).waitFor();
    await page.getByRole('banner').getByRole('link', { name: 'Sign up' }).waitFor();
    expect(await axeViolations(page), 'after /logout').toEqual([]);
  });
});
