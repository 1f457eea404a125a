import { Alert, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { assertUniqueCheckboxIds, type ExtraCheckbox } from './publish-checkboxes';

export type { ExtraCheckbox } from './publish-checkboxes';

export interface PublishModalProps {
  opened: boolean;
  onClose: () => void;
  onPublish: () => void;
  onPreview: () => void;
  extraCheckboxes?: readonly ExtraCheckbox[];
  /** Instance text shown under the warning (plain text). */
  extraText?: string;
}

/**
 * "Are you sure you want to publish this record?" with the instance's extra checkboxes, each of
 * which must be ticked ("You must accept this"). Validates on submit only, like every dialog of the
 * form.
 */
export function PublishModal({
  opened,
  onClose,
  onPublish,
  onPreview,
  extraCheckboxes = [],
  extraText,
}: PublishModalProps) {
  const { t } = useTranslation();
  assertUniqueCheckboxIds(extraCheckboxes);
  const [checked, setChecked] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);

  function handlePublish() {
    setSubmitted(true);
    if (extraCheckboxes.every(({ id }) => checked[id])) onPublish();
  }

  function handleClose() {
    setChecked({});
    setSubmitted(false);
    onClose();
  }

  return (
    <Modal opened={opened} onClose={handleClose} title={t('deposit.publishModal.title')} size="lg">
      <Stack>
        <Alert color="yellow" variant="light">
          {t('deposit.publishModal.warning')}
        </Alert>
        {extraText && <Text size="sm">{extraText}</Text>}
        {extraCheckboxes.map(({ id, label }) => (
          <Checkbox
            key={id}
            id={`publish-extra-${id}`}
            label={label}
            checked={checked[id] ?? false}
            onChange={(event) => {
              const value = event.currentTarget.checked;
              setChecked((current) => ({ ...current, [id]: value }));
            }}
            error={submitted && !checked[id] ? t('deposit.dialogs.mustAccept') : undefined}
          />
        ))}
        <Group justify="flex-end">
          <Button variant="default" onClick={handleClose}>
            {t('deposit.dialogs.cancel')}
          </Button>
          <Button variant="default" onClick={onPreview}>
            {t('deposit.actions.preview')}
          </Button>
          <Button onClick={handlePublish}>{t('deposit.actions.publish')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
