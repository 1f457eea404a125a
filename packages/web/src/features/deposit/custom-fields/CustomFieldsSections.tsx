import { Button, Fieldset, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  CUSTOM_FIELD_GROUPS,
  type CustomFieldGroup,
  type CustomFieldKind,
  type CustomFieldUi,
  type DepositFormValues,
  type IdentifierFormValues,
} from '@cairn/shared';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useBootstrap } from '../../../bootstrap';
import { TextField } from '../../../components/form/TextField';
import { ComingSoonField } from './ComingSoonField';

export interface CustomFieldsSectionsProps {
  /** What to show, in this order; the page's configuration (`customFieldsUi`) by default. */
  fields?: readonly CustomFieldUi[];
}

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

function isGroup(field: string): field is CustomFieldGroup {
  return Object.hasOwn(CUSTOM_FIELD_GROUPS, field);
}

/**
 * The form's custom fields area as the instance configures it (`CAIRN_CUSTOM_FIELDS_UI`, like
 * InvenioRDM's `RDM_CUSTOM_FIELDS_UI`): the groups imprint, journal, meeting and thesis, bound to
 * `custom_fields.<group>.<field>` with the sub-fields and kinds of shared's
 * {@link CUSTOM_FIELD_GROUPS}, which the server validates by too; and "Coming soon" placeholders
 * for fields announced but not offered yet.
 */
export function CustomFieldsSections({ fields }: CustomFieldsSectionsProps) {
  const { config } = useBootstrap();
  return (
    <Stack gap="lg">
      {(fields ?? config.customFieldsUi).map((entry) =>
        isGroup(entry.field) ? (
          <CustomFieldGroupSection key={entry.field} group={entry.field} />
        ) : (
          <ComingSoonField
            key={entry.field}
            label={entry.props?.label ?? entry.field}
            {...(entry.props?.description ? { help: entry.props.description } : {})}
          />
        ),
      )}
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
