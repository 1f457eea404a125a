import { z } from 'zod';
import { RecordDataSchema } from '../domain/index.js';
import { BooleanFilter, facet, idParams, searchQuery } from './common.js';

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

/** `/records/{id}/export/{format}` (a page, not the API). */
export const RecordExportParams = RecordIdParams.extend({
  format: z.string().describe('Export format, e.g. json, datacite-json, bibtex'),
});

export const RecordSearchQuery = searchQuery(RECORD_SORTS, {
  resource_type: facet(),
  access_status: facet(['open', 'embargoed', 'restricted', 'metadata-only']),
  allversions: BooleanFilter,
});

export const RecordVersionsQuery = searchQuery(['version', ...RECORD_SORTS]);

export const UserRecordsQuery = searchQuery(USER_RECORD_SORTS, {
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
