import { COMMUNITY_SORTS } from '@cairn/shared';
import {
  Anchor,
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Title,
  Badge,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAddressParams } from '../../app/GuardedRouter';
import { serverMessageOf } from '../../api/client';
import { useBootstrap } from '../../bootstrap';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { SearchForm } from '../../components/SearchForm';
import { PagePagination } from '../../components/PagePagination';
import { COMMUNITIES_PAGE_SIZE, useCommunities, type CommunitiesQuery } from './api';
import type { CommunityJson } from '../shared/communities';
import { CommunityLogo } from '../shared/CommunityLogo';
import { VerifiedBadge } from './VerifiedBadge';

/** The search lives in the address, so a reload or a shared link shows the same page. */
function readQuery(params: URLSearchParams): CommunitiesQuery {
  const q = params.get('q') ?? '';
  const sort = params.get('sort');
  const page = Number(params.get('page'));
  return {
    q,
    sort:
      sort && (COMMUNITY_SORTS as readonly string[]).includes(sort)
        ? sort
        : q
          ? 'bestmatch'
          : 'newest',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** `/communities`: every community the visitor may see, searched, sorted and paged. */
export function CommunitiesPage() {
  const { t } = useTranslation();
  const { user } = useBootstrap();
  const [params, setParams] = useAddressParams();
  const query = readQuery(params);
  const communities = useCommunities(query);

  function update(change: Partial<CommunitiesQuery>) {
    setParams((current) => {
      const next = { ...readQuery(current), page: 1, ...change };
      const out = new URLSearchParams();
      if (next.q) out.set('q', next.q);
      if (next.sort !== (next.q ? 'bestmatch' : 'newest')) out.set('sort', next.sort);
      if (next.page > 1) out.set('page', String(next.page));
      return out;
    });
  }

  const total = communities.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / COMMUNITIES_PAGE_SIZE));

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{t('communities.title')}</Title>
        {user && (
          <Button component={Link} to="/communities/new">
            {t('communities.newCommunity')}
          </Button>
        )}
      </Group>
      <SearchForm
        label={t('communities.searchLabel')}
        submitLabel={t('communities.search')}
        initialQuery={query.q}
        onSearch={(q) => update({ q, sort: q ? 'bestmatch' : 'newest' })}
      />
      <Group justify="flex-end">
        <NativeSelect
          label={t('communities.sortLabel')}
          value={query.sort}
          onChange={(event) => update({ sort: event.currentTarget.value })}
          data={COMMUNITY_SORTS.filter((s) => s !== 'bestmatch' || query.q).map((s) => ({
            value: s,
            label: t(`communities.sort.${s}`),
          }))}
        />
      </Group>
      {communities.isPending ? (
        <PageLoader label={t('app.loading')} />
      ) : communities.isError ? (
        <ErrorNotice
          title={t('communities.loadFailed')}
          message={serverMessageOf(communities.error)}
        />
      ) : communities.data.hits.length === 0 ? (
        <Text>{query.q ? t('communities.noMatch') : t('communities.empty')}</Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('communities.count', { count: total })}
          </Text>
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
            {communities.data.hits.map((community) => (
              <li key={community.id}>
                <CommunityItem community={community} />
              </li>
            ))}
          </Stack>
          <PagePagination total={pages} value={query.page} onChange={(page) => update({ page })} />
        </>
      )}
    </Stack>
  );
}

function CommunityItem({ community }: { community: CommunityJson }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="sm" radius="sm">
      <Group wrap="nowrap" align="flex-start">
        <CommunityLogo community={community} size={48} />
        <Stack gap={4}>
          <Group gap="xs">
            <Anchor
              component={Link}
              to={`/communities/${encodeURIComponent(community.slug ?? community.id)}`}
              fw={600}
            >
              {community.metadata.title ?? community.slug}
            </Anchor>
            <VerifiedBadge community={community} />
            {community.access.visibility === 'restricted' && (
              <Badge color="gray" variant="light">
                {t('communities.restricted')}
              </Badge>
            )}
            {community.ui?.membership_role && (
              <Badge variant="outline">
                {t(`communities.role.${community.ui.membership_role}`, {
                  defaultValue: community.ui.membership_role,
                })}
              </Badge>
            )}
          </Group>
          {community.metadata.description && (
            <Text size="sm">{community.metadata.description}</Text>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}
