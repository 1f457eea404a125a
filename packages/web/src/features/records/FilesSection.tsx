import {
  Alert,
  Anchor,
  Button,
  Group,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBootstrap } from '../../bootstrap';
import { formatBytes } from '../../lib/format-bytes';
import { FilePreview, firstPreview, previewKind } from './FilePreview';
import { canReadFiles, type FileEntry, type LandingRecord } from '../shared/landing';
import { useApiClient } from '../../api/useApiClient';
import { FilesListSchema } from '@cairn/shared';
import { useQuery } from '@tanstack/react-query';
import { PagePagination } from '../../components/PagePagination';
import { AccessRequestForm } from './AccessRequestForm';

export const FILES_PAGE_SIZE = 25;

/** A file's content link, keeping `/` in keys as path separators (the API resolves them). */
export function contentUrl(record: LandingRecord, key: string): string {
  const path = key.split('/').map(encodeURIComponent).join('/');
  const bucket = record.isDraft ? 'draft/files' : 'files';
  return `/api/records/${encodeURIComponent(record.id)}/${bucket}/${path}/content`;
}

/**
 * The files table, a page at a time (a record may hold thousands), with download links, decimal
 * sizes and a preview for images, PDFs, CSV/TSV, text and Markdown. Restricted or embargoed
 * files are not listed to readers who may not open them: they learn only that files exist.
 */
export function FilesSection({ record }: { record: LandingRecord }) {
  const { t, i18n } = useTranslation();
  const { user, link, grant } = useBootstrap();
  const [page, setPage] = useState(1);
  const { files, access } = record;
  const readable = files.enabled && canReadFiles(record, user, link, grant);
  const listed = useListedPage(record, page, readable && files.entriesOmitted);
  const entries = files.entriesOmitted
    ? (listed.data ?? [])
    : files.entries.slice((page - 1) * FILES_PAGE_SIZE, page * FILES_PAGE_SIZE);
  const [chosenPreview, setPreviewKey] = useState<string | undefined>(
    () => firstPreview(files.entries, files.defaultPreview)?.key,
  );
  // A record whose entries are not embedded previews the first worth showing on the first page.
  const previewKey =
    chosenPreview ??
    (files.entriesOmitted && page === 1
      ? firstPreview(entries, files.defaultPreview)?.key
      : undefined);

  if (!files.enabled) {
    return (
      <Section>
        <Text>{t('records.metadataOnly')}</Text>
      </Section>
    );
  }
  if (!readable) {
    const embargo = access.embargo?.active ? access.embargo : undefined;
    return (
      <Section>
        <Alert
          color={embargo ? 'yellow' : 'gray'}
          variant="light"
          title={embargo ? t('records.filesEmbargoed') : t('records.filesRestricted')}
        >
          {embargo?.until && (
            <Text size="sm">{t('records.embargoUntil', { date: embargo.until })}</Text>
          )}
          {embargo?.reason && (
            <Text size="sm">{t('records.embargoReason', { reason: embargo.reason })}</Text>
          )}
          {!embargo && <Text size="sm">{t('records.filesRestrictedText')}</Text>}
        </Alert>
        <AccessRequestForm record={record} />
      </Section>
    );
  }

  const pages = Math.max(
    1,
    Math.ceil((files.entriesOmitted ? files.count : files.entries.length) / FILES_PAGE_SIZE),
  );
  const visible = entries;
  const previewed =
    files.entries.find((f) => f.key === previewKey) ?? entries.find((f) => f.key === previewKey);
  const previewedKind = previewed && previewKind(previewed);
  const archive = record.isDraft
    ? undefined
    : `/api/records/${encodeURIComponent(record.id)}/files-archive`;

  return (
    <Section>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('records.filesSummary', {
            count: files.count,
            size: formatBytes(files.totalBytes, i18n.language),
          })}
        </Text>
        {archive && files.count > 1 && (
          <Anchor href={archive} size="sm">
            {t('records.downloadAll')}
          </Anchor>
        )}
      </Group>
      {previewed && previewedKind && (
        <Stack gap="xs" aria-label={t('records.previewOf', { name: previewed.key })} role="region">
          <Text fw={500}>{previewed.key}</Text>
          <FilePreview
            key={previewed.key}
            file={previewed}
            url={contentUrl(record, previewed.key)}
            kind={previewedKind}
          />
        </Stack>
      )}
      <Table.ScrollContainer minWidth={480}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('records.fileName')}</Table.Th>
              <Table.Th>{t('records.fileSize')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('records.fileActions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {visible.map((file) => (
              <Table.Tr key={file.key}>
                <Table.Td>
                  <Anchor href={contentUrl(record, file.key)} download={file.key.split('/').pop()}>
                    {file.key}
                  </Anchor>
                  {file.checksum && (
                    <Text size="xs" c="dimmed">
                      {file.checksum}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {formatBytes(file.size ?? 0, i18n.language)}
                </Table.Td>
                <Table.Td>
                  {previewKind(file) && (
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      aria-pressed={file.key === previewKey}
                      aria-label={t('records.previewOf', { name: file.key })}
                      onClick={() => setPreviewKey(file.key)}
                    >
                      {t('records.preview')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <PagePagination total={pages} value={page} onChange={setPage} />
    </Section>
  );
}

function Section({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Stack component="section" aria-labelledby="record-files" gap="sm">
      <Title order={2} size="h3" id="record-files">
        {t('records.files')}
      </Title>
      {children}
    </Stack>
  );
}

/**
 * A page of the files listing (`?page=&size=`, Cairn's extension), for a record whose JSON
 * leaves its entries out: it may hold thousands, and the table shows 25 at a time.
 */
function useListedPage(record: LandingRecord, page: number, enabled: boolean) {
  const client = useApiClient();
  const bucket = record.isDraft ? 'draft/files' : 'files';
  return useQuery({
    queryKey: ['records', record.id, bucket, page] as const,
    queryFn: async (): Promise<FileEntry[]> => {
      const url = `/api/records/${encodeURIComponent(record.id)}/${bucket}?page=${page}&size=${FILES_PAGE_SIZE}`;
      const list = FilesListSchema.parse(await client.get(url));
      return (list.entries ?? []).map((e) => ({
        key: e.key,
        status: e.status,
        ...(e.size === undefined ? {} : { size: e.size }),
        ...(e.mimetype === undefined ? {} : { mimetype: e.mimetype }),
        ...(e.checksum === undefined ? {} : { checksum: e.checksum }),
      }));
    },
    enabled,
    staleTime: Infinity,
  });
}
