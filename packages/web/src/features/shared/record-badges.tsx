import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RecordJson } from '../../api/records';
import type { Bootstrap } from '../../bootstrap';
import { l10n, type VocabRef } from './landing';

const ACCESS_COLORS: Record<string, string> = {
  open: 'green',
  embargoed: 'yellow',
  restricted: 'red',
  'metadata-only': 'gray',
};

/** The record's access status ("Open", "Embargoed", …), coloured by how open it is. */
export function AccessBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={ACCESS_COLORS[status] ?? 'gray'}>
      {t(`records.access.${status}`, { defaultValue: status })}
    </Badge>
  );
}

/** A record's access status as the API reports it; a record that says nothing is open. */
export function accessStatusOf(record: RecordJson): string {
  const status = (record.access as { status?: unknown } | undefined)?.status;
  return typeof status === 'string' ? status : 'open';
}

/**
 * The record's resource type in the page's language: its own titles first, since `ui` is worded
 * in the site's default language whatever language the reader chose; then `ui`, the
 * vocabulary the page was served with, and the id.
 */
export function resourceTypeLabel(
  record: RecordJson,
  language: string,
  vocabularies: Bootstrap['vocabularies'],
): string | undefined {
  const type = record.metadata.resource_type as VocabRef | undefined;
  return (
    l10n(type?.title, language) ||
    record.ui?.resource_type?.title_l10n ||
    vocabularies.resourcetypes.find((entry) => entry.id === type?.id)?.title ||
    type?.id
  );
}
