import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { creatorRowNames, DRAFT_PATH } from './support/deposit.js';
import { loadSampleVocabularies } from './support/editor.js';
import { apiAs, type Api } from './support/journey.js';
import { activate } from './support/keyboard.js';
import { createAccount, startServer, type TestServer } from './support/server.js';
import { expectPath, expectValue, logIn, POLL, test } from './support/test.js';

/*
 * The editor's Import: a DOI read through a stand-in for DataCite's REST API started here (the
 * server is told its address as it would be DataCite's), and a BibTeX file chosen by keyboard;
 * the review, the fields taken landing in the form and kept by autosave; an unknown DOI said and
 * nothing changed.
 */

const SAMPLES = fileURLToPath(new URL('../packages/server/samples/import/', import.meta.url));
const DATACITE_DOI = '10.5061/dryad.x3ffbg7m8';
const UNKNOWN_DOI = '10.9999/nothing.here';
const DATACITE_TITLE = 'Snow depth and density along an elevation transect';

/** DataCite's `GET /dois/{doi}` for the sample DOI; 404 for any other, as the public APIs do. */
async function startRegistries(): Promise<{ url: string; close: () => Promise<void> }> {
  const datacite = readFileSync(`${SAMPLES}datacite.json`, 'utf8');
  const server: Server = createServer((req, res) => {
    const url = decodeURIComponent(req.url ?? '').toLowerCase();
    if (url === `/datacite/dois/${DATACITE_DOI}`) {
      res.writeHead(200, { 'content-type': 'application/vnd.api+json; charset=utf-8' });
      res.end(datacite);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Resource not found.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from this pattern.
test.override('server', { scope: 'file' }, async ({}, { onCleanup }) => {
  const registries = await startRegistries();
  const server = await startServer({
    CAIRN_DATACITE_API_URL: `${registries.url}/datacite`,
    CAIRN_CROSSREF_API_URL: `${registries.url}/crossref`,
  });
  onCleanup(async () => {
    await server.close();
    await registries.close();
  });
  await loadSampleVocabularies(server);
  return server;
});

/**
 * A new account's new upload with a title of its own, saved: the draft an import goes into, and
 * the account's API to read it.
 */
async function openOwnDraft(
  page: Page,
  server: TestServer,
  title: string,
): Promise<{ api: Api; id: string }> {
  const account = await createAccount(server.services);
  const api = await apiAs(server, account);
  await logIn(page, account, '/uploads/new');
  await page.getByRole('heading', { name: 'New upload', level: 1 }).waitFor();
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expectPath(page, DRAFT_PATH);
  return { api, id: new URL(page.url()).pathname.split('/').pop() ?? '' };
}

async function draftMetadata(api: Api, id: string): Promise<Record<string, any>> {
  return (await api('GET', `/api/records/${id}/draft`))['metadata'] as Record<string, any>;
}

/** How many creators the saved draft has. */
async function savedCreatorCount(api: Api, id: string): Promise<number> {
  const creators: unknown = (await draftMetadata(api, id))['creators'];
  return Array.isArray(creators) ? creators.length : 0;
}

async function savedTitle(api: Api, id: string): Promise<string> {
  const title: unknown = (await draftMetadata(api, id))['title'];
  return typeof title === 'string' ? title : '';
}

describe('importing metadata into a draft', () => {
  test('from a DOI: reviewed, some fields taken, in the form and kept by autosave', async ({
    page,
    server,
  }) => {
    const { api, id } = await openOwnDraft(page, server, 'My own title');

    await page.getByRole('button', { name: 'Import metadata' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import metadata' });
    await dialog.getByRole('textbox', { name: 'DOI' }).fill(`https://doi.org/${DATACITE_DOI}`);
    await dialog.getByRole('button', { name: 'Fetch' }).click();

    await dialog.getByText(/^Read from DOI 10\.5061\/dryad\.x3ffbg7m8 \(DataCite\)\./i).waitFor();
    // The person's own title is kept unless they take the import's; empty fields are taken.
    const title = dialog.getByRole('checkbox', { name: 'Title', exact: true });
    const creators = dialog.getByRole('checkbox', { name: 'Creators', exact: true });
    const languages = dialog.getByRole('checkbox', { name: 'Languages', exact: true });
    expect(await title.isChecked()).toBe(false);
    expect(await creators.isChecked()).toBe(true);
    expect(await languages.isChecked()).toBe(true);
    await dialog.getByText('My own title', { exact: true }).waitFor();
    await dialog.getByText(DATACITE_TITLE, { exact: true }).waitFor();
    // Matched by ORCID and ROR, named from the vocabularies; what matched nothing said so.
    await dialog
      .getByText(
        'Carberry, Josiah · ORCID 0000-0002-1825-0097 · European Organization for Nuclear Research',
      )
      .waitFor();
    await dialog
      .getByText('“Institute of Unlisted Studies” kept as free text: no vocabulary entry matched')
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await languages.uncheck();
    await dialog
      .getByRole('checkbox', { name: `This upload is derived from ${DATACITE_DOI}`, exact: false })
      .check();
    await dialog.getByRole('button', { name: /^Take \d+ fields$/ }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByText(/fields taken from the import; autosave stores them/).waitFor();
    await expectValue(page.getByRole('textbox', { name: 'Title', exact: true }), 'My own title');
    await expect
      .poll(() => creatorRowNames(page), POLL)
      .toEqual(['Carberry, Josiah', 'Mulligan, Zoë']);

    // Nothing saved by the import itself: autosave stores what was taken.
    await expect.poll(() => savedCreatorCount(api, id), POLL).toBe(2);
    const saved = await draftMetadata(api, id);
    expect(saved['title']).toBe('My own title');
    expect(saved['languages'] ?? []).toEqual([]);
    expect(saved['creators'][0].person_or_org.identifiers).toEqual([
      { scheme: 'orcid', identifier: '0000-0002-1825-0097' },
    ]);
    expect(saved['creators'][0].affiliations[0].id).toBe('01ggx4157');
    expect(
      (
        saved['related_identifiers'] as Array<{ identifier: string; relation_type: { id: string } }>
      ).map((r) => [r.identifier.toLowerCase(), r.relation_type.id]),
    ).toEqual([
      // The DOI's own related works (the form had none, so they were taken), then the link
      // to the source chosen in the review.
      ['10.1017/jog.2024.12', 'iscitedby'],
      ['https://example.org/raw/transect', 'isderivedfrom'],
      [DATACITE_DOI, 'isderivedfrom'],
    ]);

    await page.reload();
    await page.getByRole('heading', { name: 'Edit upload', level: 1 }).waitFor();
    await expect
      .poll(() => creatorRowNames(page), POLL)
      .toEqual(['Carberry, Josiah', 'Mulligan, Zoë']);
  });

  test('from a BibTeX file into a new upload, by keyboard only', async ({ page, server }) => {
    const account = await createAccount(server.services);
    const api = await apiAs(server, account);
    await logIn(page, account, '/uploads/new');
    await page.getByRole('heading', { name: 'New upload', level: 1 }).waitFor();

    await activate(page, page.getByRole('button', { name: 'Import metadata' }));
    const dialog = page.getByRole('dialog', { name: 'Import metadata' });
    const choose = dialog.getByRole('button', { name: 'Choose a file' });
    const chooser = page.waitForEvent('filechooser');
    await activate(page, choose);
    await (await chooser).setFiles(`${SAMPLES}glacier-article.bib`);

    // Not saved yet: the import saved the new upload first, as an upload does, and stayed open.
    await dialog.getByText(/^Read from a BibTeX file\./).waitFor();
    await expectPath(page, DRAFT_PATH);
    const id = new URL(page.url()).pathname.split('/').pop() ?? '';
    expect(await axeViolations(page)).toEqual([]);
    await activate(page, dialog.getByRole('button', { name: 'Take all' }));
    const title = dialog.getByRole('checkbox', { name: 'Title', exact: true });
    expect(await title.isChecked()).toBe(true);
    // And one left out again, with the space bar.
    await activate(page, dialog.getByRole('checkbox', { name: 'Publisher', exact: true }), 'Space');
    expect(await dialog.getByRole('checkbox', { name: 'Publisher', exact: true }).isChecked()).toBe(
      false,
    );
    await activate(page, dialog.getByRole('button', { name: /^Take \d+ fields$/ }));
    await dialog.waitFor({ state: 'hidden' });

    await expectValue(
      page.getByRole('textbox', { name: 'Title', exact: true }),
      'Outflow Discharge of the Rhône Glacier, 2019–2023',
    );
    await expect
      .poll(() => creatorRowNames(page), POLL)
      .toEqual(['Carberry, Josiah', 'Müller, Anna', 'European Organization for Nuclear Research']);
    // The focus is back on the button that opened the dialog.
    await expect
      .poll(() =>
        page
          .getByRole('button', { name: 'Import metadata' })
          .evaluate((element) => element === document.activeElement),
      )
      .toBe(true);
    await expect
      .poll(() => savedTitle(api, id), POLL)
      .toBe('Outflow Discharge of the Rhône Glacier, 2019–2023');
    expect((await draftMetadata(api, id))['publisher'] ?? '').toBe('');
  });

  test('an unknown DOI: the registry’s answer said, the draft unchanged', async ({
    page,
    server,
  }) => {
    const { api, id } = await openOwnDraft(page, server, 'Untouched');
    const before = await api('GET', `/api/records/${id}/draft`);

    await page.getByRole('button', { name: 'Import metadata' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import metadata' });
    await dialog.getByRole('textbox', { name: 'DOI' }).fill(UNKNOWN_DOI);
    await page.keyboard.press('Enter');

    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      `Neither DataCite nor Crossref knows the DOI ${UNKNOWN_DOI}. Nothing in the form was changed.`,
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await expectValue(page.getByRole('textbox', { name: 'Title', exact: true }), 'Untouched');
    const after = await api('GET', `/api/records/${id}/draft`);
    expect(after['revision_id']).toBe(before['revision_id']);
    expect(after['metadata']).toEqual(before['metadata']);
  });
});
