import { Button, Divider, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { FundingFormSchema, type FundingFormValues } from '@cairn/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ItemHit } from './api';
import { ItemSearchSelect } from './ItemSearchSelect';
import { ruleMessages } from '../rule-resolver';

export interface FundingModalProps {
  opened: boolean;
  onClose: () => void;
  onSubmit: (funding: FundingFormValues) => void;
}

/** The dialog's inputs that messages are shown under. */
interface Errors {
  funder?: string;
  url?: string;
}

/** Shows a problem of the funding entry under the input it came from. */
function fieldOf(path: readonly PropertyKey[]): keyof Errors | undefined {
  if (path[0] === 'funder') return 'funder';
  if (path[0] === 'award' && path[1] === 'url') return 'url';
  return undefined;
}

/**
 * Adds one funding entry: a funder from `/api/funders`, then an award of that funder from
 * `/api/awards?funders=…` or one described by number, title and URL. Checked on submit only, like
 * every dialog of the form, by shared's `FundingFormSchema`, with InvenioRDM's messages.
 */
export function FundingModal({ opened, onClose, onSubmit }: FundingModalProps) {
  const { t } = useTranslation();
  const [funder, setFunder] = useState<ItemHit | null>(null);
  const [award, setAward] = useState<ItemHit | null>(null);
  const [custom, setCustom] = useState({ number: '', title: '', url: '' });
  // Checked on submit first (a dialog is checked as a whole), then again on every change, so a corrected value loses
  // its message as it is typed instead of at the next submit.
  const [submitted, setSubmitted] = useState(false);

  function reset() {
    setFunder(null);
    setAward(null);
    setCustom({ number: '', title: '', url: '' });
    setSubmitted(false);
  }

  function close() {
    reset();
    onClose();
  }

  function currentEntry(): FundingFormValues {
    const number = custom.number.trim();
    const title = custom.title.trim();
    const url = custom.url.trim();
    return {
      funder: funder ? { id: funder.id, ...(funder.name ? { name: funder.name } : {}) } : {},
      award: award
        ? {
            id: award.id,
            ...(award.number ? { number: award.number } : {}),
            ...(award.acronym ? { acronym: award.acronym } : {}),
            ...(award.title ? { title: Object.values(award.title)[0] ?? '' } : {}),
          }
        : {
            ...(number ? { number } : {}),
            ...(title ? { title } : {}),
            ...(url ? { url } : {}),
          },
    };
  }

  const errors: Errors = submitted
    ? ruleMessages(FundingFormSchema, currentEntry(), t, fieldOf)
    : {};

  function handleSubmit() {
    const entry = currentEntry();
    setSubmitted(true);
    if (Object.keys(ruleMessages(FundingFormSchema, entry, t, fieldOf)).length > 0) return;
    onSubmit(entry);
    close();
  }

  return (
    <Modal opened={opened} onClose={close} title={t('metadata.funding.modalTitle')} size="lg">
      <Stack>
        <ItemSearchSelect
          type="funders"
          label={t('metadata.funding.funder')}
          value={funder}
          onChange={(hit) => {
            setFunder(hit);
            setAward(null);
          }}
          required
          {...(errors.funder ? { error: errors.funder } : {})}
        />
        <ItemSearchSelect
          type="awards"
          label={t('metadata.funding.award')}
          value={award}
          onChange={setAward}
          {...(funder ? { filters: { funders: funder.id } } : {})}
          browse={funder !== null}
          disabled={funder === null}
        />
        <Divider label={t('metadata.funding.orCustom')} labelPosition="center" />
        <Text size="sm" c="dimmed">
          {t('metadata.funding.customHelp')}
        </Text>
        <Group grow align="flex-start">
          <TextInput
            label={t('metadata.funding.number')}
            value={custom.number}
            disabled={award !== null}
            onChange={(event) => setCustom({ ...custom, number: event.currentTarget.value })}
          />
          <TextInput
            label={t('metadata.funding.title')}
            value={custom.title}
            disabled={award !== null}
            onChange={(event) => setCustom({ ...custom, title: event.currentTarget.value })}
          />
        </Group>
        <TextInput
          label={t('metadata.funding.url')}
          value={custom.url}
          disabled={award !== null}
          error={errors.url}
          onChange={(event) => setCustom({ ...custom, url: event.currentTarget.value })}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('metadata.cancel')}
          </Button>
          <Button onClick={handleSubmit}>{t('metadata.funding.submit')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
