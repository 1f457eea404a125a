import { COMMUNITY_ROLES } from '@cairn/shared';

export type CommunityRole = (typeof COMMUNITY_ROLES)[number];

/** Roles that curate: they review submissions and see what was submitted, as in InvenioRDM. */
export const CURATOR_ROLES: ReadonlySet<string> = new Set(['owner', 'manager', 'curator']);

/** Roles that manage: they invite, add and remove members and decide who may join. */
export const MANAGER_ROLES: ReadonlySet<string> = new Set(['owner', 'manager']);

export function isRole(value: unknown): value is CommunityRole {
  return typeof value === 'string' && (COMMUNITY_ROLES as readonly string[]).includes(value);
}
