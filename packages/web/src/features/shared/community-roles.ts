import type { CommunityJson } from '@cairn/shared';
import type { CurrentUser } from '../../bootstrap';

const ROLES = ['owner', 'manager', 'curator', 'reader'] as const;
type KnownRole = (typeof ROLES)[number];

function isKnownRole(role: string): role is KnownRole {
  return (ROLES as readonly string[]).includes(role);
}

/** The i18n key naming a community role; a role this version does not know reads "Member". */
export function roleKey(role: string) {
  return `depositCommunity.roles.${isKnownRole(role) ? role : 'member'}` as const;
}

const CURATING_ROLES = new Set(['owner', 'manager', 'curator']);

/**
 * Whether the person may see the community's requests: its curators, managers and owners, and
 * administrators (the API's own rule; it refuses everyone else).
 */
export function mayCurate(community: CommunityJson, user: CurrentUser | null): boolean {
  if (!user) return false;
  return user.isAdmin || CURATING_ROLES.has(community.ui?.membership_role ?? '');
}
