import { Avatar, Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { roleKey } from '../../shared/community-roles';
import { isRestrictedCommunity, type CommunityJson } from './community-json';

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
