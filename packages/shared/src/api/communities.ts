import { z } from 'zod';
import { hitsOf, idParams } from './common.js';
import { BooleanFilter, facet, searchQuery } from './search.js';

export const COMMUNITY_ROLES = ['owner', 'manager', 'curator', 'reader'] as const;
export const COMMUNITY_SORTS = ['bestmatch', 'newest', 'oldest'] as const;
export const COMMUNITY_TYPE_IDS = ['organization', 'event', 'topic', 'project'] as const;
const VISIBILITIES = ['public', 'restricted'] as const;

export const CommunityIdParams = idParams('Community uuid or slug');

export const CommunitySearchQuery = searchQuery(COMMUNITY_SORTS, {
  type: facet(COMMUNITY_TYPE_IDS),
  visibility: facet(VISIBILITIES),
});

export const MembersQuery = searchQuery(['name'], { role: facet(COMMUNITY_ROLES) });
export const PublicMembersQuery = searchQuery(['name']);

const CommunityAccess = z
  .object({
    visibility: z.enum(VISIBILITIES).optional(),
    members_visibility: z.enum(VISIBILITIES).optional(),
    member_policy: z.enum(['open', 'closed']).optional(),
    record_submission_policy: z.enum(['open', 'closed']).optional(),
    record_policy: z
      .enum(['open', 'closed'])
      .optional()
      .describe('Legacy name of record_submission_policy'),
    review_policy: z.enum(['open', 'closed', 'members']).optional(),
  })
  .describe('Who sees the community and how records get in');

export const CommunityBody = z
  .object({
    slug: z.string().describe('Letters, digits, - and _; at most 100; not a uuid; unique'),
    metadata: z.object({
      title: z.string().describe('1 to 250 characters'),
      description: z.string().optional().describe('At most 250 characters'),
      curation_policy: z.string().optional().describe('HTML, at most 50,000 characters'),
      page: z.string().optional().describe('HTML, at most 50,000 characters'),
      type: z.object({ id: z.enum(COMMUNITY_TYPE_IDS) }).optional(),
      website: z.string().optional(),
      organizations: z
        .array(z.object({ id: z.string().optional(), name: z.string().optional() }))
        .optional(),
      funding: z.array(z.record(z.string(), z.unknown())).optional(),
    }),
    access: CommunityAccess.optional(),
    theme: z
      .object({ enabled: z.boolean() })
      .optional()
      .describe('Administrators only: Verified badge'),
    upload_form: z
      .object({ enabled: z.boolean() })
      .optional()
      .describe('Cairn extension, administrators only: the community has its own deposit form'),
  })
  .describe('A community');

export const CommunityUpdateBody = CommunityBody.omit({ slug: true });

export const CommunityRenameBody = z.object({ slug: z.string() });

export const MembersBody = z.object({
  members: z
    .array(z.object({ type: z.literal('user'), id: z.string() }))
    .min(1)
    .max(100),
  role: z.enum(COMMUNITY_ROLES).optional(),
  visible: z.boolean().optional(),
});
export const AddMembersBody = MembersBody.required({ role: true });
export const RemoveMembersBody = MembersBody.pick({ members: true });

/** What the caller may do with a community (its `ui.permissions` in the vnd form). */
export const CommunityPermissionsSchema = z.looseObject({
  can_include_directly: z.boolean().optional(),
  can_submit_record: z.boolean().optional(),
});

/**
 * An InvenioRDM community; in the vnd form its `ui` carries the caller's view. A community that
 * was deleted appears in a record's or request's `expanded` as a ghost: its id and `is_ghost`.
 */
export const CommunityJsonSchema = z.looseObject({
  id: z.string(),
  slug: z.string().optional(),
  is_ghost: z.boolean().optional(),
  metadata: z
    .looseObject({
      title: z.string().optional(),
      description: z.string().optional(),
      curation_policy: z.string().optional(),
      website: z.string().optional(),
      type: z.looseObject({ id: z.string() }).optional(),
    })
    .prefault({}),
  access: z
    .looseObject({
      visibility: z.string().optional(),
      members_visibility: z.string().optional(),
      record_submission_policy: z.string().optional(),
      review_policy: z.string().optional(),
    })
    .prefault({}),
  /** A themed community is a verified one (the Verified badge). */
  theme: z.looseObject({ enabled: z.boolean().optional() }).nullish(),
  /** Cairn extension: the community has its own deposit form, reached from its page. */
  upload_form: z.looseObject({ enabled: z.boolean().optional() }).nullish(),
  links: z
    .looseObject({
      self: z.string().optional(),
      self_html: z.string().optional(),
      logo: z.string().optional(),
      records: z.string().optional(),
      members: z.string().optional(),
      public_members: z.string().optional(),
    })
    .prefault({}),
  ui: z
    .looseObject({
      permissions: CommunityPermissionsSchema.optional(),
      has_logo: z.boolean().optional(),
      /** The caller's role in the community; absent for non-members. */
      membership_role: z.string().optional(),
      type: z.looseObject({ title_l10n: z.string().optional() }).optional(),
    })
    .optional(),
});
export type CommunityJson = z.infer<typeof CommunityJsonSchema>;

export const CommunityHitsSchema = hitsOf(CommunityJsonSchema);
export type CommunityHits = z.infer<typeof CommunityHitsSchema>;

/** A member; only the members' own list names roles, as in InvenioRDM. */
export const MemberJsonSchema = z.looseObject({
  id: z.string(),
  member: z.looseObject({ id: z.string(), name: z.string().optional() }),
  role: z.string().optional(),
  visible: z.boolean().optional(),
  is_current_user: z.boolean().optional(),
  permissions: z
    .looseObject({
      can_leave: z.boolean(),
      can_delete: z.boolean(),
      can_update_role: z.boolean(),
      can_update_visible: z.boolean(),
    })
    .optional(),
});
export type MemberJson = z.infer<typeof MemberJsonSchema>;
export const MemberHitsSchema = hitsOf(MemberJsonSchema);

/** `POST …/invitations`: whom to invite, the role offered, and an optional message. */
export const InviteMembersBody = AddMembersBody.extend({
  message: z.string().optional().describe('Shown to the invited people as the first comment'),
});

/** `POST …/membership-requests`: why the person asks to join. */
export const MembershipRequestBody = z.object({
  message: z.string().optional().describe("The request's first comment"),
});

/** `GET …/invitations`, `…/membership-requests`: open ones first, then the newest. */
export const MemberRequestsQuery = searchQuery(['newest'], { is_open: BooleanFilter });

/**
 * An invitation or request to join as InvenioRDM lists them: the person, the role it would give,
 * and its request.
 */
export const MemberRequestJsonSchema = z.looseObject({
  id: z.string(),
  member: z.looseObject({ type: z.string(), id: z.string(), name: z.string().optional() }),
  role: z.string(),
  visible: z.boolean(),
  request: z.looseObject({
    id: z.string(),
    status: z.string(),
    is_open: z.boolean(),
    expires_at: z.string().nullable(),
  }),
  permissions: z.looseObject({
    can_update_role: z.boolean(),
    can_cancel: z.boolean().optional(),
    can_accept: z.boolean().optional(),
    can_decline: z.boolean().optional(),
  }),
});
export type MemberRequestJson = z.infer<typeof MemberRequestJsonSchema>;
export const MemberRequestHitsSchema = hitsOf(MemberRequestJsonSchema);
