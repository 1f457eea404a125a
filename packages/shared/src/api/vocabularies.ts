import { z } from 'zod';
import { facet, idParams, searchQuery } from './common.js';

/** Sort options of InvenioRDM's generic vocabularies endpoint. */
export const VOCABULARY_SORTS = ['bestmatch', 'title'] as const;

export const VocabularyTypeParams = z.object({
  type: z.string().describe('Vocabulary type, e.g. languages, licenses, resourcetypes'),
});
export const VocabularyItemParams = VocabularyTypeParams.extend({
  id: z.string().describe('Entry id, e.g. cc-by-4.0'),
});

const suggest = z.string().max(500).describe('Typed text (not together with q)');

export const VocabularySearchQuery = searchQuery(VOCABULARY_SORTS, { suggest, tags: facet() });

/** The large vocabularies (names, affiliations, funders, awards, subjects) have their own routes. */
export const IndexedItemParams = idParams('Item id (URL-encode ids that hold "/")');

/** A search of one large vocabulary; some filter on one more field (`facetParam`). */
export const indexedSearchQuery = (sortName: string, facetParam?: string) =>
  searchQuery(['bestmatch', sortName], {
    suggest,
    tags: facet(),
    ...(facetParam ? { [facetParam]: facet() } : {}),
  });
