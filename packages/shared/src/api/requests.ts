import { z } from 'zod';
import { hitsOf, idParams } from './common.js';
import { BooleanFilter, facet, Flag, searchQuery } from './search.js';

/** `updated` (Cairn extension): the latest activity (a comment, an action) first. */
export const REQUEST_SORTS = ['bestmatch', 'newest', 'oldest', 'updated'] as const;

/** The request types this version knows; the inbox offers a filter for each. */
export const REQUEST_TYPE_IDS = [
  'community-submission',
  'community-inclusion',
  'community-invitation',
  'community-membership-request',
  'user-access-request',
  'guest-access-request',
] as const;

export const RequestSearchQuery = searchQuery(REQUEST_SORTS, {
  is_open: BooleanFilter,
  type: facet(REQUEST_TYPE_IDS),
  status: facet(['created', 'submitted', 'accepted', 'declined', 'cancelled', 'expired']),
  created_by: facet(['me']).describe(
    'Cairn extension: `me`, only the requests the caller created (other values match nothing)',
  ),
  community: facet().describe(
    'Cairn extension: only the requests received by these communities (uuids)',
  ),
  expand: Flag,
});

/** `GET /api/user/requests/count` (Cairn extension): what the header's badge shows. */
export const RequestCountSchema = z.object({
  awaiting: z
    .number()
    .int()
    .describe(
      'Open requests to communities the caller curates, manages or owns: those waiting for its decision',
    ),
});
export type RequestCount = z.infer<typeof RequestCountSchema>;

export const RequestTimelineQuery = searchQuery(['oldest'], { expand: Flag });

export const RequestIdParams = idParams('Request uuid');
export const RequestActionParams = RequestIdParams.extend({
  action: z.string().describe('accept, decline, cancel or submit (expire is the system’s)'),
});
export const RequestCommentParams = RequestIdParams.extend({
  commentId: z.string().describe('Comment (event) uuid'),
});

/** `expanded.created_by` of InvenioRDM: a person's display name, never their e-mail address. */
const PersonStubSchema = z.looseObject({
  id: z.string().optional(),
  is_ghost: z.boolean().optional(),
  profile: z.looseObject({ full_name: z.string().optional() }).optional(),
});

/**
 * A person (`profile`) or a community (`slug`, `metadata`) in `expanded`: which, the request's
 * type says (see `requestParties`).
 */
const EntityStubSchema = PersonStubSchema.extend({
  slug: z.string().optional(),
  metadata: z.looseObject({ title: z.string().optional() }).optional(),
});

/** An invenio-requests request; `expanded` with `?expand=1`. */
export const RequestJsonSchema = z.looseObject({
  id: z.string(),
  number: z.string().optional(),
  title: z.string().optional(),
  type: z.string(),
  status: z.string(),
  is_closed: z.boolean().optional(),
  created: z.string().optional(),
  created_by: z
    .looseObject({
      user: z.string().optional(),
      community: z.string().optional(),
      email: z.string().optional().describe("A guest's address (guest-access-request)"),
    })
    .optional(),
  receiver: z
    .looseObject({ community: z.string().optional(), user: z.string().optional() })
    .optional(),
  topic: z
    .looseObject({ record: z.string().optional(), community: z.string().optional() })
    .nullable()
    .optional(),
  last_activity_at: z.string().optional(),
  comment_count: z
    .number()
    .int()
    .optional()
    .describe('Cairn extension, in search hits: the comments of its timeline'),
  is_unread: z
    .boolean()
    .optional()
    .describe(
      'Cairn extension, in search hits: activity since the caller last opened it (PUT …/seen), or never opened',
    ),
  links: z.looseObject({
    self: z.string(),
    self_html: z.string().optional(),
    /** Where the deposit editor goes after submitting: the request or the record page. */
    next_html: z.string().optional(),
    comments: z.string(),
    timeline: z.string(),
    actions: z.record(z.string(), z.string()).prefault({}),
  }),
  expanded: z
    .looseObject({
      created_by: EntityStubSchema.optional(),
      receiver: EntityStubSchema.optional(),
    })
    .optional(),
});
export type RequestJson = z.infer<typeof RequestJsonSchema>;

/**
 * The community a request concerns and the person on its other side, from its `expanded`: an
 * invitation comes from its community and goes to its person; the others go from a person to a
 * community.
 */
export function requestParties(request: RequestJson) {
  const invitation = request.type === 'community-invitation';
  return {
    community: invitation ? request.expanded?.created_by : request.expanded?.receiver,
    person: invitation ? request.expanded?.receiver : request.expanded?.created_by,
    /** The person is the one invited, not the one who asked. */
    personInvited: invitation,
  };
}
export const RequestHitsSchema = hitsOf(RequestJsonSchema);

/** A comment (`C`) or log event (`L`) of a request's timeline. */
export const TimelineEventSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  payload: z
    .looseObject({ content: z.string().optional(), event: z.string().optional() })
    .prefault({}),
  created: z.string().optional(),
  updated: z.string().optional(),
  revision_id: z.number().optional(),
  created_by: z
    .looseObject({ user: z.string().optional(), community: z.string().optional() })
    .optional(),
  permissions: z
    .looseObject({
      can_update_comment: z.boolean().optional(),
      can_delete_comment: z.boolean().optional(),
    })
    .prefault({}),
  links: z.looseObject({ self: z.string() }),
  expanded: z.looseObject({ created_by: PersonStubSchema.optional() }).optional(),
});
export type TimelineEvent = z.infer<typeof TimelineEventSchema>;
export const TimelineSchema = hitsOf(TimelineEventSchema);
