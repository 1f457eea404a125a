import { Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../../lib/format-bytes';
import type { FileEntry } from './uploader-state';

/**
 * What a row says of an unfinished upload: how many bytes are already safe on the server, and
 * for an interrupted one how it resumes (the banner's button where the browser kept the file's
 * handle, else exactly which file to choose again).
 */
export function UploadResumeStatus({ entry }: { entry: FileEntry }) {
  const { t, i18n } = useTranslation();
  const size = (bytes: number) => formatBytes(bytes, i18n.language);
  const lines = resumeStatusLines(entry);
  return (
    <>
      {lines.safe && (
        <Text size="xs" c="dimmed" truncate>
          {t('uploader.table.safe', { safe: size(entry.safeBytes!), size: size(entry.size) })}
        </Text>
      )}
      {lines.interrupted && (
        // Two lines at most: the file table's rows have fixed heights (resumeStatusLines).
        <Text size="xs" c="dimmed" lineClamp={INTERRUPTED_MAX_LINES}>
          {interruptedText(entry, t, size)}
        </Text>
      )}
    </>
  );
}

/** The note of how to resume wraps to this many lines at most (a long path to choose again). */
export const INTERRUPTED_MAX_LINES = 2;

/** Which of its lines the status shows, for a table whose rows have fixed heights. */
export function resumeStatusLines(entry: FileEntry): { safe: boolean; interrupted: boolean } {
  const unfinished =
    entry.status !== 'completed' &&
    (entry.interrupted || entry.status === 'uploading' || entry.status === 'pending');
  return {
    safe: unfinished && entry.safeBytes !== undefined && entry.size > 0,
    interrupted: unfinished && Boolean(entry.interrupted),
  };
}

function interruptedText(entry: FileEntry, t: TFunction, size: (bytes: number) => string): string {
  if (entry.reopenable) return t('uploader.table.interruptedReopen');
  if (entry.size <= 0) return t('uploader.table.interrupted');
  const slash = entry.key.indexOf('/');
  if (slash > 0)
    return t('uploader.table.interruptedPickInFolder', {
      folder: entry.key.slice(0, slash),
      name: entry.key,
      size: size(entry.size),
    });
  return t('uploader.table.interruptedPick', { name: entry.key, size: size(entry.size) });
}
