import { AppError } from '../../errors.js';
import { checkSearchText, parseSearchParams, type SearchParams } from '../../lib/search.js';

export interface SuggestOptions {
  sorts: readonly string[];
  /** The sort without `q` or `suggest`. */
  alphabetical: string;
  /** Filters besides `suggest`. */
  filters: readonly string[];
  maxSize?: number;
}

/**
 * The parameters of an InvenioRDM vocabulary search: `q` or `suggest`, never both, bestmatch by
 * default when either is given. Only the first `suggest` counts, and the links show the one that
 * was used. Returns the parameters and the text typed.
 */
export function parseSuggestParams(
  query: Record<string, unknown>,
  options: SuggestOptions,
): { params: SearchParams; typed: string } {
  const raw = Array.isArray(query.suggest) ? (query.suggest[0] as unknown) : query.suggest;
  const suggest = typeof raw === 'string' ? raw.trim() : '';
  const params = parseSearchParams(query, {
    sorts: options.sorts,
    defaultSort: (hasQuery) => (hasQuery || suggest !== '' ? 'bestmatch' : options.alphabetical),
    filters: ['suggest', ...options.filters],
    ...(options.maxSize !== undefined ? { maxSize: options.maxSize } : {}),
  });
  if (params.q !== '' && suggest !== '') {
    throw new AppError('VALIDATION_FAILED', undefined, [
      { field: 'suggest', messages: ['Cannot be used together with q.'] },
    ]);
  }
  checkSearchText('suggest', suggest);
  if (suggest !== '') params.filters.suggest = [suggest];
  else delete params.filters.suggest;
  return { params, typed: params.q || suggest };
}
