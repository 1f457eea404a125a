import { MultiSelect } from '@mantine/core';
import type { DepositFormValues } from '@cairn/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { primeVocabularyEntry, useLn, useVocabularyEntries, useVocabularySuggestions } from './api';

const EMPTY: string[] = [];

/**
 * `metadata.languages`: languages searched on the server as the person types
 * (`/api/vocabularies/languages?suggest=…`), stored as ids and shown by their titles.
 */
export function LanguagesField() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const ln = useLn();
  const {
    field: { ref, value, onChange, onBlur },
    fieldState,
  } = useController<DepositFormValues, 'metadata.languages'>({ name: 'metadata.languages' });
  const ids = Array.isArray(value) ? value : EMPTY;
  const [search, setSearch] = useState('');
  const suggestions = useVocabularySuggestions('languages', search);
  const known = useVocabularyEntries('languages', ids);
  const hits = suggestions.data ?? [];
  const data = ids.map((id) => ({ value: id, label: known.get(id)?.title_l10n ?? id }));
  for (const hit of hits) {
    if (!ids.includes(hit.id)) data.push({ value: hit.id, label: hit.title_l10n });
  }
  return (
    <MultiSelect
      ref={ref}
      label={t('metadata.languages.label')}
      placeholder={ids.length === 0 ? t('metadata.languages.placeholder') : undefined}
      data={data}
      value={ids}
      onChange={(selected) => {
        for (const hit of hits) {
          if (selected.includes(hit.id)) primeVocabularyEntry(queryClient, 'languages', hit, ln);
        }
        onChange(selected);
        setSearch('');
      }}
      onBlur={onBlur}
      searchable
      // Opens on click, typing or the arrow keys; focus alone leaves the field and its message
      // in view (see SelectField).
      openOnFocus={false}
      searchValue={search}
      onSearchChange={setSearch}
      hidePickedOptions
      filter={({ options }) => options}
      nothingFoundMessage={
        search.trim() === '' ? t('metadata.languages.searchHint') : t('metadata.nothingFound')
      }
      error={fieldState.error?.message}
    />
  );
}
