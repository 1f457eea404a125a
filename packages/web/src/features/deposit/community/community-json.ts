/*
 * The slice of a community's JSON the deposit editor reads, both from the picker's search
 * (GET /api/communities with the vnd Accept header, which adds `ui`) and from a draft's
 * `expanded.parent.review.receiver` / `expanded.parent.communities.default` stubs.
 */

export { CommunityJsonSchema, type CommunityJson } from '@cairn/shared';
import type { CommunityJson } from '@cairn/shared';

/** `user_communities_memberships` of the configuration: community id → the person's role. */
export type Memberships = Readonly<Record<string, string>>;

/**
 * The person's role in `community` for its badge: from the configuration's memberships, which the
 * deposit page carries for every community, else from a search hit's `ui.membership_role`.
 */
export function membershipRole(
  community: CommunityJson,
  memberships: Memberships | undefined,
): string | undefined {
  return memberships?.[community.id] ?? community.ui?.membership_role;
}

/** Only public communities take public records; a missing visibility counts as public. */
export function isRestrictedCommunity(community: CommunityJson | null | undefined): boolean {
  return community?.access?.visibility === 'restricted';
}

/** Why a community cannot be chosen in the picker, or undefined when it can. */
export type CommunitySelectBlock = 'recordPublic' | 'membersOnly' | 'uploadForm';

export interface CommunitySelectContext {
  /** The form's `access.record` is public. */
  isRecordPublic: boolean;
  /**
   * The record is being submitted for the first time (not a change after a declined review):
   * only then does a community with its own upload form send the person there.
   */
  isInitialSubmission: boolean;
}

/**
 * The first rule that blocks `community`: a public record cannot go to a restricted community
 * (InvenioRDM's server refuses it at accept time), only members may submit where
 * `can_submit_record` is false, and a community with its own upload form takes new records through
 * that form.
 */
export function communitySelectBlock(
  community: CommunityJson,
  { isRecordPublic, isInitialSubmission }: CommunitySelectContext,
): CommunitySelectBlock | undefined {
  if (isRecordPublic && isRestrictedCommunity(community)) return 'recordPublic';
  if (community.ui?.permissions?.can_submit_record === false) return 'membersOnly';
  if (isInitialSubmission && community.upload_form?.enabled === true) return 'uploadForm';
  return undefined;
}
