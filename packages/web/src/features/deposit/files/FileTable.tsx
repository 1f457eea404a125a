import {
  Anchor,
  Button,
  Group,
  Modal,
  Progress,
  Radio,
  Stack,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toRequestPath } from '../../../api/client';
import { formatBytes } from '../../../lib/format-bytes';
import {
  fileCount,
  filesUnder,
  prefixSums,
  sumOf,
  type TreeFolder,
  type TreeRow,
} from '../../shared/file-tree/file-tree';
import { FileTreeFilter, FileTreeTable, useFileTree } from '../../shared/file-tree/FileTreeTable';
import { isInFlight, type FileEntry } from './uploader-state';
import { INTERRUPTED_MAX_LINES, resumeStatusLines, UploadResumeStatus } from './UploadResumeStatus';

/** Files shown before the filter is offered: below it, the tree is read at a glance. */
const FILTER_FROM = 10;
/** A row's height: the name and its checksum line, or the progress and its status line. */
const ROW_HEIGHT = 60;
/** Added for an error (two lines at most) and for each line of an unfinished upload's status. */
const ERROR_LINES = 36;
const NOTE_LINE = 20;

export interface FileTableProps {
  entries: readonly FileEntry[];
  /** Files of a published record: no actions, no preview choice. */
  locked: boolean;
  defaultPreview: string | undefined;
  onPreviewChange: (key: string | undefined) => void;
  onDelete: (entry: FileEntry) => void;
  onCancel: (entry: FileEntry) => void;
  /** Every file under a folder, once the person confirmed: cancelled or deleted each. */
  onRemoveFolder: (entries: FileEntry[]) => void;
}

function fileRowHeight(entry: FileEntry): number {
  const status = resumeStatusLines(entry);
  return (
    ROW_HEIGHT +
    (entry.error ? ERROR_LINES : 0) +
    (status.safe ? NOTE_LINE : 0) +
    (status.interrupted ? NOTE_LINE * INTERRUPTED_MAX_LINES : 0)
  );
}

/** Bytes of the file on the server so far, as far as its progress tells. */
function sentBytes(entry: FileEntry): number {
  return entry.status === 'completed' ? entry.size : (entry.size * entry.percent) / 100;
}

/**
 * The uploader's table, as InvenioRDM's (preview choice, name with MD5, size, progress,
 * actions), with the files in their folders: each folder shows its count, size and the progress
 * of all its files, and can be removed whole. Virtualised (FileTreeTable), so a folder of
 * 10,000 files is as quick to show as one of ten.
 */
export function FileTable({
  entries,
  locked,
  defaultPreview,
  onPreviewChange,
  onDelete,
  onCancel,
  onRemoveFolder,
}: FileTableProps) {
  const { t, i18n } = useTranslation();
  const { tree, rows, toggle, filter, setFilter, types } = useFileTree(entries);
  const [removing, setRemoving] = useState<TreeFolder | null>(null);
  const totals = useMemo(
    () => ({
      sizes: prefixSums(tree, (i) => entries[i]!.size),
      sent: prefixSums(tree, (i) => sentBytes(entries[i]!)),
      failed: prefixSums(tree, (i) => (entries[i]!.status === 'failed' ? 1 : 0)),
    }),
    [tree, entries],
  );
  const rowHeight = useCallback(
    (row: TreeRow) => (row.kind === 'folder' ? ROW_HEIGHT : fileRowHeight(entries[row.index]!)),
    [entries],
  );
  const size = (bytes: number) => formatBytes(bytes, i18n.language);

  if (entries.length === 0) return <Text c="dimmed">{t('uploader.table.empty')}</Text>;
  return (
    <Stack gap="xs">
      {entries.length >= FILTER_FROM && (
        <FileTreeFilter filter={filter} onChange={setFilter} types={types} />
      )}
      <div style={{ overflowX: 'auto' }}>
        <div style={{ minWidth: 640 }}>
          <FileTreeTable
            label={t('uploader.table.caption')}
            rows={rows}
            onToggle={toggle}
            rowHeight={rowHeight}
            empty={t('fileTree.noMatches')}
            columns={[
              { header: t('uploader.table.filename'), width: 'minmax(12rem, 1fr)' },
              {
                header: (
                  <Tooltip label={t('uploader.table.previewHelp')} multiline w={240}>
                    <span tabIndex={0}>{t('uploader.table.preview')}</span>
                  </Tooltip>
                ),
                width: '5.5rem',
              },
              { header: t('uploader.table.size'), width: '6.5rem' },
              { header: t('uploader.table.progress'), width: '11rem' },
              ...(locked
                ? []
                : [
                    {
                      header: <VisuallyHidden>{t('uploader.table.actions')}</VisuallyHidden>,
                      width: '8.5rem',
                    },
                  ]),
            ]}
            folderCells={(folder) => {
              const total = sumOf(totals.sizes, folder);
              const percent =
                total > 0 ? Math.floor((sumOf(totals.sent, folder) * 100) / total) : 0;
              const failed = sumOf(totals.failed, folder);
              return [
                null,
                <Text key="size" size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {size(total)}
                </Text>,
                <Stack key="progress" gap={2}>
                  <Group gap="xs" wrap="nowrap">
                    <Progress
                      value={percent}
                      color={failed > 0 ? 'red' : undefined}
                      aria-label={t('uploader.table.folderProgressLabel', { path: folder.path })}
                      flex={1}
                    />
                    <Text size="sm">{`${percent}%`}</Text>
                  </Group>
                  {failed > 0 && (
                    <Text size="xs" c="red.8">
                      {t('uploader.table.folderFailed', { count: failed })}
                    </Text>
                  )}
                </Stack>,
                ...(locked
                  ? []
                  : [
                      <Button
                        key="remove"
                        size="xs"
                        variant="subtle"
                        color="red"
                        aria-label={t('uploader.table.removeFolderOf', { path: folder.path })}
                        onClick={() => setRemoving(folder)}
                      >
                        {t('uploader.table.removeFolder')}
                      </Button>,
                    ]),
              ];
            }}
            fileName={(row) => <FileName entry={entries[row.index]!} name={row.name} />}
            fileCells={(row) => {
              const entry = entries[row.index]!;
              const selected = defaultPreview === entry.key;
              return [
                <Radio
                  key="preview"
                  name="files-default-preview"
                  aria-label={t('uploader.table.previewFile', { filename: entry.key })}
                  checked={selected}
                  disabled={locked || entry.status !== 'completed'}
                  onChange={() => onPreviewChange(entry.key)}
                  // Choosing the chosen file again clears the choice, as in InvenioRDM.
                  onClick={() => {
                    if (selected) onPreviewChange(undefined);
                  }}
                />,
                <Text key="size" size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {entry.size > 0 ? size(entry.size) : t('uploader.table.sizeUnknown')}
                </Text>,
                <FileStatusCell key="status" entry={entry} />,
                ...(locked
                  ? []
                  : [
                      <FileActions
                        key="actions"
                        entry={entry}
                        onCancel={onCancel}
                        onDelete={onDelete}
                      />,
                    ]),
              ];
            }}
          />
        </div>
      </div>
      <Modal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={removing ? t('uploader.table.removeFolderTitle', { path: removing.path }) : ''}
      >
        {removing && (
          <Stack>
            <Text>{t('uploader.table.removeFolderText', { count: fileCount(removing) })}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setRemoving(null)}>
                {t('uploader.table.keepFolder')}
              </Button>
              <Button
                color="red"
                onClick={() => {
                  onRemoveFolder(filesUnder(tree, removing).map((i) => entries[i]!));
                  setRemoving(null);
                }}
              >
                {t('uploader.table.removeFolderConfirm')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}

/** A file's name (its download link once complete), checksum, error and interruption. */
function FileName({ entry, name }: { entry: FileEntry; name: string }) {
  const { t } = useTranslation();
  const completed = entry.status === 'completed';
  // The whole path names the file where its folder row is out of view.
  const label = name === entry.key ? {} : { 'aria-label': entry.key };
  return (
    <Stack gap={0} style={{ minWidth: 0 }}>
      {entry.error && (
        <Text size="sm" c="red.8" role="status" lineClamp={2}>
          {entry.error}
        </Text>
      )}
      {completed && entry.links.content ? (
        <Anchor href={toRequestPath(entry.links.content)} target="_blank" truncate {...label}>
          {name}
        </Anchor>
      ) : (
        <Text truncate {...label}>
          {name}
        </Text>
      )}
      {entry.checksum ? (
        <Tooltip label={t('uploader.table.checksumHelp')} multiline w={280}>
          <Text size="xs" c="dimmed" tabIndex={0} ff="monospace" truncate>
            {t('uploader.table.checksum', { checksum: entry.checksum.replace(/^md5:/, '') })}
          </Text>
        </Tooltip>
      ) : (
        completed && (
          <Text size="xs" c="dimmed">
            {t('uploader.table.checksumPending')}
          </Text>
        )
      )}
      <UploadResumeStatus entry={entry} />
    </Stack>
  );
}

/**
 * A file's upload status: waiting, or its progress bar with the percentage or the failure. The
 * one place that tells how far a file's upload is.
 */
function FileStatusCell({ entry }: { entry: FileEntry }) {
  const { t } = useTranslation();
  if (entry.status === 'pending') return <Text size="sm">{t('uploader.table.pending')}</Text>;
  return (
    <Group gap="xs" wrap="nowrap">
      <Progress
        value={entry.percent}
        color={entry.status === 'failed' ? 'red' : undefined}
        aria-label={t('uploader.table.progressLabel', { filename: entry.key })}
        flex={1}
      />
      <Text size="sm">
        {entry.status === 'failed' ? t('uploader.table.failed') : `${entry.percent}%`}
      </Text>
    </Group>
  );
}

/** Cancel while the file is being sent (or waits its turn), delete once it is not. */
function FileActions({
  entry,
  onCancel,
  onDelete,
}: {
  entry: FileEntry;
  onCancel: (entry: FileEntry) => void;
  onDelete: (entry: FileEntry) => void;
}) {
  const { t } = useTranslation();
  return isInFlight(entry) ? (
    <Button
      size="xs"
      variant="default"
      aria-label={t('uploader.table.cancelFile', { filename: entry.key })}
      onClick={() => onCancel(entry)}
    >
      {t('uploader.table.cancel')}
    </Button>
  ) : (
    <Button
      size="xs"
      variant="subtle"
      color="red"
      loading={entry.deleting}
      aria-label={t('uploader.table.deleteFile', { filename: entry.key })}
      onClick={() => onDelete(entry)}
    >
      {t('uploader.table.delete')}
    </Button>
  );
}
