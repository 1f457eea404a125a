const ROLES = ['owner', 'manager', 'curator', 'reader'] as const;
type KnownRole = (typeof ROLES)[number];

function isKnownRole(role: string): role is KnownRole {
  return (ROLES as readonly string[]).includes(role);
}

/** The i18n key naming a community role; a role this version does not know reads "Member". */
export function roleKey(role: string) {
  return `depositCommunity.roles.${isKnownRole(role) ? role : 'member'}` as const;
}
