import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface DeleteConfirmModalProps {
  opened: boolean;
  onClose: () => void;
  onConfirm: () => void;
  /** The action, as on its button: the dialog's title and its confirming button. */
  label: string;
  question: string;
  color: string;
}

/** "Are you sure…" before a draft is deleted or discarded, worded for each kind. */
export function DeleteConfirmModal({
  opened,
  onClose,
  onConfirm,
  label,
  question,
  color,
}: DeleteConfirmModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={label}>
      <Stack>
        <Text>{question}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('deposit.dialogs.cancel')}
          </Button>
          <Button
            color={color}
            onClick={() => {
              onClose();
              onConfirm();
            }}
          >
            {label}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
