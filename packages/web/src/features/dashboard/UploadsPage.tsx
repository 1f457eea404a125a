import { Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { serverMessageOf } from '../../api/client';
import type { RecordJson } from '../../api/records';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { useUserRecords } from './api';

const STATUS_KEYS = {
  draft: 'dashboard.status.draft',
  new_version_draft: 'dashboard.status.new_version_draft',
  draft_with_review: 'dashboard.status.draft_with_review',
  new_version_draft_with_review: 'dashboard.status.new_version_draft_with_review',
  in_review: 'dashboard.status.in_review',
  declined: 'dashboard.status.declined',
  expired: 'dashboard.status.expired',
  published: 'dashboard.status.published',
} as const;

/** `/me/uploads`: the person's drafts and records. */
export function UploadsPage() {
  const { t } = useTranslation();
  const uploads = useUserRecords();

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{t('dashboard.title')}</Title>
        <Button component={Link} to="/uploads/new">
          {t('dashboard.newUpload')}
        </Button>
      </Group>
      {uploads.isPending ? (
        <PageLoader label={t('app.loading')} />
      ) : uploads.isError ? (
        <ErrorNotice title={t('dashboard.loadFailed')} message={serverMessageOf(uploads.error)} />
      ) : uploads.data.hits.hits.length === 0 ? (
        <Text>{t('dashboard.empty')}</Text>
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('dashboard.columnTitle')}</Table.Th>
              <Table.Th>{t('dashboard.columnStatus')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {uploads.data.hits.hits.map((upload) => (
              <Table.Tr key={upload.id}>
                <Table.Td>
                  <Anchor component={Link} to={uploadPath(upload)}>
                    {upload.metadata.title ?? t('dashboard.untitled')}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={upload.is_draft ? 'gray' : 'green'}>
                    {statusLabel(upload, t)}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/** Drafts open in the deposit form, published records on their landing page. */
function uploadPath(upload: RecordJson): string {
  const id = encodeURIComponent(upload.id);
  return upload.is_draft ? `/uploads/${id}` : `/records/${id}`;
}

function statusLabel(upload: RecordJson, t: ReturnType<typeof useTranslation>['t']): string {
  const status = upload.status ?? (upload.is_draft ? 'draft' : 'published');
  return status in STATUS_KEYS ? t(STATUS_KEYS[status as keyof typeof STATUS_KEYS]) : status;
}
