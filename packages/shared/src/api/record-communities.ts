import { z } from 'zod';
import { CommunityErrorSchema } from './common.js';
import { BooleanFilter, facet, searchQuery } from './search.js';
import { RequestJsonSchema } from './requests.js';
import { COMMUNITY_SORTS } from './communities.js';

/** At most this many communities in one inclusion or removal call (InvenioRDM's max_number_of_additions and max_number_of_removals). */
export const COMMUNITIES_PER_CALL = 10;

const CommunityRef = z.object({ id: z.string().describe('Community uuid or slug') });

/** A record's communities, and the communities it could be submitted to. */
export const RecordCommunitiesQuery = searchQuery(COMMUNITY_SORTS, {
  type: facet(),
  visibility: facet(['public', 'restricted']),
});
export const CommunitySuggestionsQuery = RecordCommunitiesQuery.extend({
  membership: BooleanFilter,
});

export const IncludeCommunitiesBody = z.object({
  communities: z
    .array(
      CommunityRef.extend({
        require_review: z
          .boolean()
          .optional()
          .describe('true: a curator reviews even when the caller may include directly'),
        comment: z
          .object({ payload: z.object({ content: z.string().min(1), format: z.literal('html') }) })
          .optional()
          .describe('A first comment on the inclusion request'),
      }),
    )
    .min(1)
    .max(COMMUNITIES_PER_CALL),
});

export const RemoveCommunitiesBody = z.object({
  communities: z.array(CommunityRef).min(1).max(COMMUNITIES_PER_CALL),
});

export const DefaultCommunityBody = z.object({
  default: z
    .string()
    .nullable()
    .describe('A community of the record (uuid or slug); null or "" unsets'),
});

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
