import { Alert, Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessageOf } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { SafeHtml } from '../../components/SafeHtml';
import { PagePagination } from '../../components/PagePagination';
import { TIMELINE_PAGE_SIZE, useChangeComment, useTimeline, type TimelineEvent } from './api';
import { commentHtmlToText, textToCommentHtml } from './comment-html';
import { useFormatDate } from './useFormatDate';

/** Comments and log events, oldest first, a page at a time. */
export function RequestTimeline({ requestId }: { requestId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const timeline = useTimeline(requestId, page);

  if (timeline.isPending) return <PageLoader label={t('app.loading')} />;
  if (timeline.isError) {
    return (
      <ErrorNotice title={t('requests.timelineFailed')} message={serverMessageOf(timeline.error)} />
    );
  }
  const pages = Math.ceil(timeline.data.total / TIMELINE_PAGE_SIZE);
  return (
    <Stack gap="sm">
      {timeline.data.hits.length === 0 ? (
        <Text>{t('requests.noEvents')}</Text>
      ) : (
        <Stack component="ol" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {timeline.data.hits.map((event) => (
            <li key={event.id}>
              {event.type === 'C' ? (
                <Comment requestId={requestId} event={event} />
              ) : (
                <LogEvent event={event} />
              )}
            </li>
          ))}
        </Stack>
      )}
      <PagePagination total={pages} value={page} onChange={setPage} />
    </Stack>
  );
}

/** Who wrote a comment or caused an event, by name. */
function useAuthorName(event: TimelineEvent): string {
  const { t } = useTranslation();
  if (event.created_by?.user === 'system') return t('requests.system');
  return event.expanded?.created_by?.profile?.full_name ?? t('requests.unknown');
}

function LogEvent({ event }: { event: TimelineEvent }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const name = event.payload.event ?? '';
  const author = useAuthorName(event);
  return (
    <Text size="sm" c="dimmed" px="sm">
      {t(`requests.event.${name}`, {
        name: author,
        defaultValue: t('requests.event.other', { name: author, event: name }),
      })}
      {event.created ? ` · ${formatDate(event.created)}` : ''}
    </Text>
  );
}

/** One comment; its author may edit it in place or delete it. */
function Comment({ requestId, event }: { requestId: string; event: TimelineEvent }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const change = useChangeComment(requestId);
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');
  const author = useAuthorName(event);
  const edited = event.updated !== undefined && event.updated !== event.created;

  function startEditing() {
    change.reset();
    setText(commentHtmlToText(event.payload.content ?? ''));
    setEditing(true);
  }

  function save(e: FormEvent) {
    e.preventDefault();
    const html = textToCommentHtml(text);
    if (html === '') return;
    change.mutate({ event, html }, { onSuccess: () => setEditing(false) });
  }

  return (
    <Paper
      withBorder
      p="sm"
      radius="sm"
      component="article"
      aria-label={t('requests.commentBy', { name: author })}
    >
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Text size="sm">
          <Text span fw={600}>
            {author}
          </Text>
          {event.created ? ` · ${formatDate(event.created)}` : ''}
          {edited ? ` · ${t('requests.edited')}` : ''}
        </Text>
        {!editing && (
          <Group gap="xs">
            {event.permissions.can_update_comment && (
              <Button size="compact-sm" variant="subtle" onClick={startEditing}>
                {t('requests.edit')}
              </Button>
            )}
            {event.permissions.can_delete_comment && (
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                loading={change.isPending}
                onClick={() => change.mutate({ event })}
              >
                {t('requests.delete')}
              </Button>
            )}
          </Group>
        )}
      </Group>
      {editing ? (
        <form onSubmit={save}>
          <Stack gap="xs">
            <Textarea
              label={t('requests.editComment')}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              rows={2}
              data-autofocus
            />
            <Group gap="xs">
              <Button type="submit" size="compact-sm" loading={change.isPending}>
                {t('requests.save')}
              </Button>
              <Button size="compact-sm" variant="default" onClick={() => setEditing(false)}>
                {t('requests.back')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <SafeHtml html={event.payload.content ?? ''} />
      )}
      {change.isError && (
        <Alert color="red" variant="light" role="alert" mt="xs">
          {serverMessageOf(change.error) ?? t('requests.commentFailed')}
        </Alert>
      )}
    </Paper>
  );
}
