import { Select } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useItemSuggestions, useLn, pickLocalized, type ItemHit } from './api';

export interface ItemSearchSelectProps {
  label: string;
  type: 'funders' | 'awards';
  value: ItemHit | null;
  onChange: (hit: ItemHit | null) => void;
  /** Facet filters, e.g. `{funders: '00k4n6c32'}` for a funder's awards. */
  filters?: Record<string, string>;
  /** Lists the first results before anything is typed (a funder's awards). */
  browse?: boolean;
  required?: boolean;
  error?: string;
  disabled?: boolean;
}

/** How a funder or award reads in a list: "ERC — Horizon grant (101001)". */
export function itemLabel(hit: ItemHit, ln: string): string {
  if (hit.name !== undefined) return hit.acronym ? `${hit.name} (${hit.acronym})` : hit.name;
  const title = pickLocalized(hit.title, ln);
  const head = [hit.acronym, title].filter(Boolean).join(' — ');
  if (!head) return hit.number ?? hit.id;
  return hit.number ? `${head} (${hit.number})` : head;
}

/** One funder or award, searched on the server as the person types. */
export function ItemSearchSelect({
  label,
  type,
  value,
  onChange,
  filters,
  browse,
  required,
  error,
  disabled,
}: ItemSearchSelectProps) {
  const { t } = useTranslation();
  const ln = useLn();
  const [search, setSearch] = useState('');
  const [isOpen, setOpen] = useState(false);
  // Only what the person types is searched, not the label Mantine writes back on selection.
  const typed = search !== (value ? itemLabel(value, ln) : '') ? search : '';
  const suggestions = useItemSuggestions(type, typed, {
    ...(filters ? { filters } : {}),
    enabled: typed.trim() !== '' || (browse === true && isOpen),
  });
  const hits = suggestions.data?.hits ?? [];
  const data = hits.map((hit) => ({ value: hit.id, label: itemLabel(hit, ln) }));
  if (value && !data.some((option) => option.value === value.id)) {
    data.push({ value: value.id, label: itemLabel(value, ln) });
  }
  return (
    <Select
      label={label}
      data={data}
      value={value?.id ?? null}
      onChange={(id) => onChange(hits.find((hit) => hit.id === id) ?? (id ? value : null))}
      searchable
      clearable
      required={required}
      disabled={disabled}
      error={error}
      searchValue={search}
      onSearchChange={setSearch}
      onDropdownOpen={() => setOpen(true)}
      onDropdownClose={() => setOpen(false)}
      filter={({ options }) => options}
      placeholder={t('metadata.searchPlaceholder')}
      nothingFoundMessage={
        suggestions.isFetching ? t('metadata.searching') : t('metadata.nothingFound')
      }
    />
  );
}
