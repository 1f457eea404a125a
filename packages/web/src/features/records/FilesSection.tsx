import {
  Alert,
  Anchor,
  Button,
  CopyButton,
  Group,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { serverMessageOf } from '../../api/client';
import { useApiClient } from '../../api/useApiClient';
import { useBootstrap } from '../../bootstrap';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { formatBytes } from '../../lib/format-bytes';
import { FilePreview, firstPreview, previewKind } from './FilePreview';
import { canReadFiles, type FileEntry, type LandingRecord } from '../shared/landing';
import { filesListingLink, readFilesListing } from '../shared/files-listing';
import { prefixSums, sumOf, type TreeRow } from '../shared/file-tree/file-tree';
import { FileTreeFilter, FileTreeTable, useFileTree } from '../shared/file-tree/FileTreeTable';
import { AccessRequestForm } from './AccessRequestForm';

/** A file table row's height; a revealed checksum adds a line. */
const ROW_HEIGHT = 44;
const CHECKSUM_LINE = 24;

/** A file's content link, keeping `/` in keys as path separators (the API resolves them). */
export function contentUrl(record: LandingRecord, key: string): string {
  const path = key.split('/').map(encodeURIComponent).join('/');
  return `${filesListingLink(record)}/${path}/content`;
}

/**
 * The files as a tree of folders (with counts, sizes and a zip of each), filtered by name and
 * type, virtualised so that a record of thousands reads as one of ten; download links, decimal
 * sizes, checksums on demand and a preview for images, PDFs, CSV/TSV, text, Markdown and
 * archives. Restricted or embargoed files are not listed to readers who may not open them:
 * they learn only that files exist.
 */
export function FilesSection({ record }: { record: LandingRecord }) {
  const { t } = useTranslation();
  const { user, link, grant } = useBootstrap();
  const { files, access } = record;
  const readable = files.enabled && canReadFiles(record, user, link, grant);
  const listed = useListedFiles(record, readable && files.entriesOmitted);

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
  if (files.entriesOmitted && !listed.data) {
    return (
      <Section>
        {listed.isError ? (
          <ErrorNotice title={t('records.filesFailed')} message={serverMessageOf(listed.error)} />
        ) : (
          <PageLoader label={t('app.loading')} />
        )}
      </Section>
    );
  }
  return (
    <Section>
      <FileTreeSection record={record} entries={listed.data ?? files.entries} />
    </Section>
  );
}

function FileTreeSection({ record, entries }: { record: LandingRecord; entries: FileEntry[] }) {
  const { t, i18n } = useTranslation();
  const { files } = record;
  const [previewKey, setPreviewKey] = useState<string | undefined>(
    () => firstPreview(entries, files.defaultPreview)?.key,
  );
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(() => new Set());
  const { tree, rows, toggle, filter, setFilter, types } = useFileTree(entries);
  const sizes = useMemo(() => prefixSums(tree, (i) => entries[i]?.size ?? 0), [tree, entries]);
  const previewed =
    previewKey === undefined ? undefined : entries.find((f) => f.key === previewKey);
  const previewedKind = previewed && previewKind(previewed);
  const archive = record.isDraft
    ? undefined
    : `/api/records/${encodeURIComponent(record.id)}/files-archive`;
  const size = (bytes: number) => formatBytes(bytes, i18n.language);
  const rowHeight = useCallback(
    (row: TreeRow) =>
      row.kind === 'file' && revealed.has(entries[row.index]!.key)
        ? ROW_HEIGHT + CHECKSUM_LINE
        : ROW_HEIGHT,
    [revealed, entries],
  );
  const reveal = (key: string) =>
    setRevealed((set) => {
      const next = new Set(set);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('records.filesSummary', { count: files.count, size: size(files.totalBytes) })}
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
      {entries.length > 1 && <FileTreeFilter filter={filter} onChange={setFilter} types={types} />}
      <div style={{ overflowX: 'auto' }}>
        <div style={{ minWidth: 520 }}>
          <FileTreeTable
            label={t('records.files')}
            rows={rows}
            onToggle={toggle}
            rowHeight={rowHeight}
            empty={t('fileTree.noMatches')}
            columns={[
              { header: t('records.fileName'), width: 'minmax(12rem, 1fr)' },
              { header: t('records.fileSize'), width: '7rem' },
              {
                header: <VisuallyHidden>{t('records.fileActions')}</VisuallyHidden>,
                width: 'minmax(11rem, auto)',
              },
            ]}
            folderCells={(folder) => [
              <Text key="size" size="sm" style={{ whiteSpace: 'nowrap' }}>
                {size(sumOf(sizes, folder))}
              </Text>,
              archive && (
                <Anchor
                  key="zip"
                  size="sm"
                  href={`${archive}?prefix=${folder.path.split('/').map(encodeURIComponent).join('/')}`}
                  aria-label={t('records.downloadFolderOf', { path: folder.path })}
                >
                  {t('records.downloadFolder')}
                </Anchor>
              ),
            ]}
            fileName={(row) => {
              const file = entries[row.index]!;
              return (
                <>
                  <Anchor
                    href={contentUrl(record, file.key)}
                    download={row.name}
                    {...(row.name === file.key ? {} : { 'aria-label': file.key })}
                    style={{ display: 'block' }}
                    truncate
                  >
                    {row.name}
                  </Anchor>
                  {file.checksum && revealed.has(file.key) && (
                    <Group gap={4} wrap="nowrap">
                      <Text size="xs" c="dimmed" ff="monospace" truncate>
                        {file.checksum}
                      </Text>
                      <CopyButton value={file.checksum.replace(/^md5:/, '')}>
                        {({ copied, copy }) => (
                          <Button
                            variant="subtle"
                            size="compact-xs"
                            onClick={copy}
                            aria-label={t('records.copyChecksumOf', { name: file.key })}
                          >
                            {copied ? t('records.copied') : t('records.copyChecksum')}
                          </Button>
                        )}
                      </CopyButton>
                    </Group>
                  )}
                </>
              );
            }}
            fileCells={(row) => {
              const file = entries[row.index]!;
              return [
                <Text key="size" size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {size(file.size ?? 0)}
                </Text>,
                <Group key="actions" gap={4} wrap="nowrap">
                  {file.checksum && (
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      aria-expanded={revealed.has(file.key)}
                      aria-label={t('records.checksumOf', { name: file.key })}
                      onClick={() => reveal(file.key)}
                    >
                      {t('records.checksum')}
                    </Button>
                  )}
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
                </Group>,
              ];
            }}
          />
        </div>
      </div>
    </>
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
 * Every file of a record whose JSON leaves its entries out (it may hold thousands): the tree
 * needs them all to count and size its folders, so the listing is read whole, a page of a
 * thousand at a time.
 */
function useListedFiles(record: LandingRecord, enabled: boolean) {
  const client = useApiClient();
  const bucket = record.isDraft ? 'draft/files' : 'files';
  return useQuery({
    // Under the record's key: a change to its sharing refreshes what the record's key holds.
    queryKey: ['records', record.id, bucket, 'all'] as const,
    queryFn: async (): Promise<FileEntry[]> => {
      const items = await readFilesListing(client, filesListingLink(record));
      return items
        .map((e) => ({
          key: e.key,
          status: e.status,
          ...(e.size === undefined ? {} : { size: e.size }),
          ...(e.mimetype === undefined ? {} : { mimetype: e.mimetype }),
          ...(e.checksum === undefined ? {} : { checksum: e.checksum }),
        }))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    enabled,
    staleTime: Infinity,
  });
}
