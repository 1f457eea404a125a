import { Avatar, Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRestrictedCommunity, type CommunityJson } from './community-json';

const ROLES = ['owner', 'manager', 'curator', 'reader'] as const;
type KnownRole = (typeof ROLES)[number];

function isKnownRole(role: string): role is KnownRole {
  return (ROLES as readonly string[]).includes(role);
}

/** The i18n key naming a community role; a role this version does not know reads "Member". */
export function roleKey(role: string) {
  return `depositCommunity.roles.${isKnownRole(role) ? role : 'member'}` as const;
}

/** The community's logo, or its initials when it has none; decorative beside its title. */
export function CommunityLogo({
  community,
  size = 'md',
}: {
  community: CommunityJson;
  size?: string;
}) {
  const title = community.metadata.title ?? '';
  const src = community.ui?.has_logo === false || community.is_ghost ? null : community.links.logo;
  return (
    <Avatar src={src ?? null} alt="" size={size} radius="sm" color="gray" aria-hidden="true">
      {title.slice(0, 2).toUpperCase()}
    </Avatar>
  );
}

/**
 * The badges of a community: restricted visibility, the person's role in it, and Verified for a
 * themed community. `role` comes from the configuration's memberships when known, else from the
 * API's `ui.membership_role`.
 */
export function CommunityBadges({ community, role }: { community: CommunityJson; role?: string }) {
  const { t } = useTranslation();
  return (
    <>
      {isRestrictedCommunity(community) && (
        <Badge color="red" variant="light">
          {t('depositCommunity.restricted')}
        </Badge>
      )}
      {role && (
        <Badge
          color="teal"
          variant="light"
          title={t('depositCommunity.roleLabel', {
            role: t(roleKey(role)),
          })}
        >
          {t(roleKey(role))}
        </Badge>
      )}
      {community.theme?.enabled === true && (
        <Badge color="blue" variant="light">
          {t('depositCommunity.verified')}
        </Badge>
      )}
    </>
  );
}
