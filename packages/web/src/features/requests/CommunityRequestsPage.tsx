import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { serverMessageOf } from '../../api/client';
import { useBootstrap } from '../../bootstrap';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { NotFoundPage } from '../../app/NotFoundPage';
import { useCommunity } from '../communities/api';
import { RequestsInbox } from './RequestsInbox';
import { mayCurate } from './may-curate';

/**
 * `/communities/:slug/requests`: the community's requests, for its curators, managers and
 * owners (and administrators). Others find no such page, as the server answers them.
 */
export function CommunityRequestsPage() {
  const { t } = useTranslation();
  const { slug = '' } = useParams();
  const { user } = useBootstrap();
  const community = useCommunity(slug);

  if (community.isPending) return <PageLoader label={t('app.loading')} />;
  if (community.isError) {
    return (
      <ErrorNotice
        title={t('communities.notFound')}
        message={serverMessageOf(community.error) ?? t('communities.loadFailed')}
      />
    );
  }
  const c = community.data;
  if (!mayCurate(c, user)) return <NotFoundPage />;
  const title = c.metadata.title ?? c.slug ?? '';
  return (
    <Stack>
      <Stack gap={4}>
        <Text size="sm">
          <Anchor component={Link} to={`/communities/${encodeURIComponent(c.slug ?? c.id)}`}>
            {title}
          </Anchor>
        </Text>
        <Title order={1}>{t('inbox.communityTitle', { community: title })}</Title>
      </Stack>
      <RequestsInbox scope={{ kind: 'community', id: c.id, slug: c.slug ?? c.id }} />
    </Stack>
  );
}
