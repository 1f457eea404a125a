import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { requestParties } from '@cairn/shared';
import { errorCodeOf, serverMessageOf } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { useMarkSeen, useRequest, useRequestTopic, type RequestJson } from './api';
import { CommentForm } from './CommentForm';
import { RequestActions } from './RequestActions';
import { RequestTimeline } from './RequestTimeline';
import { useRequestList, type InboxState } from './inbox-api';
import { RequestStatusBadge } from '../shared/request-status';
import { useFormatDate } from './useFormatDate';

/**
 * `/me/requests/:id`: where a depositor and a community's curators talk about a submission — the
 * request, the record it concerns, the timeline, a comment box, and the actions the server offers
 * this person now (`links.actions`), nothing more.
 */
export function RequestPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const request = useRequest(id);
  useMarkSeen(request.data);

  if (request.isPending) return <PageLoader label={t('app.loading')} />;
  if (request.isError) {
    return (
      <ErrorNotice
        title={t('requests.loadFailed')}
        message={serverMessageOf(request.error) ?? t('requests.tryAgain')}
      />
    );
  }
  return <RequestView request={request.data} />;
}

function RequestView({ request }: { request: RequestJson }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const { community, person, personInvited } = requestParties(request);
  // A guest who asked for access has no account: their address stands for them.
  const creator = person?.profile?.full_name ?? request.created_by?.email;
  const title = request.title || t('requests.untitled');

  return (
    <Stack gap="lg">
      <InboxNavigation requestId={request.id} />
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {t(`requests.type.${request.type}`, { defaultValue: request.type })}
          {request.number ? ` #${request.number}` : ''}
        </Text>
        <Title order={1}>{title}</Title>
        <Group gap="xs">
          <RequestStatusBadge status={request.status} />
        </Group>
      </Stack>
      <dl>
        {/* Requests between people (access requests) have no community. */}
        {(request.receiver?.community ?? request.created_by?.community) !== undefined && (
          <>
            <Text component="dt" fw={600}>
              {t('requests.community')}
            </Text>
            <Text component="dd" ml={0} mb="xs">
              {community?.slug && !community.is_ghost ? (
                <Anchor component={Link} to={`/communities/${encodeURIComponent(community.slug)}`}>
                  {community.metadata?.title ?? community.slug}
                </Anchor>
              ) : (
                (community?.metadata?.title ?? t('requests.unknown'))
              )}
            </Text>
          </>
        )}
        <Text component="dt" fw={600}>
          {personInvited ? t('requests.invited') : t('requests.createdBy')}
        </Text>
        <Text component="dd" ml={0} mb="xs">
          {creator ?? t('requests.unknown')}
        </Text>
        {request.created && (
          <>
            <Text component="dt" fw={600}>
              {t('requests.opened')}
            </Text>
            <Text component="dd" ml={0} mb="xs">
              {formatDate(request.created)}
            </Text>
          </>
        )}
      </dl>
      {request.topic?.record && (
        <RequestRecord requestId={request.id} recordId={request.topic.record} />
      )}
      <RequestActions request={request} />
      <section aria-labelledby="request-timeline">
        <Title order={2} size="h3" id="request-timeline" mb="sm">
          {t('requests.timeline')}
        </Title>
        <RequestTimeline requestId={request.id} />
      </section>
      <CommentForm request={request} />
    </Stack>
  );
}

/** The record under review: a link to the draft's preview, or to the record once published. */
function RequestRecord({ requestId, recordId }: { requestId: string; recordId: string }) {
  const { t } = useTranslation();
  const topic = useRequestTopic(requestId, recordId);
  const id = encodeURIComponent(recordId);
  return (
    <section aria-labelledby="request-record">
      <Title order={2} size="h3" id="request-record" mb="xs">
        {t('requests.record')}
      </Title>
      {topic.isPending ? (
        <PageLoader label={t('app.loading')} />
      ) : topic.isError ? (
        <Text>
          {errorCodeOf(topic.error) === 'PERMISSION_DENIED'
            ? t('requests.recordHidden')
            : (serverMessageOf(topic.error) ?? t('requests.recordLoadFailed'))}
        </Text>
      ) : (
        <Stack gap={4}>
          <Text fw={600}>{topic.data.record.metadata.title || t('records.untitled')}</Text>
          <Group gap="md">
            {topic.data.isDraft ? (
              <Anchor component={Link} to={`/records/${id}?preview=1`}>
                {t('requests.previewDraft')}
              </Anchor>
            ) : (
              <Anchor component={Link} to={`/records/${id}`}>
                {t('requests.viewRecord')}
              </Anchor>
            )}
          </Group>
        </Stack>
      )}
    </section>
  );
}

/**
 * Opened from a list (its filters in the navigation's state): a way back to it, and to the next
 * open request of the same list, so that a curator works through the list without going back.
 * The next one follows this one in the list; once this one is decided (no longer open), it is
 * the first still open after it on the page that was shown, else the list's first open one.
 */
function InboxNavigation({ requestId }: { requestId: string }) {
  const { t } = useTranslation();
  const state = (useLocation().state as Partial<InboxState> | null)?.inbox;
  const open = useRequestList(
    state?.path ?? '',
    { ...state?.params, is_open: 'true', page: '1' },
    state !== undefined,
  );
  if (!state) return null;
  const openIds = open.data?.hits.map((r) => r.id) ?? [];
  const at = openIds.indexOf(requestId);
  const shown = state.ids.slice(state.ids.indexOf(requestId) + 1);
  const next =
    at >= 0
      ? openIds[at + 1]
      : (shown.find((id) => openIds.includes(id)) ?? openIds.find((id) => id !== requestId));
  return (
    <Group component="nav" aria-label={t('inbox.navigation')} justify="space-between">
      <Anchor component={Link} to={state.back}>
        {t('inbox.backToList')}
      </Anchor>
      {open.isSuccess &&
        (next ? (
          <Anchor
            component={Link}
            to={`/me/requests/${encodeURIComponent(next)}`}
            state={{ inbox: state } satisfies InboxState}
          >
            {t('inbox.nextOpen')}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            {t('inbox.noNextOpen')}
          </Text>
        ))}
    </Group>
  );
}
