import {
  Anchor,
  Badge,
  Button,
  Group,
  NativeSelect,
  SegmentedControl,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useAddressParams } from '../../app/GuardedRouter';
import { serverMessageOf } from '../../api/client';
import type { RecordJson } from '../../api/records';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { SearchForm } from '../../components/SearchForm';
import { PagePagination } from '../../components/PagePagination';
import { useOpenDraft } from '../shared/records-api';
import { QuerySyntaxHelp } from '../shared/search/QuerySyntaxHelp';
import { useRefusedQueryMessage } from '../shared/search/refused-query';
import { useVersionLabel } from '../shared/useVersionLabel';
import { UPLOADS_PAGE_SIZE, useUserRecords, type UploadsQuery } from './api';

const SORTS = ['updated-desc', 'updated-asc', 'newest', 'oldest', 'bestmatch'] as const;
const FILTERS = ['all', 'published', 'draft'] as const;

/** The dashboard's state lives in the address, so a reload or a shared link shows the same. */
function readQuery(params: URLSearchParams): UploadsQuery {
  const status = params.get('status');
  const sort = params.get('sort');
  const page = Number(params.get('page'));
  const q = params.get('q') ?? '';
  return {
    q,
    status: (FILTERS as readonly string[]).includes(status ?? '')
      ? (status as UploadsQuery['status'])
      : 'all',
    sort:
      sort && (SORTS as readonly string[]).includes(sort) ? sort : q ? 'bestmatch' : 'updated-desc',
    page: Number.isInteger(page) && page > 0 ? page : 1,
    shared: params.get('shared_with_me') === 'true',
  };
}

/** `/me/uploads`: the person's drafts and records, searchable, filtered, sorted and paged. */
export function UploadsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useAddressParams();
  const query = readQuery(params);
  const uploads = useUserRecords(query);

  function update(change: Partial<UploadsQuery>) {
    setParams((current) => {
      const next = { ...readQuery(current), page: 1, ...change };
      const out = new URLSearchParams();
      if (next.q) out.set('q', next.q);
      if (next.status !== 'all') out.set('status', next.status);
      if (next.sort !== (next.q ? 'bestmatch' : 'updated-desc')) out.set('sort', next.sort);
      if (next.page > 1) out.set('page', String(next.page));
      if (next.shared) out.set('shared_with_me', 'true');
      return out;
    });
  }

  // With a query, the server's words (a query it cannot parse says where) go to the box, where the
  // reader fixes it; without one, the failure is the list's.
  const refused = useRefusedQueryMessage(query.q ? uploads.error : null);
  const total = (uploads.data?.hits as { total?: number } | undefined)?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / UPLOADS_PAGE_SIZE));

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{t('dashboard.title')}</Title>
        <Button component={Link} to="/uploads/new">
          {t('dashboard.newUpload')}
        </Button>
      </Group>
      <Tabs
        value={query.shared ? 'shared' : 'mine'}
        // A new list: its own search starts empty.
        onChange={(value) => update({ shared: value === 'shared', q: '', sort: 'updated-desc' })}
      >
        <Tabs.List>
          <Tabs.Tab value="mine">{t('dashboard.mine')}</Tabs.Tab>
          <Tabs.Tab value="shared">{t('dashboard.sharedWithMe')}</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <SearchForm
        key={query.shared ? 'shared' : 'mine'}
        label={query.shared ? t('dashboard.searchSharedLabel') : t('dashboard.searchLabel')}
        submitLabel={t('dashboard.search')}
        initialQuery={query.q}
        onSearch={(q) => update({ q, sort: q ? 'bestmatch' : 'updated-desc' })}
        error={refused}
      >
        <QuerySyntaxHelp />
      </SearchForm>
      <Group justify="space-between" align="flex-end">
        <SegmentedControl
          aria-label={t('dashboard.filterLabel')}
          value={query.status}
          onChange={(value) => update({ status: value })}
          data={FILTERS.map((f) => ({ value: f, label: t(`dashboard.filter.${f}`) }))}
        />
        <NativeSelect
          label={t('dashboard.sortLabel')}
          value={query.sort}
          onChange={(event) => update({ sort: event.currentTarget.value })}
          data={SORTS.filter((s) => s !== 'bestmatch' || query.q).map((s) => ({
            value: s,
            label: t(`dashboard.sort.${s}`),
          }))}
        />
      </Group>
      {uploads.isPending ? (
        <PageLoader label={t('app.loading')} />
      ) : uploads.isError ? (
        refused ? null : (
          <ErrorNotice title={t('dashboard.loadFailed')} message={serverMessageOf(uploads.error)} />
        )
      ) : uploads.data.hits.hits.length === 0 ? (
        <Text>
          {query.q || query.status !== 'all'
            ? t('dashboard.noMatch')
            : query.shared
              ? t('dashboard.sharedEmpty')
              : t('dashboard.empty')}
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('dashboard.count', { count: total })}
          </Text>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('dashboard.columnTitle')}</Table.Th>
                <Table.Th>{t('dashboard.columnStatus')}</Table.Th>
                <Table.Th>{t('dashboard.columnUpdated')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('dashboard.columnActions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {uploads.data.hits.hits.map((upload) => (
                <UploadRow
                  key={`${upload.id}-${String(upload.is_draft)}`}
                  upload={upload}
                  shared={query.shared}
                />
              ))}
            </Table.Tbody>
          </Table>
          <PagePagination total={pages} value={query.page} onChange={(page) => update({ page })} />
        </>
      )}
    </Stack>
  );
}

/**
 * One draft or record and what may be done with it. Of a shared one, only its draft is offered
 * for editing: a new version, or an edit of a published record, stays with those who manage it
 * (the server refuses the others).
 */
function UploadRow({ upload, shared }: { upload: RecordJson; shared: boolean }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const open = useOpenDraft();
  const versionLabel = useVersionLabel();
  const id = encodeURIComponent(upload.id);
  const title = upload.metadata.title || t('dashboard.untitled');
  const updated = upload.updated
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(
        new Date(upload.updated),
      )
    : '';

  function openDraft(kind: 'new-version' | 'edit') {
    open.mutate(
      { id: upload.id, kind },
      { onSuccess: (draft) => void navigate(`/uploads/${encodeURIComponent(draft.id)}`) },
    );
  }

  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={upload.is_draft ? `/uploads/${id}` : `/records/${id}`}>
          {title}
        </Anchor>
        <Text size="xs" c="dimmed">
          {versionLabel(upload)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={upload.is_draft ? 'gray' : 'green'}>
          <StatusLabel upload={upload} />
        </Badge>
      </Table.Td>
      <Table.Td>{updated}</Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {upload.is_draft ? (
            <Button component={Link} to={`/uploads/${id}`} size="compact-sm" variant="light">
              {t('dashboard.continueEditing')}
              <VisuallyHidden>: {title}</VisuallyHidden>
            </Button>
          ) : shared ? null : (
            <>
              <Button
                size="compact-sm"
                variant="light"
                loading={open.isPending && open.variables.kind === 'edit'}
                onClick={() => openDraft('edit')}
              >
                {t('dashboard.edit')}
                <VisuallyHidden>: {title}</VisuallyHidden>
              </Button>
              <Button
                size="compact-sm"
                variant="subtle"
                loading={open.isPending && open.variables.kind === 'new-version'}
                onClick={() => openDraft('new-version')}
              >
                {t('dashboard.newVersion')}
                <VisuallyHidden>: {title}</VisuallyHidden>
              </Button>
            </>
          )}
        </Group>
        {open.isError && (
          <Text size="xs" c="red" role="alert">
            {serverMessageOf(open.error) ?? t('dashboard.actionFailed')}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

function StatusLabel({ upload }: { upload: RecordJson }) {
  const { t } = useTranslation();
  const status = upload.status ?? (upload.is_draft ? 'draft' : 'published');
  // Literal keys: a `t` passed as a parameter, or a computed union of keys, is too deep for
  // i18next's types over the full resources.
  const labels: Record<string, string> = {
    draft: t('dashboard.status.draft'),
    new_version_draft: t('dashboard.status.new_version_draft'),
    draft_with_review: t('dashboard.status.draft_with_review'),
    new_version_draft_with_review: t('dashboard.status.new_version_draft_with_review'),
    in_review: t('dashboard.status.in_review'),
    declined: t('dashboard.status.declined'),
    expired: t('dashboard.status.expired'),
    published: t('dashboard.status.published'),
  };
  return labels[status] ?? status;
}
