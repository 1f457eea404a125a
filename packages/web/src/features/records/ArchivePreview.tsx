import { Text } from '@mantine/core';
import type { ContainerEntryJson } from '@cairn/shared';
import { useTranslation } from 'react-i18next';
import { serverMessageOf } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { formatBytes } from '../../lib/format-bytes';
import { useContainerListing } from './api';
import type { FileEntry } from '../shared/landing';

/**
 * What a zip or tar file holds, as the server lists it: folders as disclosure widgets (native
 * `details`, so keyboard and screen readers work without script), files with their sizes. The
 * archive itself is never downloaded for this.
 */
export function ArchivePreview({ file, url }: { file: FileEntry; url: string }) {
  const { t, i18n } = useTranslation();
  const listing = useContainerListing(url);
  if (listing.isPending) return <PageLoader label={t('app.loading')} />;
  if (listing.isError)
    return (
      <ErrorNotice title={t('records.previewFailed')} message={serverMessageOf(listing.error)} />
    );
  const { entries, total, truncated } = listing.data;
  const shown = countFiles(entries);
  return (
    <div
      role="region"
      aria-label={t('records.previewOf', { name: file.key })}
      tabIndex={0}
      style={{ maxHeight: '32rem', overflow: 'auto' }}
    >
      <Text size="sm" c="dimmed" mb="xs">
        {truncated
          ? total === null
            ? t('records.archiveTruncatedUnknown', { count: shown })
            : t('records.archiveTruncated', { count: shown, total })
          : t('records.archiveSummary', { count: total ?? shown })}
      </Text>
      {entries.length === 0 ? (
        <Text size="sm">{t('records.archiveEmpty')}</Text>
      ) : (
        <EntryList entries={entries} locale={i18n.language} />
      )}
    </div>
  );
}

function EntryList({ entries, locale }: { entries: ContainerEntryJson[]; locale: string }) {
  const { t } = useTranslation();
  return (
    <ul style={{ listStyle: 'none', paddingInlineStart: '1.25rem', margin: 0 }}>
      {entries.map((entry) =>
        entry.type === 'directory' ? (
          <li key={`d:${entry.key}`}>
            <details>
              <summary>
                {entry.key}/{' '}
                <Text span size="sm" c="dimmed">
                  {t('records.archiveFolderCount', { count: entry.entries.length })}
                </Text>
              </summary>
              <EntryList entries={entry.entries} locale={locale} />
            </details>
          </li>
        ) : (
          <li key={`f:${entry.key}`}>
            {entry.key}{' '}
            <Text span size="sm" c="dimmed">
              {formatBytes(entry.size, locale)}
            </Text>
          </li>
        ),
      )}
    </ul>
  );
}

function countFiles(entries: ContainerEntryJson[]): number {
  return entries.reduce((n, e) => n + (e.type === 'directory' ? 1 + countFiles(e.entries) : 1), 0);
}
