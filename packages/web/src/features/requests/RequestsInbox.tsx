import {
  Anchor,
  Badge,
  Checkbox,
  Group,
  NativeSelect,
  SegmentedControl,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { CommunityHitsSchema, requestParties, type RequestJson } from '@cairn/shared';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAddressParams } from '../../app/GuardedRouter';
import { serverMessageOf } from '../../api/client';
import { useApiClient } from '../../api/useApiClient';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { PagePagination } from '../../components/PagePagination';
import { SearchForm } from '../../components/SearchForm';
import {
  INBOX_PAGE_SIZE,
  INBOX_SORTS,
  INBOX_STATES,
  REQUEST_TYPE_IDS,
  inboxApiParams,
  inboxApiPath,
  inboxPagePath,
  readInboxQuery,
  useRequestList,
  writeInboxQuery,
  type InboxQuery,
  type InboxScope,
  type InboxState,
} from './inbox-api';
import { RequestStatusBadge } from '../shared/request-status';
import { useFormatDate } from './useFormatDate';

/**
 * A list of requests, every choice in the page's address (state, type, community, "created by
 * me", search, sort, page), so that a list can be linked to and Back returns to it.
 */
export function RequestsInbox({ scope }: { scope: InboxScope }) {
  const { t } = useTranslation();
  const [params, setParams] = useAddressParams();
  const query = readInboxQuery(params);
  const path = inboxApiPath(scope);
  const list = useRequestList(path, inboxApiParams(query));

  function update(change: Partial<InboxQuery>) {
    setParams((current) => writeInboxQuery({ ...readInboxQuery(current), page: 1, ...change }));
  }

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE));
  const filtered = query.q !== '' || query.type !== '' || query.community !== '' || query.mine;

  return (
    <Stack>
      <SearchForm
        label={t('inbox.searchLabel')}
        submitLabel={t('inbox.search')}
        initialQuery={query.q}
        onSearch={(q) => update({ q })}
      />
      <Group align="flex-end" wrap="wrap">
        <SegmentedControl
          aria-label={t('inbox.stateLabel')}
          value={query.state}
          onChange={(value) => update({ state: value })}
          data={INBOX_STATES.map((s) => ({ value: s, label: t(`inbox.state.${s}`) }))}
        />
        <NativeSelect
          label={t('inbox.typeLabel')}
          value={query.type}
          onChange={(event) => update({ type: event.currentTarget.value })}
          data={[
            { value: '', label: t('inbox.allTypes') },
            ...REQUEST_TYPE_IDS.map((type) => ({
              value: type,
              label: t(`requests.type.${type}`),
            })),
          ]}
        />
        {scope.kind === 'mine' && (
          <CommunityFilter
            value={query.community}
            onChange={(community) => update({ community })}
          />
        )}
        <NativeSelect
          label={t('inbox.sortLabel')}
          value={query.sort}
          onChange={(event) => update({ sort: event.currentTarget.value as InboxQuery['sort'] })}
          data={INBOX_SORTS.map((s) => ({ value: s, label: t(`inbox.sort.${s}`) }))}
        />
        <Checkbox
          label={t('inbox.mine')}
          checked={query.mine}
          onChange={(event) => update({ mine: event.currentTarget.checked })}
          mb={6}
        />
      </Group>
      {list.isPending ? (
        <PageLoader label={t('app.loading')} />
      ) : list.isError ? (
        <ErrorNotice title={t('inbox.loadFailed')} message={serverMessageOf(list.error)} />
      ) : list.data.hits.length === 0 ? (
        <Text>{filtered || query.state !== 'open' ? t('inbox.noMatch') : t('inbox.empty')}</Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('inbox.count', { count: total })}
          </Text>
          <RequestsTable
            requests={list.data.hits}
            state={{
              inbox: {
                path,
                params: inboxApiParams({ ...query, page: 1 }, 100),
                ids: list.data.hits.map((r) => r.id),
                back: `${inboxPagePath(scope)}${params.size > 0 ? `?${params.toString()}` : ''}`,
              },
            }}
          />
          <PagePagination total={pages} value={query.page} onChange={(page) => update({ page })} />
        </>
      )}
    </Stack>
  );
}

/** The communities the person belongs to, to narrow the personal inbox to one. */
function CommunityFilter({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const { t } = useTranslation();
  const client = useApiClient();
  const communities = useQuery({
    queryKey: ['communities', 'mine', 'inbox'] as const,
    queryFn: async () =>
      CommunityHitsSchema.parse(
        await client.get('/api/user/communities', { query: { size: '100', sort: 'newest' } }),
      ).hits.hits,
    staleTime: 60_000,
  });
  const options = (communities.data ?? []).map((c) => ({
    value: c.id,
    label: c.metadata.title ?? c.slug ?? c.id,
  }));
  // A community from a shared link that is not among the person's still shows as chosen.
  if (value && !options.some((o) => o.value === value)) options.push({ value, label: value });
  return (
    <NativeSelect
      label={t('inbox.communityLabel')}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      data={[{ value: '', label: t('inbox.allCommunities') }, ...options]}
    />
  );
}

function RequestsTable({ requests, state }: { requests: RequestJson[]; state: InboxState }) {
  const { t } = useTranslation();
  return (
    <Table>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('inbox.columnTitle')}</Table.Th>
          <Table.Th>{t('inbox.columnType')}</Table.Th>
          <Table.Th>{t('inbox.columnCommunity')}</Table.Th>
          <Table.Th>{t('inbox.columnCreatedBy')}</Table.Th>
          <Table.Th>{t('inbox.columnCreated')}</Table.Th>
          <Table.Th>{t('inbox.columnStatus')}</Table.Th>
          <Table.Th>{t('inbox.columnComments')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {requests.map((request) => (
          <RequestRow key={request.id} request={request} state={state} />
        ))}
      </Table.Tbody>
    </Table>
  );
}

function RequestRow({ request, state }: { request: RequestJson; state: InboxState }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const { community, person } = requestParties(request);
  const comments = request.comment_count ?? 0;
  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Anchor
            component={Link}
            to={`/me/requests/${encodeURIComponent(request.id)}`}
            state={state}
            fw={request.is_unread ? 700 : 400}
          >
            {request.title || t('requests.untitled')}
          </Anchor>
          {request.is_unread && (
            <Badge size="xs" variant="filled">
              {t('inbox.unread')}
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>{t(`requests.type.${request.type}`, { defaultValue: request.type })}</Table.Td>
      <Table.Td>{community?.metadata?.title ?? community?.slug ?? ''}</Table.Td>
      <Table.Td>{person?.profile?.full_name ?? t('requests.unknown')}</Table.Td>
      <Table.Td>
        {request.created && <time dateTime={request.created}>{formatDate(request.created)}</time>}
      </Table.Td>
      <Table.Td>
        <RequestStatusBadge status={request.status} />
      </Table.Td>
      <Table.Td>
        <span aria-label={t('inbox.comments', { count: comments })}>{comments}</span>
      </Table.Td>
    </Table.Tr>
  );
}
