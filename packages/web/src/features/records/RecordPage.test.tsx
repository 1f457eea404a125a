import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RecordJson } from '../../api/records';
import { ADA, buildDraft, buildRecord } from '../../test/builders';
import { jsonResponse, stubFetch, type RecordedRequest } from '../../test/fetch';
import { renderApp } from '../../test/renderApp';

const ID = 'abcde-12345';
const BIBTEX = `@dataset{lovelace_2024_${ID},\n  title = {{Ocean temperatures}}\n}\n`;

function fileEntries(
  count: number,
  make = (i: number) => `data-${String(i).padStart(4, '0')}.bin`,
) {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => {
      const key = make(i);
      return [key, { key, size: 1_500_000 + i, mimetype: 'application/octet-stream' }];
    }),
  );
}

/** A published record with a DOI, rich metadata and two files. */
function richRecord(overrides: Partial<RecordJson> = {}): RecordJson {
  return buildRecord({
    id: ID,
    pids: { doi: { identifier: `10.5072/${ID}`, provider: 'datacite' } },
    parent: { id: 'parnt-00001', access: { owned_by: { user: '99' } } },
    versions: { index: 2, is_latest: true },
    metadata: {
      title: 'Ocean temperatures',
      creators: [
        {
          person_or_org: {
            type: 'personal',
            name: 'Lovelace, Ada',
            identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
          },
          affiliations: [{ id: '01ggx4157', name: 'CERN' }, { name: 'Analytical Society' }],
        },
        { person_or_org: { type: 'organizational', name: 'Polar Institute' } },
      ],
      publication_date: '2024-05-01',
      resource_type: { id: 'dataset', title: { en: 'Dataset' } },
      description:
        '<p>Daily <strong>means</strong>.</p><script>window.hacked = true</script><img src=x onerror="window.hacked=true">',
      publisher: 'Cairn Press',
      version: 'v2',
      subjects: [{ subject: 'oceanography' }],
      languages: [{ id: 'eng', title: { en: 'English' } }],
      rights: [
        {
          id: 'cc-by-4.0',
          title: { en: 'Creative Commons Attribution 4.0 International' },
          props: { url: 'https://creativecommons.org/licenses/by/4.0/legalcode' },
        },
      ],
      related_identifiers: [
        {
          identifier: '10.1234/paper',
          scheme: 'doi',
          relation_type: { id: 'iscitedby', title: { en: 'Is cited by' } },
        },
      ],
      funding: [{ funder: { name: 'European Commission' }, award: { number: '123456' } }],
    },
    access: { record: 'public', files: 'public', embargo: { active: false }, status: 'open' },
    files: {
      enabled: true,
      count: 2,
      total_bytes: 2_500_000,
      entries: {
        'readings.csv': {
          key: 'readings.csv',
          size: 2_000_000,
          mimetype: 'text/csv',
          checksum: 'md5:abc',
        },
        'map.png': { key: 'map.png', size: 500_000, mimetype: 'image/png' },
      },
    },
    ...overrides,
  });
}

/** Answers the landing page's own requests: versions, exports and file previews. */
function serveLandingRequests(
  record: RecordJson,
  communities: unknown[] = [],
  listedKey?: (i: number) => string,
): RecordedRequest[] {
  return stubFetch((request) => {
    const url = new URL(request.url, 'http://localhost');
    if (url.pathname === `/api/records/${ID}/communities`)
      return jsonResponse(200, { hits: { hits: communities, total: communities.length } });
    if (url.pathname === `/api/records/${ID}/versions`) {
      return jsonResponse(200, {
        hits: {
          hits: [
            { ...record, versions: { index: 2, is_latest: true } },
            buildRecord({
              id: 'older-00001',
              metadata: { ...record.metadata, version: 'v1' },
              versions: { index: 1, is_latest: false },
            }),
          ],
          total: 2,
        },
      });
    }
    if (url.pathname === `/api/records/${ID}/files`) {
      // The listing's pages, for a record whose JSON leaves its entries out.
      const page = Number(url.searchParams.get('page') ?? 1);
      const size = Number(url.searchParams.get('size') ?? 1000);
      const total = (record.files as { count: number }).count;
      const keys = Object.values(fileEntries(total, listedKey)).slice(
        (page - 1) * size,
        page * size,
      );
      return jsonResponse(200, {
        enabled: true,
        entries: keys.map((e) => ({ ...e, status: 'completed', links: {} })),
        total,
        links:
          page * size < total
            ? { next: `/api/records/${ID}/files?page=${page + 1}&size=${size}` }
            : {},
      });
    }
    const accept = request.headers.get('accept');
    // The server formats citations: the stand-in answers which style and locale were asked.
    if (url.pathname === `/api/records/${ID}` && accept === 'text/x-bibliography')
      return new Response(
        `Cited in ${url.searchParams.get('style')} (${url.searchParams.get('locale')})`,
        { headers: { 'Content-Type': 'text/plain; charset=utf-8' } },
      );
    if (url.pathname === `/api/records/${ID}` && accept === 'application/x-bibtex')
      return new Response(BIBTEX, { headers: { 'Content-Type': 'application/x-bibtex' } });
    if (url.pathname.endsWith('/readings.csv/content'))
      return new Response('depth,temp\n1,"4,5"\n2,3.9\n', {
        status: 206,
        headers: { 'Content-Type': 'text/csv' },
      });
    throw new Error(`Unexpected request: ${request.method} ${request.url}`);
  });
}

describe('RecordPage', () => {
  it('shows title, people with ORCID and ROR links, the DOI and every metadata field', () => {
    const record = richRecord();
    serveLandingRequests(record);
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });

    expect(screen.getByRole('heading', { level: 1, name: 'Ocean temperatures' })).toBeTruthy();
    const creators = screen.getByRole('list', { name: 'Creators' });
    expect(within(creators).getByText('Lovelace, Ada')).toBeTruthy();
    expect(
      within(creators)
        .getByRole('link', { name: 'ORCID profile of Lovelace, Ada' })
        .getAttribute('href'),
    ).toBe('https://orcid.org/0000-0002-1825-0097');
    expect(within(creators).getByRole('link', { name: 'CERN' }).getAttribute('href')).toBe(
      'https://ror.org/01ggx4157',
    );
    expect(within(creators).getByText(/Analytical Society/)).toBeTruthy();
    expect(within(creators).getByText('Polar Institute')).toBeTruthy();
    expect(screen.getByRole('link', { name: `DOI 10.5072/${ID}` }).getAttribute('href')).toBe(
      `https://doi.org/10.5072/${ID}`,
    );
    expect(screen.getByText('Dataset')).toBeTruthy();
    expect(screen.getByText('Open')).toBeTruthy();
    expect(screen.getByText('Cairn Press')).toBeTruthy();
    expect(screen.getByText('oceanography')).toBeTruthy();
    expect(screen.getByText('English')).toBeTruthy();
    expect(
      screen.getByRole('link', { name: 'Creative Commons Attribution 4.0 International' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'DOI: 10.1234/paper' }).getAttribute('href')).toBe(
      'https://doi.org/10.1234/paper',
    );
    expect(screen.getByText('European Commission — 123456')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'BibTeX' }).getAttribute('href')).toBe(
      `/records/${ID}/export/bibtex`,
    );
    expect(screen.getByRole('link', { name: 'Dublin Core XML' }).getAttribute('href')).toBe(
      `/records/${ID}/export/dublincore`,
    );
    for (const [label, name] of [
      ['DataCite XML', 'datacite-xml'],
      ['DCAT-AP', 'dcat-ap'],
      ['CodeMeta', 'codemeta'],
      ['Citation File Format', 'cff'],
    ])
      expect(screen.getByRole('link', { name: label }).getAttribute('href')).toBe(
        `/records/${ID}/export/${name}`,
      );
  });

  it('shows the custom fields of the record as the deposit form names them', () => {
    const record = richRecord({
      custom_fields: {
        'journal:journal': { title: 'Seabird', issn: '0028-0836', volume: '47', pages: '101-118' },
        'meeting:meeting': {
          acronym: 'ISC',
          identifiers: [{ scheme: 'url', identifier: 'https://isc.example.org' }],
        },
      },
    });
    serveLandingRequests(record);
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });

    const journal = screen.getByText('Journal', { selector: 'dt' }).nextElementSibling;
    expect(journal?.textContent).toBe(
      'Journal title: SeabirdISSN: 0028-0836Volume: 47Page range or article number: 101-118',
    );
    const meeting = screen.getByText('Conference', { selector: 'dt' }).nextElementSibling;
    expect(meeting?.textContent).toBe('Acronym: ISCIdentifiers: url: https://isc.example.org');
    expect(screen.queryByText('Thesis', { selector: 'dt' })).toBeNull();
  });

  it('renders the description without anything that could run', () => {
    const record = richRecord();
    serveLandingRequests(record);
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });

    const description = screen.getByRole('region', { name: 'Description' });
    expect(within(description).getByText('means').tagName).toBe('STRONG');
    expect(description.innerHTML).not.toContain('<script');
    expect(description.innerHTML).not.toContain('onerror');
    expect(description.querySelector('img')).toBeNull();
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
  });

  it('lists files with decimal sizes and download links, and previews a CSV from its first bytes', async () => {
    const record = richRecord();
    const requests = serveLandingRequests(record);
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });

    const files = screen.getByRole('region', { name: 'Files' });
    expect(within(files).getByText('2 files, 2.5 MB')).toBeTruthy();
    expect(within(files).getByRole('link', { name: 'readings.csv' }).getAttribute('href')).toBe(
      `/api/records/${ID}/files/readings.csv/content`,
    );
    expect(within(files).getByText('2 MB')).toBeTruthy();
    expect(within(files).getByText('500 kB')).toBeTruthy();
    // The first previewable file (by name) is shown: map.png, as an image.
    expect(within(files).getByRole('img', { name: 'Preview of map.png' }).getAttribute('src')).toBe(
      `/api/records/${ID}/files/map.png/content`,
    );
    fireEvent.click(within(files).getByRole('button', { name: 'Preview of readings.csv' }));
    const table = await within(files).findByRole('table', { name: 'First 2 rows of readings.csv' });
    expect(within(table).getByRole('columnheader', { name: 'temp' })).toBeTruthy();
    expect(within(table).getByRole('cell', { name: '4,5' })).toBeTruthy();
    const preview = requests.find((r) => r.url.endsWith('/readings.csv/content'));
    expect(preview?.headers.get('range')).toBe('bytes=0-65535');
  });

  it('draws a thousand files at the top as rows, rendering only those in view', () => {
    const record = richRecord({
      files: { enabled: true, count: 1000, entries: fileEntries(1000) },
    });
    serveLandingRequests(record);
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });

    const table = screen.getByRole('table', { name: 'Files' });
    expect(table.getAttribute('aria-rowcount')).toBe('1001');
    const rows = within(table).getAllByRole('row');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(40);
    expect(within(table).getByText('data-0000.bin')).toBeTruthy();
    expect(within(table).queryByText('data-0999.bin')).toBeNull();
  });

  it('reads 2,000 files from the listing into folders, and renders only the rows in view', async () => {
    const record = richRecord({
      files: {
        enabled: true,
        count: 2000,
        total_bytes: 3_000_000_000,
        entries: {},
        entries_omitted: true,
      },
    });
    const key = (i: number) =>
      i < 1500 ? `raw/run-${i % 3}/data-${String(i).padStart(4, '0')}.bin` : `top-${i}.bin`;
    const requests = serveLandingRequests(record, [], key);
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });

    const table = await screen.findByRole('table', { name: 'Files' });
    // The folder and 500 files at the top, of which only those in view are in the page.
    expect(table.getAttribute('aria-rowcount')).toBe(String(1 + 1 + 500));
    expect(within(table).getAllByRole('row').length).toBeLessThan(40);
    const raw = within(table).getByRole('button', { name: 'Folder raw/' });
    expect(raw.getAttribute('aria-expanded')).toBe('false');
    expect(within(table).getByRole('row', { name: /^raw\/ 1,500 files/ })).toBeTruthy();
    fireEvent.click(raw);
    expect(raw.getAttribute('aria-expanded')).toBe('true');
    expect(within(table).getByRole('button', { name: 'Folder raw/run-1/' })).toBeTruthy();
    expect(within(table).getByRole('row', { name: /^run-1\/ 500 files/ })).toBeTruthy();
    expect(table.getAttribute('aria-rowcount')).toBe(String(1 + 1 + 3 + 500));
    expect(within(table).getAllByRole('row').length).toBeLessThan(40);
    const listed = requests.filter((r) => new URL(r.url, 'http://x').pathname.endsWith('/files'));
    expect(listed.map((r) => new URL(r.url, 'http://x').search)).toEqual([
      '?page=1&size=1000',
      '?page=2&size=1000',
    ]);
  });

  it('shows files as a tree: folders open and close by click and keys, each with its zip', () => {
    const entries = {
      'raw/2024/station-1.csv': {
        key: 'raw/2024/station-1.csv',
        size: 1000,
        mimetype: 'text/csv',
        checksum: 'md5:0123456789abcdef',
      },
      'raw/2024/station-2.csv': { key: 'raw/2024/station-2.csv', size: 2000, mimetype: 'text/csv' },
      'raw/2023/notes.txt': { key: 'raw/2023/notes.txt', size: 30, mimetype: 'text/plain' },
      'README.md': { key: 'README.md', size: 5, mimetype: 'text/markdown' },
    };
    const record = richRecord({
      files: { enabled: true, count: 4, total_bytes: 3035, entries },
    });
    serveLandingRequests(record);
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });

    const table = screen.getByRole('table', { name: 'Files' });
    const rowNames = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent);
    expect(rowNames()).toEqual([
      '▸raw/3 files3.03 kBDownload folder (zip)',
      'README.md5 bytesPreview',
    ]);
    const raw = within(table).getByRole('button', { name: 'Folder raw/' });
    expect(
      within(table).getByRole('link', { name: 'Download folder (zip): raw/' }).getAttribute('href'),
    ).toBe(`/api/records/${ID}/files-archive?prefix=raw/`);

    // Right opens, Down goes to the next row, Right opens that one, Left on a file goes up.
    raw.focus();
    fireEvent.keyDown(raw, { key: 'ArrowRight' });
    expect(raw.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(raw, { key: 'ArrowDown' });
    const y2023 = within(table).getByRole('button', { name: 'Folder raw/2023/' });
    expect(document.activeElement).toBe(y2023);
    fireEvent.keyDown(y2023, { key: 'ArrowDown' });
    const y2024 = within(table).getByRole('button', { name: 'Folder raw/2024/' });
    expect(document.activeElement).toBe(y2024);
    fireEvent.keyDown(y2024, { key: 'ArrowRight' });
    fireEvent.keyDown(y2024, { key: 'ArrowDown' });
    const station1 = within(table).getByRole('link', { name: 'raw/2024/station-1.csv' });
    expect(document.activeElement).toBe(station1);
    expect(station1.getAttribute('href')).toBe(
      `/api/records/${ID}/files/raw/2024/station-1.csv/content`,
    );
    fireEvent.keyDown(station1, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(y2024);
    fireEvent.keyDown(y2024, { key: 'ArrowLeft' });
    expect(y2024.getAttribute('aria-expanded')).toBe('false');
    fireEvent.keyDown(y2024, { key: 'End' });
    expect(document.activeElement).toBe(within(table).getByRole('link', { name: 'README.md' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(document.activeElement).toBe(raw);
    fireEvent.click(raw);
    expect(raw.getAttribute('aria-expanded')).toBe('false');
    expect(rowNames()).toHaveLength(2);

    // The checksum on demand, with a button to copy it.
    fireEvent.click(raw);
    fireEvent.click(within(table).getByRole('button', { name: 'Folder raw/2024/' }));
    expect(within(table).queryByText('md5:0123456789abcdef')).toBeNull();
    const checksum = within(table).getByRole('button', {
      name: 'Checksum of raw/2024/station-1.csv',
    });
    fireEvent.click(checksum);
    expect(checksum.getAttribute('aria-expanded')).toBe('true');
    expect(within(table).getByText('md5:0123456789abcdef')).toBeTruthy();
    expect(
      within(table).getByRole('button', { name: 'Copy the checksum of raw/2024/station-1.csv' }),
    ).toBeTruthy();
  });

  it('filters the tree by name and by type, opening the folders that hold matches', () => {
    const entries = Object.fromEntries(
      [
        ['raw/2024/station-1.csv', 'text/csv'],
        ['raw/2024/station-2.csv', 'text/csv'],
        ['raw/2023/station-1.txt', 'text/plain'],
        ['figures/map.png', 'image/png'],
        ['README.md', 'text/markdown'],
      ].map(([key, mimetype]) => [key, { key, size: 10, mimetype }]),
    );
    const record = richRecord({ files: { enabled: true, count: 5, total_bytes: 50, entries } });
    serveLandingRequests(record);
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });

    const files = screen.getByRole('region', { name: 'Files' });
    const table = within(files).getByRole('table', { name: 'Files' });
    const names = () =>
      within(table)
        .queryAllByRole('row')
        .slice(1)
        .map((row) => row.querySelector('[role=cell]')?.textContent);
    fireEvent.change(within(files).getByRole('searchbox', { name: 'Filter by name or folder' }), {
      target: { value: 'STATION-1' },
    });
    expect(names()).toEqual([
      '▾raw/2 files',
      '▾2023/1 file',
      'station-1.txt',
      '▾2024/1 file',
      'station-1.csv',
    ]);
    const type = within(files).getByRole('combobox', { name: 'Type' });
    expect(
      within(type)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'All types',
      '.csv, text/csv (2)',
      '.md, text/markdown (1)',
      '.png, image/png (1)',
      '.txt, text/plain (1)',
    ]);
    fireEvent.change(type, { target: { value: '.csv' } });
    expect(names()).toEqual(['▾raw/1 file', '▾2024/1 file', 'station-1.csv']);
    // Closing a folder while filtering holds until the filter changes.
    fireEvent.click(within(table).getByRole('button', { name: 'Folder raw/' }));
    expect(names()).toEqual(['▸raw/1 file']);
    fireEvent.change(within(files).getByRole('searchbox', { name: 'Filter by name or folder' }), {
      target: { value: 'nothing' },
    });
    expect(within(files).getByText('No files match the filter.')).toBeTruthy();
  });

  it('shows the first 25 of 2,000 creators and more on request', () => {
    const creators = Array.from({ length: 2000 }, (_, i) => ({
      person_or_org: { type: 'personal', name: `Author ${i + 1}` },
    }));
    const record = richRecord({ metadata: { ...richRecord().metadata, creators } });
    serveLandingRequests(record);
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });

    const list = screen.getByRole('list', { name: 'Creators' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(25);
    expect(screen.getByText('25 of 2,000 shown')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show 500 more' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(525);
  });

  it('marks the latest version and asks the server for the citation in the chosen style', async () => {
    const record = richRecord();
    serveLandingRequests(record);
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });

    const versions = screen.getByRole('region', { name: 'Versions' });
    expect(await within(versions).findByText('v2')).toBeTruthy();
    expect(within(versions).getByText('v2').getAttribute('aria-current')).toBe('page');
    expect(within(versions).getByText('Latest')).toBeTruthy();
    expect(within(versions).getByRole('link', { name: 'v1' }).getAttribute('href')).toBe(
      '/records/older-00001',
    );

    const citation = screen.getByRole('region', { name: 'Cite as' });
    await waitFor(() =>
      expect(within(citation).getByTestId('citation-text').textContent).toBe('Cited in apa (en)'),
    );
    fireEvent.change(within(citation).getByLabelText('Citation style'), {
      target: { value: 'chicago' },
    });
    await waitFor(() =>
      expect(within(citation).getByTestId('citation-text').textContent).toBe(
        'Cited in chicago-author-date (en)',
      ),
    );
    fireEvent.change(within(citation).getByLabelText('Citation style'), {
      target: { value: 'bibtex' },
    });
    expect((await within(citation).findByText(/@dataset\{lovelace_2024/)).textContent).toBe(BIBTEX);
  });

  it('names a version the same way on the page and in the versions list', async () => {
    const record = richRecord();
    delete (record.metadata as { version?: string }).version;
    serveLandingRequests(record);
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });

    const versions = screen.getByRole('region', { name: 'Versions' });
    const current = await within(versions).findByText('Version 2');
    expect(current.getAttribute('aria-current')).toBe('page');
    expect(within(versions).getByRole('link', { name: 'v1' })).toBeTruthy();
    const article = screen.getByRole('article', { name: 'Ocean temperatures' });
    expect(within(article).getByText('Version 2')).toBeTruthy();
  });

  it('points an older version to the latest, and the latest to nothing', () => {
    const older = richRecord({ versions: { index: 1, is_latest: false } });
    older.links = { ...older.links, latest_html: `http://127.0.0.1:5000/records/${ID}/latest` };
    serveLandingRequests(older);
    const { unmount } = renderApp({ path: `/records/${ID}`, bootstrap: { record: older } });
    expect(screen.getByText('There is a newer version of this record.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View the latest version' }).getAttribute('href')).toBe(
      `http://127.0.0.1:5000/records/${ID}/latest`,
    );
    unmount();

    renderApp({ path: `/records/${ID}`, bootstrap: { record: richRecord() } });
    expect(screen.queryByText('There is a newer version of this record.')).toBeNull();
  });

  it('offers its owner Edit and New version, and a reader neither', async () => {
    const record = richRecord({
      parent: { id: 'parnt-00001', access: { owned_by: { user: ADA.id } } },
    });
    serveLandingRequests(record);
    const { unmount } = renderApp({ path: `/records/${ID}`, bootstrap: { record, user: null } });
    expect(screen.queryByRole('group', { name: 'Manage this record' })).toBeNull();
    unmount();

    const next = buildDraft({ id: 'newer-00002' });
    const requests = stubFetch((request) => {
      if (request.method === 'POST') return jsonResponse(201, next);
      if (request.url.startsWith('/api/records/newer-00002/draft')) return jsonResponse(200, next);
      return jsonResponse(200, { hits: { hits: [record], total: 1 } });
    });
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });
    const actions = screen.getByRole('group', { name: 'Manage this record' });
    expect(within(actions).getByRole('button', { name: 'Edit' })).toBeTruthy();
    fireEvent.click(within(actions).getByRole('button', { name: 'New version' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit upload' })).toBeTruthy();
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual([
      `/api/records/${ID}/versions?expand=1`,
    ]);
  });

  it('shows the communities the record belongs to, with their logos and links', async () => {
    const record = richRecord();
    serveLandingRequests(record, [
      {
        id: 'c0mm-0001',
        slug: 'seabirds',
        metadata: { title: 'Seabird Network' },
        links: {
          self: 'http://127.0.0.1:5000/api/communities/c0mm-0001',
          logo: 'http://127.0.0.1:5000/api/communities/c0mm-0001/logo',
        },
        ui: { has_logo: true },
      },
    ]);
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });

    const communities = await screen.findByRole('region', { name: 'Communities' });
    const link = within(communities).getByRole('link', { name: 'Seabird Network' });
    expect(link.getAttribute('href')).toBe('/communities/seabirds');
    const logo = communities.querySelector('img');
    expect(logo?.getAttribute('src')).toBe('/api/communities/c0mm-0001/logo');
    expect(logo?.getAttribute('alt')).toBe('');
  });

  it('shows no communities heading for a record in none', async () => {
    const record = richRecord();
    const requests = serveLandingRequests(record);
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });
    await waitFor(() =>
      expect(requests.some((r) => r.url.includes(`/api/records/${ID}/communities`))).toBe(true),
    );
    await screen.findByRole('region', { name: 'Versions' });
    expect(screen.queryByRole('region', { name: 'Communities' })).toBeNull();
  });

  it("gives the DOI that cites all versions beside the version's own", () => {
    const record = richRecord({
      parent: {
        id: 'parnt-00001',
        access: { owned_by: { user: '99' } },
        pids: { doi: { identifier: '10.5072/parnt-00001', provider: 'datacite' } },
      },
    });
    serveLandingRequests(record);
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });
    const concept = screen.getByRole('link', { name: '10.5072/parnt-00001' });
    expect(concept.getAttribute('href')).toBe('https://doi.org/10.5072/parnt-00001');
    expect(concept.parentElement?.textContent).toBe('Cite all versions: 10.5072/parnt-00001');
    expect(screen.getByRole('link', { name: `DOI 10.5072/${ID}` })).toBeTruthy();
  });

  it('tells a stranger that the files are under embargo, and lists none', () => {
    const record = richRecord({
      access: {
        record: 'public',
        files: 'restricted',
        embargo: { active: true, until: '2031-01-01', reason: 'Awaiting the paper' },
        status: 'embargoed',
      },
    });
    serveLandingRequests(record);
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });

    const files = screen.getByRole('region', { name: 'Files' });
    expect(within(files).getByText('Files under embargo')).toBeTruthy();
    expect(within(files).getByText('The files will be public on 2031-01-01.')).toBeTruthy();
    expect(within(files).getByText('Reason: Awaiting the paper')).toBeTruthy();
    expect(within(files).queryByText('readings.csv')).toBeNull();
    expect(within(files).queryByRole('img')).toBeNull();
  });

  it('lists restricted files to their owner only', () => {
    const access = {
      record: 'public',
      files: 'restricted',
      embargo: { active: false },
      status: 'restricted',
    };
    const mine = richRecord({
      access,
      parent: { id: 'parnt-00001', access: { owned_by: { user: ADA.id } } },
    });
    serveLandingRequests(mine);
    const { unmount } = renderApp({ path: `/records/${ID}`, bootstrap: { record: mine } });
    expect(
      within(screen.getByRole('region', { name: 'Files' })).getByText('readings.csv'),
    ).toBeTruthy();
    unmount();

    const theirs = richRecord({ access });
    serveLandingRequests(theirs);
    renderApp({ path: `/records/${ID}`, bootstrap: { record: theirs } });
    const files = screen.getByRole('region', { name: 'Files' });
    expect(within(files).getByText('Files restricted')).toBeTruthy();
    expect(within(files).queryByText('readings.csv')).toBeNull();
  });

  // The server names a link or a grant only when it opens the page's record.
  it.each([
    ['opened the page with a secret link', { user: null, link: { permission: 'view' as const } }],
    [
      'holds a grant on the record',
      {
        user: { ...ADA, id: '7', locale: null, emailNotifications: true },
        grant: { permission: 'view' as const },
      },
    ],
  ])('lists restricted files to a reader who %s', (_name, reader) => {
    const theirs = richRecord({
      access: {
        record: 'restricted',
        files: 'restricted',
        embargo: { active: false },
        status: 'restricted',
      },
    });
    serveLandingRequests(theirs);
    renderApp({ path: `/records/${ID}`, bootstrap: { record: theirs, ...reader } });
    const files = screen.getByRole('region', { name: 'Files' });
    expect(within(files).getByText('readings.csv')).toBeTruthy();
    expect(within(files).queryByText('Files restricted')).toBeNull();
  });

  it('marks a preview of the draft and asks for no citation or versions', () => {
    const requests = stubFetch((request) => {
      throw new Error(`Unexpected request: ${request.url}`);
    });
    renderApp({
      path: `/records/${ID}?preview=1`,
      bootstrap: { record: buildDraft({ metadata: { title: 'Draft title' } }) },
    });

    expect(screen.getByRole('status').textContent).toContain(
      'Preview: this is how the record will look once published.',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Draft title' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Cite as' })).toBeNull();
    expect(requests).toHaveLength(0);
  });
});
