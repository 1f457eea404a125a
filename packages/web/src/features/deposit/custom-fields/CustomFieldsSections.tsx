import { Button, Fieldset, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  CUSTOM_FIELD_GROUPS,
  type CustomFieldGroup,
  type CustomFieldKind,
  type DepositFormValues,
  type IdentifierFormValues,
} from '@cairn/shared';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/form/TextField';

export interface CustomFieldsSectionsProps {
  /** The groups to show, in this order; all of SPEC §3 by default. */
  groups?: readonly CustomFieldGroup[];
}

const ALL_GROUPS = Object.keys(CUSTOM_FIELD_GROUPS) as CustomFieldGroup[];

const GROUP_NAMES = {
  'imprint:imprint': 'imprint',
  'journal:journal': 'journal',
  'meeting:meeting': 'meeting',
  'thesis:thesis': 'thesis',
} as const satisfies Record<CustomFieldGroup, string>;

interface GroupTexts {
  title: string;
  help: string;
  fields: Partial<Record<string, string>>;
}

/**
 * The custom-field groups imprint, journal, meeting and thesis (SPEC §3 "Custom field groups"),
 * bound to `custom_fields.<group>.<field>`; the sub-fields and their kinds come from shared's
 * {@link CUSTOM_FIELD_GROUPS}, which the server validates by too.
 */
export function CustomFieldsSections({ groups = ALL_GROUPS }: CustomFieldsSectionsProps) {
  return (
    <Stack gap="lg">
      {groups.map((group) => (
        <CustomFieldGroupSection key={group} group={group} />
      ))}
    </Stack>
  );
}

function CustomFieldGroupSection({ group }: { group: CustomFieldGroup }) {
  const { t } = useTranslation();
  const fields = Object.entries(CUSTOM_FIELD_GROUPS[group]) as [string, CustomFieldKind][];
  // i18next reads ':' as its namespace separator, so the texts are keyed by the group's name.
  const name = GROUP_NAMES[group];
  const texts: GroupTexts = t(`customFields.groups.${name}`, { returnObjects: true });
  return (
    <Fieldset
      id={`custom-fields-${name}`}
      legend={
        <Text component="span" fw={600}>
          {texts.title}
        </Text>
      }
    >
      <Text size="xs" c="dimmed" mb="sm">
        {texts.help}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {fields.map(([field, kind]) => {
          const label = texts.fields[field] ?? field;
          if (kind === 'identifiers') {
            return <IdentifiersInput key={field} group={group} field={field} label={label} />;
          }
          return (
            <TextField<DepositFormValues>
              key={field}
              name={`custom_fields.${group}.${field}`}
              label={label}
              autoComplete="off"
              {...(kind === 'date'
                ? { help: t('customFields.dateHelp'), placeholder: 'YYYY-MM-DD' }
                : {})}
              {...(kind === 'url' ? { type: 'url', placeholder: 'https://' } : {})}
            />
          );
        })}
      </SimpleGrid>
    </Fieldset>
  );
}

/** A list of `{scheme, identifier}` (the meeting's identifiers), each row removable. */
function IdentifiersInput({
  group,
  field,
  label,
}: {
  group: CustomFieldGroup;
  field: string;
  label: string;
}) {
  const { t } = useTranslation();
  const { control, setValue } = useFormContext<DepositFormValues>();
  const path = `custom_fields.${group}.${field}` as const;
  const watched: unknown = useWatch({ control, name: path });
  const rows = Array.isArray(watched) ? (watched as IdentifierFormValues[]) : [];

  function replace(next: IdentifierFormValues[]) {
    setValue(path, next, { shouldDirty: true });
  }

  return (
    <Fieldset variant="unstyled" legend={label} style={{ gridColumn: '1 / -1' }}>
      <Stack gap="xs">
        {rows.map((_, index) => (
          <Group key={index} align="flex-end" gap="xs">
            <TextField<DepositFormValues>
              name={`${path}.${index}.scheme`}
              label={t('customFields.identifierScheme')}
              autoComplete="off"
            />
            <TextField<DepositFormValues>
              name={`${path}.${index}.identifier`}
              label={t('customFields.identifier')}
              autoComplete="off"
              flex={1}
            />
            <Button
              type="button"
              variant="subtle"
              color="red"
              onClick={() => replace(rows.filter((__, other) => other !== index))}
            >
              {t('customFields.removeIdentifier', { index: index + 1 })}
            </Button>
          </Group>
        ))}
        <Group>
          <Button
            type="button"
            variant="default"
            size="xs"
            onClick={() => replace([...rows, { scheme: '', identifier: '' }])}
          >
            {t('customFields.addIdentifier')}
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}
