import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** What a version is called by: its `metadata.version`, and its place among the versions. */
export interface VersionedRecord {
  metadata?: Readonly<Record<string, unknown>>;
  versions?: { index?: number };
}

/**
 * How a version is named wherever it appears (landing page, versions list, dashboard): the
 * depositor's version when they gave one, else "Version N" from its place among the versions,
 * so that one record never shows "2.0" in one spot and "Version 2" in another.
 */
export function useVersionLabel(): (record: VersionedRecord) => string {
  const { t } = useTranslation();
  return useCallback(
    (record: VersionedRecord) => {
      const version = record.metadata?.['version'];
      if (typeof version === 'string' && version.trim() !== '') return version.trim();
      return t('records.versionN', { n: String(record.versions?.index ?? 1) });
    },
    [t],
  );
}
