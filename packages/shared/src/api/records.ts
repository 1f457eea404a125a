import { z } from 'zod';
import { RecordDataSchema } from '../domain/index.js';
import { FieldErrorSchema, hitsOf, idParams, TitlesSchema } from './common.js';
import { BooleanFilter, facet, searchQuery, searchText } from './search.js';

/** Sort options of the records search, as InvenioRDM names them. */
export const RECORD_SORTS = [
  'bestmatch',
  'newest',
  'oldest',
  'version',
  'mostviewed',
  'mostdownloaded',
] as const;

/** A person's own uploads also sort by when they last changed. */
export const USER_RECORD_SORTS = [...RECORD_SORTS, 'updated-desc', 'updated-asc'] as const;

export const RecordIdParams = idParams('Record or draft id, e.g. ha4g3-7x208');

export const RecordPidParams = RecordIdParams.extend({
  scheme: z.string().describe('PID scheme; only doi is managed'),
});

/**
 * GET /api/records/{id}: what `Accept: text/x-bibliography` formats, as InvenioRDM reads them;
 * other parameters are ignored, as there.
 */
export const RecordReadQuery = z.looseObject({
  style: z
    .string()
    .max(100)
    .optional()
    .describe(
      'Citation style of text/x-bibliography: apa, harvard1 (the default), harvard-cite-them-right, vancouver, ieee or chicago-author-date',
    ),
  locale: z
    .string()
    .max(35)
    .optional()
    .describe(
      "Citation terms' language of text/x-bibliography, e.g. en-US, de-DE, fr-FR; the style's own where there are none",
    ),
});

/** `/records/{id}/export/{format}` (a page, not the API). */
export const RecordExportParams = RecordIdParams.extend({
  format: z.string().describe('Export format, e.g. json, datacite-json, bibtex'),
});

/**
 * The facets of a records search, in the order a search page shows them. Each is counted over the
 * query's hits in `aggregations` and is also a filter parameter of the same name: several values
 * of one facet are OR-ed, different facets AND-ed.
 */
export const RECORD_FACETS = [
  'resource_type',
  'access_status',
  'file_type',
  'language',
  'subject',
  'community',
  'publication_date',
] as const;
export type RecordFacet = (typeof RECORD_FACETS)[number];

export const ACCESS_STATUSES = ['open', 'embargoed', 'restricted', 'metadata-only'] as const;

/**
 * `q` of the records searches, published records and a person's own uploads alike: InvenioRDM's
 * query syntax (the rest of the search contract is InvenioRDM's too).
 */
const RecordQueryText = searchText(false).describe(
  'Query: words (all required), "phrases", field:value on the record\'s JSON paths ' +
    '(metadata.title:glacier, metadata.resource_type.id:dataset), ranges ' +
    '(metadata.publication_date:[2019 TO 2021]), AND, OR, NOT, -word, word*, parentheses. ' +
    'At most 500 characters and 32 words. A query that cannot be parsed is a 400 saying where.',
);

const YEAR = /^\d{4}$/;

/**
 * A facet filter of the records search: each value (a subtype named with its type,
 * `publication::publication-article`, counts as the subtype) is refused when it can never match.
 */
function recordFacet(
  valid: (value: string) => boolean,
  expected: string,
  values?: readonly string[],
) {
  return facet(values, (value) => {
    const own = value.split('::').pop() ?? value;
    return valid(own)
      ? undefined
      : `Not a valid value: ${JSON.stringify(own)}; expected ${expected}.`;
  });
}

/** Any value of 1 to 200 characters. */
const recordValue = () =>
  recordFacet((v) => v.length > 0 && v.length <= 200, 'a value of 1 to 200 characters');

export const RecordSearchQuery = searchQuery(RECORD_SORTS, {
  q: RecordQueryText,
  resource_type: recordValue(),
  access_status: recordFacet(
    (v) => (ACCESS_STATUSES as readonly string[]).includes(v),
    `one of ${ACCESS_STATUSES.join(', ')}`,
    ACCESS_STATUSES,
  ),
  file_type: recordValue(),
  language: recordValue(),
  subject: recordValue(),
  community: recordValue(),
  publication_date: recordFacet((v) => YEAR.test(v), 'a year (YYYY)'),
  allversions: BooleanFilter,
});

export const RecordVersionsQuery = searchQuery(['version', ...RECORD_SORTS]);

export const UserRecordsQuery = searchQuery(USER_RECORD_SORTS, {
  // Drafts are searched as published records are, fields such as access.status included.
  q: RecordQueryText,
  is_published: BooleanFilter,
  shared_with_me: BooleanFilter,
  allversions: BooleanFilter,
});

/**
 * A draft as clients send it: every part optional. The server stores what is valid and drops
 * only the smallest invalid part, listing it in `errors`, so a draft is never refused whole.
 */
export const DraftBody = RecordDataSchema.partial().extend({
  parent: z
    .object({
      review: z
        .object({
          type: z.literal('community-submission'),
          receiver: z.object({ community: z.string() }),
        })
        .optional(),
    })
    .optional(),
});

const VocabularyRefSchema = z.looseObject({
  id: z.string(),
  title: TitlesSchema.optional(),
});

const PersonOrOrgSchema = z.looseObject({
  type: z.string().optional(),
  name: z.string().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
});

export const CreatorJsonSchema = z.looseObject({ person_or_org: PersonOrOrgSchema.optional() });
export type CreatorJson = z.infer<typeof CreatorJsonSchema>;

const RecordMetadataSchema = z.looseObject({
  title: z.string().optional(),
  creators: z.array(CreatorJsonSchema).optional(),
  publication_date: z.string().optional(),
  resource_type: VocabularyRefSchema.optional(),
});

const RecordLinksSchema = z.looseObject({
  self: z.string().optional(),
  self_html: z.string().optional(),
  publish: z.string().optional(),
  record_html: z.string().optional(),
  preview_html: z.string().optional(),
  versions: z.string().optional(),
  latest_html: z.string().optional(),
});

const RecordFilesSchema = z.looseObject({
  enabled: z.boolean().optional(),
  count: z.number().optional(),
  entries: z.record(z.string(), z.unknown()).optional(),
});

const RecordUiSchema = z.looseObject({
  publication_date_l10n_long: z.string().optional(),
  resource_type: z.looseObject({ title_l10n: z.string().optional() }).optional(),
});

/** A draft or a published record as the API returns it. */
export const RecordJsonSchema = z.looseObject({
  id: z.string(),
  revision_id: z.number().optional(),
  status: z.string().optional(),
  is_draft: z.boolean().optional(),
  is_published: z.boolean().optional(),
  updated: z.string().optional(),
  links: RecordLinksSchema.prefault({}),
  metadata: RecordMetadataSchema.prefault({}),
  access: z.record(z.string(), z.unknown()).optional(),
  files: RecordFilesSchema.optional(),
  pids: z.record(z.string(), z.unknown()).optional(),
  custom_fields: z.record(z.string(), z.unknown()).optional(),
  errors: z.array(FieldErrorSchema).optional(),
  ui: RecordUiSchema.optional(),
  versions: z
    .looseObject({ index: z.number().optional(), is_latest: z.boolean().optional() })
    .optional(),
  updated_by: z
    .object({ user: z.string(), name: z.string() })
    .optional()
    .describe(
      "Cairn extension, on a draft's own reads and saves: who saved the draft last (their user id and name, never their e-mail address); absent when unknown",
    ),
});
export type RecordJson = z.infer<typeof RecordJsonSchema>;

/**
 * One value of a facet with the number of hits that have it (InvenioRDM's bucket). `label` is in
 * the page's language and never empty; `inner` holds the subtypes of a resource type.
 */
export interface AggregationBucket {
  key: string;
  doc_count: number;
  label: string;
  is_selected?: boolean | undefined;
  inner?: { buckets: AggregationBucket[] } | undefined;
}
export const AggregationBucketSchema: z.ZodType<AggregationBucket> = z.lazy(() =>
  z.looseObject({
    key: z.string(),
    doc_count: z.number(),
    label: z.string().min(1),
    is_selected: z.boolean().optional(),
    inner: z.looseObject({ buckets: z.array(AggregationBucketSchema) }).optional(),
  }),
);

/** A search's facets by name, each with its title and buckets. */
export const AggregationsSchema = z.record(
  z.string(),
  z.looseObject({ label: z.string().optional(), buckets: z.array(AggregationBucketSchema) }),
);
export type Aggregations = z.infer<typeof AggregationsSchema>;

/** A search over records, drafts or versions. */
export const RecordHitsSchema = hitsOf(RecordJsonSchema).extend({
  aggregations: AggregationsSchema.optional(),
  sortBy: z.string().optional(),
});
export type RecordHits = z.infer<typeof RecordHitsSchema>;

/** A moved record (301): where it went, as InvenioRDM answers a redirected id. */
export const RedirectSchema = z.looseObject({
  status: z.literal(301),
  message: z.string(),
  location: z.string(),
});

/**
 * What an administrator sends to delete a published record (InvenioRDM's record deletion): the
 * reason, an entry of the `removalreasons` vocabulary, a note for the record, the citation the
 * tombstone shows instead of the record, and whether the tombstone is shown at all.
 */
export const DeleteRecordBody = z.object({
  removal_reason: z.object({ id: z.string().min(1).max(100) }),
  note: z.string().max(10_000).optional(),
  citation_text: z.string().max(10_000).optional(),
  is_visible: z.boolean().default(true),
});
export type DeleteRecordBody = z.infer<typeof DeleteRecordBody>;

/** A deleted record's tombstone, as the 410 answer for it and its landing page show it. */
export const TombstoneSchema = z.object({
  removal_reason: z.object({ id: z.string(), title: TitlesSchema.optional() }),
  note: z.string(),
  removed_by: z.object({ user: z.string() }),
  removal_date: z.string(),
  citation_text: z.string(),
  is_visible: z.boolean(),
});
export type Tombstone = z.infer<typeof TombstoneSchema>;
