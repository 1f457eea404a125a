import { Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { CustomLicenseFormSchema, type RightsFormValues } from '@cairn/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ruleMessages } from '../rule-resolver';

export interface CustomLicenseModalProps {
  opened: boolean;
  /** The custom licence being changed; absent adds a new one. */
  initial?: RightsFormValues | undefined;
  onClose: () => void;
  onSubmit: (license: RightsFormValues) => void;
}

/** Messages under the inputs, by the schema's field names. */
interface Errors {
  title?: string;
  link?: string;
}

/**
 * A licence of the person's own: title (required), description and link (a URL). Checked when
 * submitted only, by shared's `CustomLicenseFormSchema` with its messages. No <form>: the dialog
 * sits inside the deposit form, and a nested form would submit that one.
 */
export function CustomLicenseModal({
  opened,
  initial,
  onClose,
  onSubmit,
}: CustomLicenseModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={
        initial ? t('metadata.licenses.changeCustomTitle') : t('metadata.licenses.customTitle')
      }
      size="lg"
    >
      {/* Mounted per opening, so a cancelled edit leaves nothing behind. */}
      {opened && <CustomLicenseForm initial={initial} onClose={onClose} onSubmit={onSubmit} />}
    </Modal>
  );
}

function CustomLicenseForm({
  initial,
  onClose,
  onSubmit,
}: Omit<CustomLicenseModalProps, 'opened'>) {
  const { t } = useTranslation();
  const [title, setTitle] = useState(initial?.title ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [link, setLink] = useState(initial?.link ?? '');
  // Checked on submit first (a dialog is checked as a whole), then again on every change, so a corrected value loses
  // its message as it is typed instead of at the next submit.
  const [submitted, setSubmitted] = useState(false);
  const errors: Errors = submitted
    ? ruleMessages(CustomLicenseFormSchema, { title, description, link }, t)
    : {};

  function handleSubmit() {
    setSubmitted(true);
    const found = ruleMessages(CustomLicenseFormSchema, { title, description, link }, t);
    if (Object.keys(found).length > 0) return;
    onSubmit({
      title: title.trim(),
      ...(description.trim() ? { description: description.trim() } : {}),
      ...(link.trim() ? { link: link.trim() } : {}),
    });
    onClose();
  }

  return (
    <Stack
      onKeyDown={(event) => {
        if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
          event.preventDefault();
          handleSubmit();
        }
      }}
    >
      <TextInput
        label={t('metadata.licenses.customName')}
        value={title}
        onChange={(event) => setTitle(event.currentTarget.value)}
        error={errors.title}
        required
        data-autofocus
      />
      <Textarea
        label={t('metadata.licenses.customDescription')}
        value={description}
        onChange={(event) => setDescription(event.currentTarget.value)}
        rows={3}
      />
      <TextInput
        label={t('metadata.licenses.customLink')}
        value={link}
        onChange={(event) => setLink(event.currentTarget.value)}
        error={errors.link}
        placeholder="https://"
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('metadata.cancel')}
        </Button>
        <Button onClick={handleSubmit}>
          {initial ? t('metadata.licenses.change') : t('metadata.licenses.submit')}
        </Button>
      </Group>
    </Stack>
  );
}
