import {
  SEARCH_DEFAULT_PAGE_SIZE,
  SEARCH_MAX_WINDOW,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCH_QUERY_MAX_WORDS,
} from '@cairn/shared';
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
  sorts: readonly string[];
  /** Sort used without `sort`; `bestmatch` is only meaningful with a query. */
  defaultSort: (hasQuery: boolean) => string;
  /** Names kept as filters; any other unknown parameter is ignored, as InvenioRDM does. */
  filters: readonly string[];
  maxSize?: number;
  /**
   * 'parser' when the route parses `q` with the query syntax, which measures it itself (counting
   * the words of values, not field names and operators) and its length.
   */
  wordsCountedBy?: 'parser';
}

/** `page` and `size` as marshmallow's `Integer(validate=Range(min=1))` reads them, messages included. */
function positiveInt(value: unknown, field: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : NaN;
  const message = !Number.isInteger(n)
    ? 'Not a valid integer.'
    : n < 1
      ? 'Must be greater than or equal to 1.'
      : undefined;
  if (message) throw new AppError('VALIDATION_FAILED', undefined, [{ field, messages: [message] }]);
  return n;
}

/**
 * Refuses search text past the limits every search route shares (400 naming `field`). Each
 * engine turns a word into a term of its own query (an FTS5 or tsquery prefix, a LIKE), and
 * SQLite refuses an expression tree past a thousand terms deep: a thousand words were a 500.
 * Both are measured as the engines see the text, after NFKC (U+FDFA alone is 18 characters).
 */
export function checkSearchText(field: string, text: string): void {
  const normalised = text.normalize('NFKC');
  const message =
    normalised.length > SEARCH_QUERY_MAX_LENGTH
      ? `Longer than maximum length ${SEARCH_QUERY_MAX_LENGTH}.`
      : searchWords(normalised).length > SEARCH_QUERY_MAX_WORDS
        ? `Must hold at most ${SEARCH_QUERY_MAX_WORDS} words.`
        : undefined;
  if (message) throw new AppError('VALIDATION_FAILED', undefined, [{ field, messages: [message] }]);
}

/** The words of NFKC-normalised search text: runs of letters and digits. */
export function searchWords(normalised: string): string[] {
  return normalised.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0);
}

/** Parses InvenioRDM search query parameters with the contract's defaults and 400s. */
export function parseSearchParams(
  query: Record<string, unknown>,
  options: SearchOptions,
): SearchParams {
  const first = (v: unknown) => (Array.isArray(v) ? (v[0] as unknown) : v);
  const rawQ = first(query.q);
  const q = typeof rawQ === 'string' ? rawQ.trim() : '';
  if (options.wordsCountedBy !== 'parser') checkSearchText('q', q);
  const page = positiveInt(first(query.page), 'page', 1);
  const size = positiveInt(first(query.size), 'size', SEARCH_DEFAULT_PAGE_SIZE);
  if (options.maxSize !== undefined && size > options.maxSize) {
    throw new AppError('VALIDATION_FAILED', undefined, [
      { field: 'size', messages: [`Must be less than or equal to ${options.maxSize}.`] },
    ]);
  }
  if (page * size > SEARCH_MAX_WINDOW) throw new AppError('INVALID_QUERY');
  const rawSort = first(query.sort);
  let sort =
    typeof rawSort === 'string' && rawSort !== '' ? rawSort : options.defaultSort(q !== '');
  if (!options.sorts.includes(sort)) {
    throw new AppError('VALIDATION_FAILED', undefined, [
      { field: 'sort', messages: [`Invalid sort option '${sort}'.`] },
    ]);
  }
  if (sort === 'bestmatch' && q === '') sort = options.defaultSort(false);
  const filters: Record<string, string[]> = {};
  for (const name of options.filters) {
    const v = query[name];
    const values = (Array.isArray(v) ? v : [v]).filter(
      (x): x is string => typeof x === 'string' && x !== '',
    );
    if (values.length > 0) filters[name] = values;
  }
  return { q, sort, page, size, filters };
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
