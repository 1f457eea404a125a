import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AggregationBucket, Aggregations } from '@cairn/shared';
import { describe, expect, it } from 'vitest';
import type { RecordJson } from '../../api/records';
import { buildRecord } from '../../test/builders';
import { jsonResponse, stubFetch, type RecordedRequest } from '../../test/fetch';
import { renderApp } from '../../test/renderApp';
import { expectRefusedAtBox, refusedQuery, searchFor } from '../../test/search';

const bucket = (
  key: string,
  count: number,
  label: string,
  inner?: AggregationBucket[],
): AggregationBucket => ({
  key,
  doc_count: count,
  label,
  ...(inner ? { inner: { buckets: inner } } : {}),
});

const AGGREGATIONS: Aggregations = {
  resource_type: {
    label: 'Resource types',
    buckets: [
      bucket('dataset', 12, 'Dataset'),
      bucket('image', 3, 'Image', [
        bucket('image-photo', 2, 'Photo'),
        bucket('image-plot', 1, 'Plot'),
      ]),
    ],
  },
  access_status: { buckets: [bucket('open', 14, 'Open'), bucket('restricted', 1, 'Restricted')] },
  // Listed before language here; the page shows it in RECORD_FACETS' order, after it.
  publication_date: { buckets: [bucket('2021', 9, '2021'), bucket('2019', 6, '2019')] },
  language: { buckets: [bucket('eng', 10, 'English'), bucket('deu', 5, 'German')] },
  // Not a filter the API takes: not shown.
  mystery: { buckets: [bucket('x', 1, 'Mystery value')] },
  // Counted, but empty: no heading without a value to tick.
  subject: { buckets: [] },
};

function searchAnswer(hits: RecordJson[], total = hits.length, aggregations = AGGREGATIONS) {
  return jsonResponse(200, {
    hits: { hits, total },
    aggregations,
    sortBy: 'newest',
    links: {},
  });
}

const glacier = buildRecord({
  id: 'glac1-00001',
  metadata: {
    title: 'Glacier mass balance of the Alps',
    publication_date: '2021-03-04',
    resource_type: { id: 'dataset', title: { en: 'Dataset' } },
    creators: ['Lovelace, Ada', 'Hopper, Grace', 'Noether, Emmy', 'Curie, Marie'].map((name) => ({
      person_or_org: { type: 'personal', name },
    })),
    version: 'v2.1',
    description:
      '<p>Annual <strong>glacier</strong> mass balance.</p><p>Measured on 40 Alpine glaciers &amp; <em>ice</em> fields.</p>',
  },
  access: { record: 'public', files: 'restricted', status: 'restricted' },
});

/** Answers every search with `answer`, and records the searches. */
function serveSearch(
  answer: (request: RecordedRequest) => Response = () => searchAnswer([glacier]),
) {
  return stubFetch((request) => {
    if (request.url.startsWith('/api/records?')) return answer(request);
    throw new Error(`Unexpected request: ${request.url}`);
  });
}

const lastSearch = (requests: RecordedRequest[]) => requests.at(-1)?.url;

describe('SearchPage', () => {
  it('shows each result with its title, first creators, date, version, badges and description', async () => {
    serveSearch();
    renderApp({ path: '/search?q=glacier+ice', bootstrap: { user: null } });

    const link = await screen.findByRole('link', { name: 'Glacier mass balance of the Alps' });
    expect(link.getAttribute('href')).toBe('/records/glac1-00001');
    const item = link.closest('li')!;
    expect(within(item).getByRole('heading', { level: 3 }).textContent).toBe(
      'Glacier mass balance of the Alps',
    );
    expect(
      within(item).getByText('Lovelace, Ada; Hopper, Grace; Noether, Emmy et al.'),
    ).toBeTruthy();
    expect(within(item).getByText('Published March 4, 2021')).toBeTruthy();
    expect(within(item).getByText('v2.1')).toBeTruthy();
    expect(within(item).getByText('Dataset')).toBeTruthy();
    expect(within(item).getByText('Restricted')).toBeTruthy();
    // The description as text, its blocks apart, the query's words marked.
    const description = within(item).getByText(/^Annual/);
    expect(description.textContent).toBe(
      'Annual glacier mass balance. Measured on 40 Alpine glaciers & ice fields.',
    );
    expect([...description.querySelectorAll('mark')].map((m) => m.textContent)).toEqual([
      'glacier',
      'ice',
    ]);
    expect(description.querySelector('strong, em, p')).toBeNull();
    expect([...item.querySelectorAll('h3 mark')].map((m) => m.textContent)).toEqual(['Glacier']);
    expect(screen.getByText('1 result')).toBeTruthy();
  });

  it('renders whatever facets come back, in the order of RECORD_FACETS, with counts and nested values', async () => {
    serveSearch();
    renderApp({ path: '/search' });

    await screen.findByRole('link', { name: 'Glacier mass balance of the Alps' });
    const groups = screen.getAllByRole('group').filter((g) => g.tagName === 'FIELDSET');
    expect(groups.map((g) => g.querySelector('legend')?.textContent)).toEqual([
      'Resource type',
      'Access',
      'Language',
      'Publication year',
    ]);
    const types = within(groups[0]!);
    expect(types.getByRole('checkbox', { name: 'Dataset (12)' })).toBeTruthy();
    expect(types.getByRole('checkbox', { name: 'Image (3)' })).toBeTruthy();
    const subtypes = types.getByRole('group', { name: 'Image' });
    expect(
      within(subtypes)
        .getAllByRole('checkbox')
        .map((box) => box.getAttribute('value')),
    ).toEqual(['image-photo', 'image-plot']);
    expect(within(subtypes).getByRole('checkbox', { name: 'Photo (2)' })).toBeTruthy();
    expect(within(groups[3]!).getByRole('checkbox', { name: '2021 (9)' })).toBeTruthy();
    expect(screen.queryByText('Mystery value')).toBeNull();
  });

  it('keeps every choice in the address, sends it to the API as is, and follows Back', async () => {
    const requests = serveSearch();
    const { history } = renderApp({ path: '/search?q=glacier' });

    await screen.findByRole('link', { name: 'Glacier mass balance of the Alps' });
    expect(lastSearch(requests)).toBe('/api/records?q=glacier&sort=bestmatch&page=1&size=10');

    fireEvent.click(screen.getByRole('checkbox', { name: 'Dataset (12)' }));
    await waitFor(() => expect(history.location.search).toBe('?q=glacier&resource_type=dataset'));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Photo (2)' }));
    await waitFor(() =>
      expect(history.location.search).toBe(
        '?q=glacier&resource_type=dataset&resource_type=image-photo',
      ),
    );
    await waitFor(() =>
      expect(lastSearch(requests)).toBe(
        '/api/records?q=glacier&sort=bestmatch&page=1&size=10&resource_type=dataset&resource_type=image-photo',
      ),
    );
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Dataset (12)' }).checked).toBe(
      true,
    );

    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), {
      target: { value: 'oldest' },
    });
    fireEvent.change(screen.getByRole('combobox', { name: 'Results per page' }), {
      target: { value: '20' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Search query' }), {
      target: { value: '  "ice sheet"  ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(history.location.search).toBe(
        '?q=%22ice+sheet%22&sort=oldest&size=20&resource_type=dataset&resource_type=image-photo',
      ),
    );
    await waitFor(() =>
      expect(lastSearch(requests)).toBe(
        '/api/records?q=%22ice+sheet%22&sort=oldest&page=1&size=20&resource_type=dataset&resource_type=image-photo',
      ),
    );

    // Back: the page shows the earlier searches again, box and boxes included.
    act(() => history.go(-1));
    await waitFor(() =>
      expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Search query' }).value).toBe(
        'glacier',
      ),
    );
    expect(history.location.search).toBe(
      '?q=glacier&sort=oldest&size=20&resource_type=dataset&resource_type=image-photo',
    );
    act(() => history.go(-3));
    await waitFor(() => expect(history.location.search).toBe('?q=glacier&resource_type=dataset'));
    await waitFor(() =>
      expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Search query' }).value).toBe(
        'glacier',
      ),
    );
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Sort by' }).value).toBe(
      'bestmatch',
    );
    await waitFor(() =>
      expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Photo (2)' }).checked).toBe(
        false,
      ),
    );
    expect(lastSearch(requests)).toBe(
      '/api/records?q=glacier&sort=bestmatch&page=1&size=10&resource_type=dataset',
    );
  });

  it('pages through the results, and keeps a filter whose value the answer no longer counts', async () => {
    const requests = serveSearch(() =>
      searchAnswer(
        Array.from({ length: 10 }, (_, i) => buildRecord({ id: `rec-${i}` })),
        35,
        { resource_type: { buckets: [bucket('dataset', 35, 'Dataset')] } },
      ),
    );
    const { history } = renderApp({ path: '/search?language=fra' });

    const french = await screen.findByRole<HTMLInputElement>('checkbox', { name: 'fra (0)' });
    expect(french.checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Page 4' }));
    await waitFor(() => expect(history.location.search).toBe('?page=4&language=fra'));
    await waitFor(() =>
      expect(lastSearch(requests)).toBe('/api/records?sort=newest&page=4&size=10&language=fra'),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Clear all filters' }));
    await waitFor(() => expect(history.location.search).toBe(''));
  });

  it('shows the server’s message for a query it cannot parse, at the search box', async () => {
    serveSearch((request) =>
      request.url.includes('q=')
        ? refusedQuery("Syntax error in query: unexpected ')' at position 8.")
        : searchAnswer([]),
    );
    renderApp({ path: '/search?q=glacier)' });

    const box = await expectRefusedAtBox(
      'Search query',
      "Syntax error in query: unexpected ')' at position 8.",
    );
    expect(screen.queryByText('No records match your search.')).toBeNull();
    expect(screen.queryByText(/result/)).toBeNull();

    // A query it can run clears the message.
    searchFor(box, '');
    expect(await screen.findByText('No records have been published yet.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when nothing matches', async () => {
    serveSearch(() => searchAnswer([], 0, {}));
    renderApp({ path: '/search?q=zzz&access_status=open' });
    expect(await screen.findByText('No records match your search.')).toBeTruthy();
  });
});
