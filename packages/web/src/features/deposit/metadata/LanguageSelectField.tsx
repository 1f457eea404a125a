import { Select } from '@mantine/core';
import type { DepositFormValues } from '@cairn/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useController, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { primeVocabularyEntry, useLn, useVocabularyEntries, useVocabularySuggestions } from './api';

export interface LanguageSelectFieldProps {
  name: FieldPath<DepositFormValues>;
  label: string;
}

/**
 * One language (the `lang` of an additional title or description), searched on the server as
 * the person types and stored as its id; the stored id is shown by its title.
 */
export function LanguageSelectField({ name, label }: LanguageSelectFieldProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const ln = useLn();
  const {
    field: { ref, value, onChange, onBlur },
    fieldState,
  } = useController<DepositFormValues>({ name });
  const id = typeof value === 'string' ? value : '';
  const [search, setSearch] = useState('');
  const known = useVocabularyEntries('languages', id ? [id] : []);
  const selectedLabel = id ? (known.get(id)?.title_l10n ?? id) : '';
  // Only what the person types is searched, not the title Mantine writes back on selection.
  const suggestions = useVocabularySuggestions('languages', search === selectedLabel ? '' : search);
  const hits = suggestions.data ?? [];
  const data = hits.map((hit) => ({ value: hit.id, label: hit.title_l10n }));
  if (id && !data.some((option) => option.value === id)) {
    data.push({ value: id, label: selectedLabel });
  }
  return (
    <Select
      ref={ref}
      label={label}
      placeholder={t('metadata.languages.selectPlaceholder')}
      data={data}
      value={id || null}
      onChange={(selected) => {
        const hit = hits.find((entry) => entry.id === selected);
        if (hit) primeVocabularyEntry(queryClient, 'languages', hit, ln);
        onChange(selected ?? '');
      }}
      onBlur={onBlur}
      searchable
      // Opens on click, typing or the arrow keys; focus alone leaves the field and its message
      // in view (see SelectField).
      openOnFocus={false}
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={
        search.trim() === '' ? t('metadata.languages.searchHint') : t('metadata.nothingFound')
      }
      error={fieldState.error?.message}
    />
  );
}
