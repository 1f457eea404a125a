/**
 * The creator dialog's inputs that are more than a text box: person or organisation, identifiers,
 * affiliations (searched, or typed freely) and role, each bound to the dialog's own form. Separate
 * from the dialog (CreatorModal.tsx), which lays them out and saves what they hold.
 */
import { ActionIcon, Badge, Group, Radio, Select, Stack, TagsInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useController, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useAffiliationSuggestions, type Role } from './api';
import {
  detectPersonOrOrgScheme,
  type CreatorEditorValues,
  type CreatorListName,
  type CreatorType,
} from './creator-rules';
import { HitSummary, organizationSummary, SUGGEST_DEBOUNCE_MS } from './CreatorSearch';
import { SuggestionSearch } from './SuggestionSearch';

export function TypeSwitch({ control }: { control: Control<CreatorEditorValues> }) {
  const { t } = useTranslation();
  const { field } = useController({ control, name: 'type' });
  return (
    <Radio.Group
      label={t('creators.fields.type')}
      value={field.value}
      onChange={(value) => field.onChange(value)}
    >
      <Group mt="xs">
        <Radio value="personal" label={t('creators.fields.person')} />
        <Radio value="organizational" label={t('creators.fields.organization')} />
      </Group>
    </Radio.Group>
  );
}

export function IdentifiersInput({
  control,
  type,
  error,
}: {
  control: Control<CreatorEditorValues>;
  type: CreatorType;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const { field } = useController({ control, name: `${type}.identifiers` });
  const entries = field.value;
  return (
    <TagsInput
      label={t('creators.fields.identifiers')}
      description={t('creators.fields.identifiersHelp')}
      placeholder={
        type === 'personal'
          ? t('creators.fields.personIdentifiersPlaceholder')
          : t('creators.fields.organizationIdentifiersPlaceholder')
      }
      value={entries.map((entry) => entry.identifier)}
      onChange={(values) =>
        field.onChange(
          values.map((identifier) => {
            // A known entry keeps the scheme it came with (search result or saved creator).
            const known = entries.find((entry) => entry.identifier === identifier);
            return known ?? { scheme: detectPersonOrOrgScheme(identifier), identifier };
          }),
        )
      }
      error={error}
    />
  );
}

export function AffiliationsInput({
  control,
  type,
}: {
  control: Control<CreatorEditorValues>;
  type: CreatorType;
}) {
  const { t } = useTranslation();
  const { field } = useController({ control, name: `${type}.affiliations` });
  const affiliations = field.value;
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, SUGGEST_DEBOUNCE_MS);
  const { data = [], isFetching, isError } = useAffiliationSuggestions(debounced);
  const typed = query.trim();

  function add(entry: { id?: string; name: string }) {
    setQuery('');
    const key = entry.id ?? entry.name;
    if (affiliations.some((a) => (a.id ?? a.name) === key)) return;
    field.onChange([...affiliations, entry]);
  }

  return (
    <Stack gap={6}>
      <SuggestionSearch
        label={t('creators.fields.affiliations')}
        placeholder={t('creators.fields.affiliationsPlaceholder')}
        query={query}
        onQueryChange={setQuery}
        hits={debounced === '' ? [] : data}
        isFetching={isFetching}
        isError={isError}
        hitKey={(hit) => hit.id}
        renderHit={(hit) => <HitSummary {...organizationSummary(hit)} />}
        onPick={(hit) => add({ id: hit.id, name: hit.name })}
        extraOptions={
          typed === ''
            ? []
            : [{ value: typed, label: t('creators.fields.addFreeText', { name: typed }) }]
        }
        onExtra={(name) => add({ name })}
      />
      {affiliations.length > 0 && (
        <Group gap="xs" role="list" aria-label={t('creators.fields.chosenAffiliations')}>
          {affiliations.map((affiliation, index) => (
            <Badge
              key={affiliation.id ?? `name:${affiliation.name}`}
              role="listitem"
              variant="light"
              tt="none"
              rightSection={
                <ActionIcon
                  size="xs"
                  variant="transparent"
                  aria-label={t('creators.fields.removeAffiliation', { name: affiliation.name })}
                  onClick={() => field.onChange(affiliations.filter((_, i) => i !== index))}
                >
                  ×
                </ActionIcon>
              }
            >
              {affiliation.name}
            </Badge>
          ))}
        </Group>
      )}
    </Stack>
  );
}

export function RoleSelect({
  control,
  list,
  roles,
  error,
}: {
  control: Control<CreatorEditorValues>;
  list: CreatorListName;
  roles: readonly Role[];
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const { field } = useController({ control, name: 'role' });
  const isRequired = list === 'metadata.contributors';
  return (
    <Select
      label={t('creators.fields.role')}
      placeholder={t('creators.fields.rolePlaceholder')}
      data={roles.map((role) => ({ value: role.id, label: role.label }))}
      value={field.value === '' ? null : field.value}
      onChange={(value) => field.onChange(value ?? '')}
      clearable={!isRequired}
      required={isRequired}
      searchable
      error={error}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
