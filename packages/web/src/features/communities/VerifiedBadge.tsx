import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CommunityJson } from '../shared/communities';

/** Communities with a theme enabled are Verified, as InvenioRDM's community picker marks them. */
export function VerifiedBadge({ community }: { community: CommunityJson }) {
  const { t } = useTranslation();
  if (!community.theme?.enabled) return null;
  return (
    <Badge color="green" variant="light">
      {t('communities.verified')}
    </Badge>
  );
}
