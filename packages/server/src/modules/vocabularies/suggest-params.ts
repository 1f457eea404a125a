import { indexedSearchQuery, type SearchQueryValues } from '@cairn/shared';
import { searchParams, type SearchParams } from '../../lib/search.js';
import { INDEXED_KINDS, type IndexedType } from './indexed/kinds.js';

export interface SuggestOptions {
  /** The sort without `q` or `suggest`. */
  alphabetical: string;
  /** Filters besides `suggest`. */
  filters: readonly string[];
}

/** A vocabulary search's query string once its schema read it: `suggest` is its first value. */
export type SuggestQuery = SearchQueryValues & { suggest?: string | undefined };

/**
 * The parameters of an InvenioRDM vocabulary search, validated by its schema (`q` or `suggest`,
 * never both): bestmatch by default when either is given, and the links show the `suggest` that
 * was used. Returns the parameters and the text typed.
 */
export function suggestParams(
  query: SuggestQuery,
  options: SuggestOptions,
): { params: SearchParams; typed: string } {
  const suggest = query.suggest ?? '';
  const params = searchParams(query, {
    defaultSort: (hasQuery) => (hasQuery || suggest !== '' ? 'bestmatch' : options.alphabetical),
    filters: options.filters,
  });
  if (suggest !== '') params.filters.suggest = [suggest];
  return { params, typed: params.q || suggest };
}

const ITEM_QUERIES = new Map<IndexedType, ReturnType<typeof indexedSearchQuery>>();

/** The query string of one large vocabulary's search, on its own route and the generic one. */
export function itemSearchQuery(type: IndexedType): ReturnType<typeof indexedSearchQuery> {
  let schema = ITEM_QUERIES.get(type);
  if (!schema) {
    const kind = INDEXED_KINDS[type];
    schema = indexedSearchQuery(kind.sortName, kind.facetParam);
    ITEM_QUERIES.set(type, schema);
  }
  return schema;
}
