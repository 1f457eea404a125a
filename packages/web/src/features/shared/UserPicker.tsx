import { Select } from '@mantine/core';
import { useState } from 'react';
import { fold } from '../../lib/fold';
import { usePeopleSearch } from './people-api';

export interface PickedUser {
  id: string;
  name: string;
}

export interface UserPickerProps {
  label: string;
  description: string;
  placeholder: string;
  /** Shown when two letters or more found no one. */
  nothingFound: string;
  value: PickedUser | null;
  onChange: (user: PickedUser | null) => void;
  disabled?: boolean;
}

/**
 * A person found by part of their name or their whole e-mail address (`GET /api/users`, two
 * letters at least): the community's invitations and the Share dialog's grants pick people with it.
 */
export function UserPicker({
  label,
  description,
  placeholder,
  nothingFound,
  value,
  onChange,
  disabled,
}: UserPickerProps) {
  const [search, setSearch] = useState('');
  const found = usePeopleSearch(search);
  // While the server looks for what is typed now, its answer to what was typed before stays,
  // less the people whose name no longer fits: a quick arrow and Enter must not pick one of them.
  const people = found.isPlaceholderData
    ? (found.data ?? []).filter((u) => nameFits(u.profile.full_name, search))
    : (found.data ?? []);
  const options = people.map((u) => ({ value: u.id, label: u.profile.full_name }));
  // The chosen person stays an option while a new search answers others.
  if (value && !options.some((o) => o.value === value.id))
    options.unshift({ value: value.id, label: value.name });
  return (
    <Select
      label={label}
      description={description}
      placeholder={placeholder}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server found them: every option it answered matches.
      filter={({ options: all }) => all}
      data={options}
      value={value?.id ?? null}
      onChange={(id, option) => onChange(id ? { id, name: option.label } : null)}
      nothingFoundMessage={search.trim().length >= 2 ? nothingFound : undefined}
      disabled={disabled}
    />
  );
}

/** Whether every word typed is part of the name, regardless of case and accents. */
export function nameFits(name: string, typed: string): boolean {
  const haystack = fold(name);
  return fold(typed)
    .split(/\s+/)
    .every((word) => haystack.includes(word));
}
