import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { JournalEntry } from './draft-journal';

export interface RestoreEditsBannerProps {
  entry: JournalEntry | null;
  onRestore: () => void;
  onDiscard: () => void;
}

/** Offers back edits the server never got (after a crash, a reload or an expired session). */
export function RestoreEditsBanner({ entry, onRestore, onDiscard }: RestoreEditsBannerProps) {
  const { t, i18n } = useTranslation();
  if (!entry) return null;
  const when = new Date(entry.writtenAt).toLocaleString(i18n.language);
  return (
    <Alert color="blue" variant="light" role="status" title={t('deposit.journal.title')}>
      <Text size="sm">{t('deposit.journal.message', { when })}</Text>
      <Group mt="sm">
        <Button size="xs" onClick={onRestore}>
          {t('deposit.journal.restore')}
        </Button>
        <Button size="xs" variant="default" onClick={onDiscard}>
          {t('deposit.journal.discard')}
        </Button>
      </Group>
    </Alert>
  );
}
