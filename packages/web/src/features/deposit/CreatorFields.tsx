import { Fieldset, Group, Input, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { useFieldArray, useFormContext, useFormState, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { RadioGroupField } from '../../components/form/RadioGroupField';
import { TextField } from '../../components/form/TextField';
import type { DepositFormValues } from './serializer';

/**
 * The creators of the record, each a person (family and given names) or an organisation (one
 * name). Adding, removing and reordering creators come with the full creators widget.
 */
export function CreatorFields() {
  const { t } = useTranslation();
  const { control } = useFormContext<DepositFormValues>();
  const { fields } = useFieldArray({ control, name: 'metadata.creators' });
  const creators = useWatch({ control, name: 'metadata.creators' });
  const { errors } = useFormState({ control, name: 'metadata.creators' });
  // Errors on the list itself or on creator fields without an input (e.g. affiliations).
  const listError = errors.metadata?.creators?.message;
  const listErrorId = useId();
  const typeOptions = [
    { value: 'personal', label: t('deposit.fields.person') },
    { value: 'organizational', label: t('deposit.fields.organization') },
  ];

  return (
    <Fieldset
      legend={
        <Text component="span" size="sm" fw={500}>
          {t('deposit.fields.creators')}
        </Text>
      }
      variant="unstyled"
      aria-describedby={listError ? listErrorId : undefined}
    >
      <Stack gap="sm">
        {listError && <Input.Error id={listErrorId}>{listError}</Input.Error>}
        {fields.map((field, index) => {
          const prefix = `metadata.creators.${index}.person_or_org` as const;
          const isPerson = creators[index]?.person_or_org.type !== 'organizational';
          return (
            <Stack key={field.id} gap="sm">
              <RadioGroupField<DepositFormValues>
                name={`${prefix}.type`}
                label={t('deposit.fields.creatorType')}
                options={typeOptions}
              />
              {isPerson ? (
                <Group grow align="flex-start">
                  <TextField<DepositFormValues>
                    name={`${prefix}.family_name`}
                    label={t('deposit.fields.familyName')}
                    autoComplete="off"
                    required
                  />
                  <TextField<DepositFormValues>
                    name={`${prefix}.given_name`}
                    label={t('deposit.fields.givenNames')}
                    autoComplete="off"
                  />
                </Group>
              ) : (
                <TextField<DepositFormValues>
                  name={`${prefix}.name`}
                  label={t('deposit.fields.organizationName')}
                  autoComplete="off"
                  required
                />
              )}
            </Stack>
          );
        })}
      </Stack>
    </Fieldset>
  );
}
