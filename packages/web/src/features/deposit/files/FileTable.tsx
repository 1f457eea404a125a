import {
  Anchor,
  Button,
  Group,
  Progress,
  Radio,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { toRequestPath } from '../../../api/client';
import { formatBytes } from '../../../lib/format-bytes';
import type { FileEntry } from './uploader-state';
import { UploadResumeStatus } from './UploadResumeStatus';

export interface FileTableProps {
  entries: readonly FileEntry[];
  /** Files of a published record: no actions, no preview choice. */
  locked: boolean;
  defaultPreview: string | undefined;
  onPreviewChange: (key: string | undefined) => void;
  onDelete: (entry: FileEntry) => void;
  onCancel: (entry: FileEntry) => void;
}

/** The file table, as InvenioRDM's: preview choice, name with MD5, size, progress, actions. */
export function FileTable({
  entries,
  locked,
  defaultPreview,
  onPreviewChange,
  onDelete,
  onCancel,
}: FileTableProps) {
  const { t, i18n } = useTranslation();
  if (entries.length === 0) return <Text c="dimmed">{t('uploader.table.empty')}</Text>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing="xs">
        <Table.Caption>{t('uploader.table.caption')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Tooltip label={t('uploader.table.previewHelp')} multiline w={240}>
                <span tabIndex={0}>{t('uploader.table.preview')}</span>
              </Tooltip>
            </Table.Th>
            <Table.Th>{t('uploader.table.filename')}</Table.Th>
            <Table.Th>{t('uploader.table.size')}</Table.Th>
            <Table.Th>{t('uploader.table.progress')}</Table.Th>
            {!locked && (
              <Table.Th>
                <VisuallyHidden>{t('uploader.table.actions')}</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => {
            const completed = entry.status === 'completed';
            const selected = defaultPreview === entry.key;
            return (
              <Table.Tr key={entry.key}>
                <Table.Td>
                  <Radio
                    name="files-default-preview"
                    aria-label={t('uploader.table.previewFile', { filename: entry.key })}
                    checked={selected}
                    disabled={locked || !completed}
                    onChange={() => onPreviewChange(entry.key)}
                    // Choosing the chosen file again clears the choice, as in InvenioRDM.
                    onClick={() => {
                      if (selected) onPreviewChange(undefined);
                    }}
                  />
                </Table.Td>
                <Table.Td>
                  <Stack gap={2}>
                    {entry.error && (
                      <Text size="sm" c="red.8" role="status">
                        {entry.error}
                      </Text>
                    )}
                    {completed && entry.links.content ? (
                      <Anchor href={toRequestPath(entry.links.content)} target="_blank">
                        {entry.key}
                      </Anchor>
                    ) : (
                      <Text>{entry.key}</Text>
                    )}
                    {entry.checksum ? (
                      <Tooltip label={t('uploader.table.checksumHelp')} multiline w={280}>
                        <Text size="xs" c="dimmed" tabIndex={0} ff="monospace">
                          {t('uploader.table.checksum', {
                            checksum: entry.checksum.replace(/^md5:/, ''),
                          })}
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
                </Table.Td>
                <Table.Td>
                  {entry.size > 0
                    ? formatBytes(entry.size, i18n.language)
                    : t('uploader.table.sizeUnknown')}
                </Table.Td>
                <Table.Td miw={140}>
                  {entry.status === 'pending' ? (
                    <Text size="sm">{t('uploader.table.pending')}</Text>
                  ) : (
                    <Group gap="xs" wrap="nowrap">
                      <Progress
                        value={entry.percent}
                        color={entry.status === 'failed' ? 'red' : undefined}
                        aria-label={t('uploader.table.progressLabel', { filename: entry.key })}
                        flex={1}
                      />
                      <Text size="sm">
                        {entry.status === 'failed'
                          ? t('uploader.table.failed')
                          : `${entry.percent}%`}
                      </Text>
                    </Group>
                  )}
                </Table.Td>
                {!locked && (
                  <Table.Td>
                    {entry.status === 'uploading' ||
                    (entry.status === 'pending' && !entry.interrupted) ? (
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
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
