import type { CommunityJson } from '@cairn/shared';
import type { CurrentUser } from '../../bootstrap';

const CURATING_ROLES = new Set(['owner', 'manager', 'curator']);

/**
 * Whether the person may see the community's requests: its curators, managers and owners, and
 * administrators (the API's own rule; it refuses everyone else).
 */
export function mayCurate(community: CommunityJson, user: CurrentUser | null): boolean {
  if (!user) return false;
  return user.isAdmin || CURATING_ROLES.has(community.ui?.membership_role ?? '');
}
