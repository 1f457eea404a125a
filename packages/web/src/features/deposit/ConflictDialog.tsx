import { Button, Group, Modal, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { deserializeDraft, serializeDraft } from '@cairn/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { diffPayloads, savedByOf } from './conflict-diff';
import { useSerializerOptions } from './draft-values';
import type { SaveConflict } from './deposit-controller';

export interface ConflictDialogProps {
  conflict: SaveConflict | null;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}

/**
 * A save was refused because the draft changed elsewhere (HTTP 412; Cairn never loses an edit,
 * where InvenioRDM's last save silently wins): both versions side by side, field by field, and the
 * person chooses. Closing the dialog chooses nothing; the form keeps this tab's values.
 */
export function ConflictDialog({ conflict, onKeepMine, onTakeTheirs }: ConflictDialogProps) {
  const { t, i18n } = useTranslation();
  const options = useSerializerOptions();
  const differences = useMemo(() => {
    if (!conflict) return [];
    // The server's draft goes through the same serializer, so only real differences show.
    const theirs = serializeDraft(
      deserializeDraft(conflict.theirs, options).values,
      conflict.theirs,
      options,
    );
    return diffPayloads(conflict.mine, theirs);
  }, [conflict, options]);

  return (
    <Modal
      opened={conflict !== null}
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      title={t('deposit.conflict.title')}
      size="xl"
    >
      <Stack>
        <Text size="sm">{t('deposit.conflict.explanation')}</Text>
        {conflict && <SavedBy theirs={conflict.theirs} locale={i18n.language} />}
        {differences.length === 0 ? (
          <Text size="sm">{t('deposit.conflict.noDifference')}</Text>
        ) : (
          <ScrollArea.Autosize mah={360}>
            <Table striped withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('deposit.conflict.field')}</Table.Th>
                  <Table.Th scope="col">{t('deposit.conflict.mine')}</Table.Th>
                  <Table.Th scope="col">{t('deposit.conflict.theirs')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {differences.map((difference) => (
                  <Table.Tr key={difference.path}>
                    <Table.Th scope="row">
                      <code>{difference.path}</code>
                    </Table.Th>
                    <Table.Td>{difference.mine || '—'}</Table.Td>
                    <Table.Td>{difference.theirs || '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onTakeTheirs}>
            {t('deposit.conflict.takeTheirs')}
          </Button>
          <Button onClick={onKeepMine}>{t('deposit.conflict.keepMine')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** "Saved by Ada Lovelace at 14:02": whose save came first, as the server names them. */
function SavedBy({ theirs, locale }: { theirs: SaveConflict['theirs']; locale: string }) {
  const { t } = useTranslation();
  const { name, at } = savedByOf(theirs);
  if (!at) return null;
  const sameDay = at.toDateString() === new Date().toDateString();
  const time = new Intl.DateTimeFormat(
    locale,
    sameDay ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' },
  ).format(at);
  return (
    <Text size="sm" fw={600} data-testid="conflict-saved-by">
      {name
        ? t('deposit.conflict.savedBy', { name, time })
        : t('deposit.conflict.savedAt', { time })}
    </Text>
  );
}
