import { z } from 'zod';
import { SEARCH_MAX_WINDOW } from '../limits.js';
import { hitsOf, idParams, TitlesSchema } from './common.js';
import {
  facet,
  searchQuery,
  searchText,
  searchTextProblem,
  type SearchQueryValues,
} from './search.js';

/** Sort options of InvenioRDM's generic vocabularies endpoint. */
export const VOCABULARY_SORTS = ['bestmatch', 'title'] as const;

export const VocabularyTypeParams = z.object({
  type: z.string().describe('Vocabulary type, e.g. languages, licenses, resourcetypes'),
});
export const VocabularyItemParams = VocabularyTypeParams.extend({
  id: z.string().describe('Entry id, e.g. cc-by-4.0'),
});

const suggest = searchText(false).describe('Typed text (not together with q)');

/**
 * `suggest` is refused together with `q`, then measured as `q` is, once everything else is valid
 * (the order InvenioRDM's vocabulary searches check them in).
 */
function suggestChecked<T extends z.ZodType>(schema: T): T {
  return schema.superRefine((value, ctx) => {
    const { q, suggest: typed } = value as SearchQueryValues & { suggest?: string };
    if (typed === undefined) return;
    const message = q !== undefined ? 'Cannot be used together with q.' : searchTextProblem(typed);
    if (message) ctx.addIssue({ code: 'custom', message, path: ['suggest'] });
  });
}

export const VocabularySearchQuery = suggestChecked(
  searchQuery(VOCABULARY_SORTS, { suggest, tags: facet() }),
);

/** The large vocabularies (names, affiliations, funders, awards, subjects) have their own routes. */
export const IndexedItemParams = idParams('Item id (URL-encode ids that hold "/")');

/** A search of one large vocabulary; some filter on one more field (`facetParam`). */
export const indexedSearchQuery = (sortName: string, facetParam?: string) =>
  suggestChecked(
    searchQuery(
      ['bestmatch', sortName],
      { suggest, tags: facet(), ...(facetParam ? { [facetParam]: facet() } : {}) },
      { maxSize: SEARCH_MAX_WINDOW },
    ),
  );

/** An entry of a small vocabulary in the vnd form: its title in the asked language. */
export const VocabularyHitSchema = z.looseObject({
  id: z.string(),
  title_l10n: z.string(),
  description_l10n: z.string().optional(),
  props: z.record(z.string(), z.unknown()).optional(),
  tags: z.array(z.string()).optional(),
});
export type VocabularyHit = z.infer<typeof VocabularyHitSchema>;
export const VocabularyHitsSchema = hitsOf(VocabularyHitSchema);

const IdentifierSchema = z.looseObject({ scheme: z.string(), identifier: z.string() });

/** A subject, funder or award as `/api/subjects|funders|awards` answer (JSON or vnd). */
export const ItemHitSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  subject: z.string().optional(),
  scheme: z.string().optional(),
  acronym: z.string().optional(),
  number: z.string().optional(),
  title: TitlesSchema.optional(),
  funder: z.looseObject({ id: z.string(), name: z.string().optional() }).optional(),
  identifiers: z.array(IdentifierSchema).optional(),
});
export type ItemHit = z.infer<typeof ItemHitSchema>;
export const ItemHitsSchema = hitsOf(ItemHitSchema);

/** A person of the names vocabulary (`GET /api/names`), ORCID-backed. */
export const NameHitSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  identifiers: z.array(IdentifierSchema).default([]),
  affiliations: z
    .array(z.looseObject({ id: z.string().optional(), name: z.string().optional() }))
    .default([]),
});
export type NameHit = z.infer<typeof NameHitSchema>;

/** An organisation of the affiliations vocabulary (`GET /api/affiliations`), ROR-backed. */
export const AffiliationHitSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  acronym: z.string().optional(),
  country_name: z.string().optional(),
  location_name: z.string().optional(),
  identifiers: z.array(IdentifierSchema).default([]),
});
export type AffiliationHit = z.infer<typeof AffiliationHitSchema>;

/**
 * An entry of a small vocabulary in either form: JSON carries `title` by language, the vnd form
 * (`application/vnd.inveniordm.v1+json`) `title_l10n` in the asked language.
 */
export const VocabularyEntrySchema = z.looseObject({
  id: z.string(),
  title: TitlesSchema.optional(),
  title_l10n: z.string().optional(),
  props: z.record(z.string(), z.unknown()).optional(),
  tags: z.array(z.string()).optional(),
});
export const VocabularyEntriesSchema = hitsOf(VocabularyEntrySchema);
