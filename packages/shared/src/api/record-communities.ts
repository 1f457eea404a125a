import { z } from 'zod';
import { MESSAGES } from '../validation/messages.js';
import { ActionPayload, CommunityErrorSchema, objectOrEmpty, staged } from './common.js';
import { BooleanFilter, facet, searchQuery } from './search.js';
import { RequestJsonSchema } from './requests.js';
import { COMMUNITY_SORTS } from './communities.js';

/** At most this many communities in one inclusion or removal call (InvenioRDM's max_number_of_additions and max_number_of_removals). */
export const COMMUNITIES_PER_CALL = 10;

/** A community named by id or slug: a non-empty string. */
const communityId = z
  .string({
    error: (issue) => (issue.input === undefined ? MESSAGES.required : MESSAGES.notString),
  })
  .min(1, { error: MESSAGES.notString })
  .describe('Community uuid or slug');
const CommunityRef = z.object({ id: communityId }, { error: MESSAGES.invalidInputType });

/** A record's communities, and the communities it could be submitted to. */
export const RecordCommunitiesQuery = searchQuery(COMMUNITY_SORTS, {
  type: facet(),
  visibility: facet(['public', 'restricted']),
});
export const CommunitySuggestionsQuery = RecordCommunitiesQuery.extend({
  membership: BooleanFilter,
});

/**
 * `{communities: [...]}` with 1 to COMMUNITIES_PER_CALL entries, as RecordCommunitiesSchema loads
 * it: the list as a whole first (its problem alone), then every entry, then duplicated ids.
 */
const communitiesList = <T extends z.ZodType>(entry: T) =>
  z.preprocess(
    objectOrEmpty,
    staged(
      z.looseObject({
        communities: z
          .array(z.unknown(), {
            error: (issue) =>
              issue.input === undefined || issue.input === null
                ? MESSAGES.required
                : MESSAGES.notList,
          })
          .min(1, { error: 'Shorter than minimum length 1.' })
          .max(COMMUNITIES_PER_CALL, {
            error: `Too many communities passed, ${COMMUNITIES_PER_CALL} max allowed.`,
          }),
      }),
      z.object({
        communities: z
          .array(entry)
          .min(1)
          .max(COMMUNITIES_PER_CALL)
          .refine(noDuplicates, {
            error: (issue) => `Duplicated communities ${pythonSet(duplicatedIds(issue.input))}.`,
            // Said beside the entries' own problems, of the entries whose id is sound.
            when: () => true,
          }),
      }),
    ),
  );

/** The ids named more than once, among the entries whose id is a non-empty string. */
function duplicatedIds(list: unknown): string[] {
  const seen = new Set<string>();
  const duplicated = new Set<string>();
  for (const entry of Array.isArray(list) ? list : []) {
    const id = (objectOrEmpty(entry) as { id?: unknown }).id;
    if (typeof id !== 'string' || id === '') continue;
    if (seen.has(id)) duplicated.add(id);
    seen.add(id);
  }
  return [...duplicated];
}

const noDuplicates = (list: unknown) => duplicatedIds(list).length === 0;

/** marshmallow prints the duplicated ids as a Python set. */
const pythonSet = (ids: string[]) => `{${ids.map((id) => `'${id}'`).join(', ')}}`;

const requireReview = z
  .boolean({ error: MESSAGES.notBoolean })
  .optional()
  .describe('true: a curator reviews even when the caller may include directly');

/** `POST /api/records/{id}/communities`: an entry's id is checked before its options. */
export const IncludeCommunitiesBody = communitiesList(
  staged(
    CommunityRef.loose(),
    CommunityRef.extend({
      require_review: requireReview,
      comment: ActionPayload.optional().describe('A first comment on the inclusion request'),
    }),
  ),
);

/** `DELETE /api/records/{id}/communities`: the communities to leave, by id or slug. */
export const RemoveCommunitiesBody = communitiesList(CommunityRef);

/**
 * `PUT /api/records/{id}/communities`: the default community. Newer InvenioRDM sends
 * `{default: {id}}`, the contract's clients the id itself; null, "" or `{}` unsets it.
 */
export const DefaultCommunityBody = z.preprocess(
  objectOrEmpty,
  z.object({
    default: z.preprocess(
      (value) =>
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? ((value as { id?: unknown }).id ?? null)
          : value,
      z
        .string({
          error: (issue) => (issue.input === undefined ? MESSAGES.required : MESSAGES.notString),
        })
        .nullable()
        .describe('A community of the record (uuid or slug); null or "" unsets'),
    ),
  }),
);

/** The communities a record's parent holds: their ids and the default one. */
export const ParentCommunitiesSchema = z.looseObject({
  id: z.string(),
  communities: z
    .looseObject({ ids: z.array(z.string()).optional(), default: z.string().nullish() })
    .optional(),
});

/** `POST …/communities`: the inclusion requests opened, and the communities refused. */
export const IncludeCommunitiesResultSchema = z.looseObject({
  processed: z
    .array(
      z.looseObject({
        community_id: z.string(),
        request_id: z.string(),
        request: RequestJsonSchema,
      }),
    )
    .optional(),
  errors: z.array(CommunityErrorSchema).optional(),
});

/** `DELETE …/communities`: the communities the record could not leave. */
export const RemoveCommunitiesResultSchema = z.looseObject({
  errors: z.array(CommunityErrorSchema).optional(),
});
