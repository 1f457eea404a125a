import { Button, Fieldset, Group, Paper, Stack, Text } from '@mantine/core';
import type { DepositFormValues, FundingFormValues } from '@cairn/shared';
import { useState } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { pickLocalized, useItem, useLn } from './api';
import { FundingModal } from '../dialogs';
import { itemLabel } from './ItemSearchSelect';
import { ListRowActions } from './ListRowActions';

const EMPTY: FundingFormValues[] = [];

/** `metadata.funding`: funders and their awards, each shown as funder and award. */
export function FundingField() {
  const { t } = useTranslation();
  const { control } = useFormContext<DepositFormValues>();
  // RHF's own row keys: the entries' `id`s are vocabulary ids, not list keys.
  const { fields, append, remove, move } = useFieldArray({
    control,
    name: 'metadata.funding',
    keyName: 'key',
  });
  const funding = useWatch({ control, name: 'metadata.funding' }) ?? EMPTY;
  const [isOpen, setOpen] = useState(false);
  return (
    <Fieldset
      legend={
        <Text component="span" size="sm" fw={500}>
          {t('metadata.funding.legend')}
        </Text>
      }
      variant="unstyled"
    >
      <Stack gap="sm">
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {fields.map((field, index) => {
            const entry = funding[index];
            if (!entry) return null;
            return (
              <li key={field.key}>
                <FundingRow
                  entry={entry}
                  actions={
                    <ListRowActions
                      index={index}
                      count={fields.length}
                      rowLabel={t('metadata.funding.row', { n: index + 1 })}
                      onMove={move}
                      onRemove={remove}
                    />
                  }
                />
              </li>
            );
          })}
        </Stack>
        <div>
          <Button variant="light" size="xs" onClick={() => setOpen(true)}>
            {t('metadata.funding.add')}
          </Button>
        </div>
      </Stack>
      <FundingModal opened={isOpen} onClose={() => setOpen(false)} onSubmit={append} />
    </Fieldset>
  );
}

function FundingRow({ entry, actions }: { entry: FundingFormValues; actions: React.ReactNode }) {
  const ln = useLn();
  // An entry loaded with only its ids is named by looking the ids up.
  const funder = useItem('funders', entry.funder.name ? undefined : entry.funder.id);
  const award = useItem(
    'awards',
    entry.award.title || !entry.award.id ? undefined : entry.award.id,
  );
  const funderName =
    entry.funder.name ?? (funder.data ? itemLabel(funder.data, ln) : entry.funder.id);
  const awardTitle = entry.award.title ?? pickLocalized(award.data?.title, ln);
  const awardText = [
    [entry.award.acronym, awardTitle].filter(Boolean).join(' — '),
    entry.award.number ? `(${entry.award.number})` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <Paper withBorder p="sm" radius="sm">
      <Group justify="space-between" wrap="nowrap">
        <div>
          <Text fw={500}>{funderName}</Text>
          {awardText && <Text size="sm">{awardText}</Text>}
          {entry.award.url && (
            <Text size="sm" c="dimmed">
              {entry.award.url}
            </Text>
          )}
        </div>
        {actions}
      </Group>
    </Paper>
  );
}
