import { SEARCH_DEFAULT_PAGE_SIZE, searchTextProblem, type SearchQueryValues } from '@cairn/shared';
import { AppError } from '../errors.js';

export interface SearchParams {
  q: string;
  sort: string;
  page: number;
  size: number;
  /** Facet filters and flags (allversions, is_published…), each as given, in links after sort. */
  filters: Record<string, string[]>;
}

export interface SearchOptions {
  /** Sort used without `sort`; `bestmatch` is only meaningful with a query. */
  defaultSort: (hasQuery: boolean) => string;
  /** Names kept as filters (for the links); any other parameter is ignored, as InvenioRDM does. */
  filters: readonly string[];
}

/**
 * Refuses search text past the limits every search route shares (400 naming `field`), for the
 * records searches, whose query parser finds it (the route schemas measure the other searches').
 */
export function checkSearchText(field: string, text: string): void {
  const message = searchTextProblem(text);
  if (message) throw new AppError('VALIDATION_FAILED', undefined, [{ field, messages: [message] }]);
}

/**
 * A search's parameters with the contract's defaults, from a query string its route's schema
 * (`searchQuery`) has validated.
 */
export function searchParams(query: SearchQueryValues, options: SearchOptions): SearchParams {
  const q = query.q ?? '';
  const sort =
    query.sort === undefined || (query.sort === 'bestmatch' && q === '')
      ? options.defaultSort(q !== '')
      : query.sort;
  const filters: Record<string, string[]> = {};
  for (const name of options.filters) {
    const values = query[name];
    if (Array.isArray(values) && values.length > 0) filters[name] = values as string[];
  }
  return { q, sort, page: query.page ?? 1, size: query.size ?? SEARCH_DEFAULT_PAGE_SIZE, filters };
}

function linkFor(base: string, params: SearchParams, page: number): string {
  const search = new URLSearchParams();
  search.append('page', String(page));
  if (params.q) search.append('q', params.q);
  search.append('size', String(params.size));
  search.append('sort', params.sort);
  for (const name of Object.keys(params.filters).sort()) {
    for (const value of params.filters[name] ?? []) search.append(name, value);
  }
  return `${base}?${search.toString()}`;
}

/** `self`, and `prev`/`next` exactly when the contract says they exist. */
export function searchLinks(
  base: string,
  params: SearchParams,
  total: number,
): Record<string, string> {
  const links: Record<string, string> = { self: linkFor(base, params, params.page) };
  if (params.page > 1 && (params.page - 2) * params.size < total)
    links.prev = linkFor(base, params, params.page - 1);
  if (params.page * params.size < total) links.next = linkFor(base, params, params.page + 1);
  return links;
}
