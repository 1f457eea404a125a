import { z } from 'zod';
import { facet, idParams, searchQuery } from './common.js';

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
