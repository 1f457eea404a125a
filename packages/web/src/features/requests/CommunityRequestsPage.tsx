import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useBootstrap } from '../../bootstrap';
import { NotFoundPage } from '../../app/NotFoundPage';
import type { CommunityJson } from '../shared/communities';
import { CommunityLoader } from '../shared/CommunityLoader';
import { CommunitySubpageHeading } from '../shared/CommunitySubpageHeading';
import { RequestsInbox } from './RequestsInbox';
import { mayCurate } from '../shared/community-roles';

/**
 * `/communities/:slug/requests`: the community's requests, for its curators, managers and
 * owners (and administrators). Others find no such page, as the server answers them.
 */
export function CommunityRequestsPage() {
  const { slug = '' } = useParams();
  return <CommunityLoader slug={slug}>{(c) => <CommunityRequests c={c} />}</CommunityLoader>;
}

function CommunityRequests({ c }: { c: CommunityJson }) {
  const { t } = useTranslation();
  const { user } = useBootstrap();
  if (!mayCurate(c, user)) return <NotFoundPage />;
  return (
    <Stack>
      <CommunitySubpageHeading
        community={c}
        title={(community) => t('inbox.communityTitle', { community })}
      />
      <RequestsInbox scope={{ kind: 'community', id: c.id, slug: c.slug ?? c.id }} />
    </Stack>
  );
}
