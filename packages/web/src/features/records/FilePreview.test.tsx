import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildDraft } from '../../test/builders';
import { stubFetch } from '../../test/fetch';
import { renderApp } from '../../test/renderApp';
import { parseDelimited, previewKind } from './FilePreview';
import type { FileEntry } from '../shared/landing';

const ID = 'abcde-12345';
const PREFIX_BYTES = 64 * 1024;

const TSV = 'depth\ttemp\tnote\n1\t4,5\t"a\tquoted"\n2\t3.9\tclear\n';
const MARKDOWN =
  '# Field notes\n\nCounts are **breeding pairs**, see [the protocol](https://example.org/p).\n\n' +
  '- Bass Rock\n- Noss\n\n<script>window.hacked = true</script>\n';
const LONG_LINE = 'gannet '.repeat(10_000);

/** Each file of the draft with what its content link answers to a ranged GET. */
const FILES: Record<string, { entry: FileEntry; body?: string }> = {
  'paper.pdf': { entry: { key: 'paper.pdf', size: 120_000, mimetype: 'application/pdf' } },
  'readings.tsv': {
    entry: { key: 'readings.tsv', size: TSV.length, mimetype: 'text/tab-separated-values' },
    body: TSV,
  },
  'notes.md': {
    entry: { key: 'notes.md', size: MARKDOWN.length, mimetype: 'application/octet-stream' },
    body: MARKDOWN,
  },
  'short.txt': {
    entry: { key: 'short.txt', size: 24, mimetype: 'text/plain' },
    body: 'Nests counted at dawn.\n',
  },
  // The server answers the first 64 kB of a longer file: 206 with the prefix only.
  'long.log': {
    entry: { key: 'long.log', size: LONG_LINE.length, mimetype: 'application/octet-stream' },
    body: LONG_LINE.slice(0, PREFIX_BYTES),
  },
};

/** The landing page's preview of a draft holding {@link FILES}; returns the requests it makes. */
function renderPreview() {
  const requests = stubFetch((request) => {
    const key = /\/api\/records\/[^/]+\/draft\/files\/([^/]+)\/content$/.exec(
      new URL(request.url, 'http://localhost').pathname,
    )?.[1];
    const body = key ? FILES[decodeURIComponent(key)]?.body : undefined;
    if (body === undefined) throw new Error(`Unexpected request: ${request.method} ${request.url}`);
    return new Response(body, { status: 206 });
  });
  const entries = Object.fromEntries(Object.entries(FILES).map(([key, f]) => [key, f.entry]));
  renderApp({
    path: `/records/${ID}?preview=1`,
    bootstrap: { record: buildDraft({ id: ID, files: { enabled: true, entries } }) },
  });
  const files = screen.getByRole('region', { name: 'Files' });
  return {
    requests,
    files,
    /** Shows the preview of `key` through its button in the files table. */
    show: (key: string) => {
      fireEvent.click(within(files).getByRole('button', { name: `Preview of ${key}` }));
      return within(files).getByRole('region', { name: `Preview of ${key}` });
    },
  };
}

const contentUrl = (key: string) => `/api/records/${ID}/draft/files/${key}/content`;

describe('FilePreview on the landing page', () => {
  it('shows a PDF in a titled frame on its content link, without reading it itself', () => {
    const { requests, show } = renderPreview();
    const preview = show('paper.pdf');
    const frame = within(preview).getByTitle('Preview of paper.pdf');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toBe(contentUrl('paper.pdf'));
    expect(requests.filter((r) => r.url.includes('paper.pdf'))).toHaveLength(0);
  });

  it('shows a TSV as a table split at tabs, commas and quoted tabs kept in their cells', async () => {
    const { requests, show } = renderPreview();
    const preview = show('readings.tsv');
    const table = await within(preview).findByRole('table', {
      name: 'First 2 rows of readings.tsv',
    });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['depth', 'temp', 'note']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['1', '4,5', 'a\tquoted'],
      ['2', '3.9', 'clear'],
    ]);
    const request = requests.find((r) => r.url.endsWith(contentUrl('readings.tsv')));
    expect(request?.headers.get('range')).toBe('bytes=0-65535');
  });

  it('shows a short text whole, and says a long one was cut at its first 64 kB', async () => {
    const { show } = renderPreview();
    const short = show('short.txt');
    expect((await within(short).findByText('Nests counted at dawn.')).tagName).toBe('PRE');
    expect(within(short).queryByText(/Only the beginning of the file is shown/)).toBeNull();

    const long = show('long.log');
    const text = await within(long).findByText(/^gannet gannet/);
    expect(text.textContent).toHaveLength(PREFIX_BYTES);
    within(long).getByText(
      'Only the beginning of the file is shown. Download it to see all of it.',
    );
  });

  it('renders Markdown as headings, emphasis, links and lists, and never its HTML', async () => {
    const { show } = renderPreview();
    const preview = show('notes.md');
    const region = await within(preview).findByRole('region', { name: 'Preview of notes.md' });
    expect(within(region).getByRole('heading', { name: 'Field notes' })).toBeTruthy();
    expect(within(region).getByText('breeding pairs').tagName).toBe('STRONG');
    expect(within(region).getByRole('link', { name: 'the protocol' }).getAttribute('href')).toBe(
      'https://example.org/p',
    );
    expect(
      within(region)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Bass Rock', 'Noss']);
    expect(region.querySelector('script')).toBeNull();
    expect(within(region).getByText('<script>window.hacked = true</script>')).toBeTruthy();
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
    expect(within(preview).queryByText(/Only the beginning of the file is shown/)).toBeNull();
  });
});

describe('an empty file on the landing page', () => {
  const CSV = 'depth,temp\n1,4.5\n';
  /** A record holding an empty CSV and a CSV with rows; `defaultPreview` as the record names it. */
  function renderWithEmpty(defaultPreview?: string) {
    const requests = stubFetch((request) => {
      if (new URL(request.url, 'http://localhost').pathname === contentUrl('readings.csv'))
        return new Response(CSV, { status: 206 });
      throw new Error(`Unexpected request: ${request.method} ${request.url}`);
    });
    const entries = {
      'empty.csv': { key: 'empty.csv', size: 0, mimetype: 'text/csv' },
      'readings.csv': { key: 'readings.csv', size: CSV.length, mimetype: 'text/csv' },
    };
    renderApp({
      path: `/records/${ID}?preview=1`,
      bootstrap: {
        record: buildDraft({
          id: ID,
          files: {
            enabled: true,
            entries,
            ...(defaultPreview ? { default_preview: defaultPreview } : {}),
          },
        }),
      },
    });
    return { requests, files: screen.getByRole('region', { name: 'Files' }) };
  }

  it.each([
    ['no default preview', undefined],
    ['a default preview naming the empty file', 'empty.csv'],
  ])('is never the preview shown first (%s): the CSV with rows is', async (_, preview) => {
    const { requests, files } = renderWithEmpty(preview);
    const table = await within(files).findByRole('table', {
      name: 'First 1 rows of readings.csv',
    });
    expect(within(table).getByRole('cell', { name: '4.5' })).toBeTruthy();
    expect(within(files).queryByRole('alert')).toBeNull();
    expect(requests.map((r) => new URL(r.url, 'http://localhost').pathname)).toEqual([
      contentUrl('readings.csv'),
    ]);
  });

  it('says it is empty when asked for, without reading it', () => {
    const { requests, files } = renderWithEmpty();
    fireEvent.click(within(files).getByRole('button', { name: 'Preview of empty.csv' }));
    const preview = within(files).getByRole('region', { name: 'Preview of empty.csv' });
    expect(within(preview).getByText('This file is empty.')).toBeTruthy();
    expect(within(files).queryByRole('alert')).toBeNull();
    expect(requests.filter((r) => r.url.includes('empty.csv'))).toEqual([]);
  });

  it('follows the default preview the record names when it has content', async () => {
    const requests = stubFetch((request) => {
      const path = new URL(request.url, 'http://localhost').pathname;
      if (path === contentUrl('short.txt')) return new Response('Nests counted at dawn.\n');
      throw new Error(`Unexpected request: ${request.method} ${request.url}`);
    });
    const entries = Object.fromEntries(Object.entries(FILES).map(([key, f]) => [key, f.entry]));
    renderApp({
      path: `/records/${ID}?preview=1`,
      bootstrap: {
        record: buildDraft({
          id: ID,
          files: { enabled: true, entries, default_preview: 'short.txt' },
        }),
      },
    });
    const files = screen.getByRole('region', { name: 'Files' });
    const preview = within(files).getByRole('region', { name: 'Preview of short.txt' });
    expect(await within(preview).findByText('Nests counted at dawn.')).toBeTruthy();
    expect(requests).toHaveLength(1);
  });
});

describe('previewKind', () => {
  const kind = (key: string, mimetype?: string) =>
    previewKind({ key, ...(mimetype ? { mimetype } : {}) });

  it('previews images by their media type only, among those browsers show', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'IMAGE/PNG'])
      expect(kind('scan.bin', type), type).toBe('image');
    expect(kind('scan.tiff', 'image/tiff')).toBeUndefined();
    expect(kind('photo.png', 'application/octet-stream')).toBeUndefined();
  });

  it('knows PDF, CSV, TSV and Markdown by media type or by extension', () => {
    expect(kind('x.bin', 'application/pdf')).toBe('pdf');
    expect(kind('Paper.PDF', 'application/octet-stream')).toBe('pdf');
    expect(kind('x.bin', 'text/csv')).toBe('csv');
    expect(kind('counts.csv')).toBe('csv');
    expect(kind('x.bin', 'text/tab-separated-values')).toBe('tsv');
    expect(kind('counts.tsv', 'application/octet-stream')).toBe('tsv');
    expect(kind('x.bin', 'text/markdown')).toBe('markdown');
    expect(kind('README.md')).toBe('markdown');
    expect(kind('notes.markdown')).toBe('markdown');
  });

  it('lists zip and tar archives, a gzip only when it holds a tar', () => {
    expect(kind('data.zip', 'application/zip')).toBe('archive');
    for (const key of ['a.tar', 'a.tar.gz', 'a.tgz', 'A.ZIP'])
      expect(kind(key), key).toBe('archive');
  });

  it('shows any other text as text, and nothing for the rest', () => {
    expect(kind('x.bin', 'text/plain')).toBe('text');
    expect(kind('run.py', 'text/x-python')).toBe('text');
    for (const key of ['a.txt', 'a.json', 'a.xml', 'a.log']) expect(kind(key), key).toBe('text');
    expect(kind('data.h5')).toBeUndefined();
    expect(kind('data.gz', 'application/gzip')).toBeUndefined();
    expect(kind('no-extension')).toBeUndefined();
  });
});

describe('parseDelimited', () => {
  it('splits at the delimiter given, with quoted fields, CRLF and a row limit', () => {
    expect(parseDelimited('a\tb,c\r\n"x\ty"\t"say ""hi"""\r\n1\t2\n', '\t', 10)).toEqual([
      ['a', 'b,c'],
      ['x\ty', 'say "hi"'],
      ['1', '2'],
    ]);
    expect(parseDelimited('h\n1\n2\n3\n', ',', 2)).toEqual([['h'], ['1']]);
  });

  it('drops a last line cut by the 64 kB prefix, and keeps one the whole file ended on', () => {
    expect(parseDelimited('a,b\n1,2', ',', 10)).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    const cut = `a,b\n${'1,2\n'.repeat(PREFIX_BYTES / 4)}`.slice(0, PREFIX_BYTES - 1) + '9';
    const rows = parseDelimited(cut, ',', 100_000);
    expect(rows.at(-1)).toEqual(['1', '2']);
  });
});
