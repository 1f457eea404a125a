import { RECORD_FACETS, type RecordFacet } from '@cairn/shared';

/** The sorts a reader chooses from; best match only ranks when there is a query. */
export const SEARCH_SORTS = ['bestmatch', 'newest', 'oldest'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export const PAGE_SIZES = [10, 20, 50] as const;
export const DEFAULT_PAGE_SIZE = 10;

export type FacetSelection = Partial<Record<RecordFacet, string[]>>;

/**
 * Everything a reader chose on the search page. It lives in the address alone (the page reads it
 * on every render), so a search can be shared, bookmarked, reloaded, and walked with Back and
 * Forward.
 */
export interface SearchState {
  q: string;
  /** The sort the reader chose; null follows the query: best match with one, newest without. */
  sort: SearchSort | null;
  page: number;
  size: number;
  filters: FacetSelection;
}

export function defaultSortOf(q: string): SearchSort {
  return q ? 'bestmatch' : 'newest';
}

/** The sort in effect: best match without a query would rank nothing, so it falls back too. */
export function sortOf(state: SearchState): SearchSort {
  if (state.sort === null || (state.sort === 'bestmatch' && !state.q))
    return defaultSortOf(state.q);
  return state.sort;
}

function positiveInteger(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value)) return null;
  const n = Number(value);
  return n > 0 && Number.isSafeInteger(n) ? n : null;
}

/**
 * The search an address describes; values the page does not offer fall back to its defaults.
 * `facets` are those the page offers: a facet it fixes (a community's page fixes the community)
 * is dropped, so that a hand-made address cannot send a filter the page neither shows nor lets
 * the reader untick.
 */
export function readSearchState(
  params: URLSearchParams,
  facets: readonly RecordFacet[] = RECORD_FACETS,
): SearchState {
  const q = (params.get('q') ?? '').trim();
  const sort = params.get('sort');
  const size = positiveInteger(params.get('size'));
  const filters: FacetSelection = {};
  for (const facet of facets) {
    const values = [...new Set(params.getAll(facet).filter((value) => value !== ''))];
    if (values.length > 0) filters[facet] = values;
  }
  return {
    q,
    sort: (SEARCH_SORTS as readonly string[]).includes(sort ?? '') ? (sort as SearchSort) : null,
    page: positiveInteger(params.get('page')) ?? 1,
    size:
      size !== null && (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
    filters,
  };
}

function appendFilters(params: URLSearchParams, filters: FacetSelection): void {
  for (const facet of RECORD_FACETS) {
    for (const value of filters[facet] ?? []) params.append(facet, value);
  }
}

/** The address of a search: only what differs from the defaults, so that links stay short. */
export function addressParamsOf(state: SearchState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  const sort = sortOf(state);
  if (sort !== defaultSortOf(state.q)) params.set('sort', sort);
  if (state.page > 1) params.set('page', String(state.page));
  if (state.size !== DEFAULT_PAGE_SIZE) params.set('size', String(state.size));
  appendFilters(params, state.filters);
  return params;
}

/** The same search as `GET /api/records` (or a community's records) takes it: the address's names and values, in full. */
export function apiParamsOf(state: SearchState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  params.set('sort', sortOf(state));
  params.set('page', String(state.page));
  params.set('size', String(state.size));
  appendFilters(params, state.filters);
  return params;
}

export type SearchChange = Partial<Omit<SearchState, 'sort'>> & { sort?: SearchSort };

/**
 * The search after a change: any change but a move to another page starts again at page 1, since
 * the reader's place in the old results means nothing in the new ones. A sort chosen explicitly
 * is kept across queries; one that equals the default for the new query is forgotten, so that it
 * follows the query again.
 */
export function changeSearch(state: SearchState, change: SearchChange): SearchState {
  const next: SearchState = { ...state, page: 1, ...change, sort: state.sort };
  if (change.sort !== undefined) {
    next.sort = change.sort === defaultSortOf(next.q) ? null : change.sort;
  }
  if (next.sort === 'bestmatch' && !next.q) next.sort = null;
  return next;
}

/** The selection with `value` of `facet` ticked or unticked. */
export function toggleFilter(
  filters: FacetSelection,
  facet: RecordFacet,
  value: string,
  checked: boolean,
): FacetSelection {
  const current = filters[facet] ?? [];
  const values = checked
    ? current.includes(value)
      ? current
      : [...current, value]
    : current.filter((v) => v !== value);
  const next = { ...filters };
  if (values.length > 0) next[facet] = values;
  else delete next[facet];
  return next;
}
