import { Combobox, Loader, TextInput, useCombobox } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** An option offered after the hits, such as "enter manually" or "add as free text". */
export interface ExtraOption {
  value: string;
  label: string;
}

export interface SuggestionSearchProps<T> {
  label: string;
  placeholder?: string;
  description?: ReactNode;
  /** What is typed; the parent owns it and debounces the search it drives. */
  query: string;
  onQueryChange: (query: string) => void;
  /** The hits for the debounced query (none while it is empty). */
  hits: readonly T[];
  isFetching: boolean;
  isError: boolean;
  hitKey: (hit: T) => string;
  /** How one hit reads: enough (affiliations, identifiers) to tell namesakes apart. */
  renderHit: (hit: T) => ReactNode;
  onPick: (hit: T) => void;
  extraOptions?: readonly ExtraOption[];
  onExtra?: (value: string) => void;
  'data-autofocus'?: boolean;
}

const EXTRA_PREFIX = 'extra:';

/**
 * A search box whose suggestions are picked with the arrow keys and Enter or by pointer (a
 * Mantine Combobox: the input owns focus, options are announced through aria-activedescendant).
 * Knows nothing of what it searches; the parent fetches the hits for its (debounced) query.
 */
export function SuggestionSearch<T>({
  label,
  placeholder,
  description,
  query,
  onQueryChange,
  hits,
  isFetching,
  isError,
  hitKey,
  renderHit,
  onPick,
  extraOptions = [],
  onExtra,
  'data-autofocus': autoFocus,
}: SuggestionSearchProps<T>) {
  const { t } = useTranslation();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const hasQuery = query.trim() !== '';
  const byKey = new Map(hits.map((hit) => [hitKey(hit), hit]));

  function handleSubmit(value: string) {
    combobox.closeDropdown();
    if (value.startsWith(EXTRA_PREFIX)) {
      onExtra?.(value.slice(EXTRA_PREFIX.length));
      return;
    }
    const hit = byKey.get(value);
    if (hit !== undefined) onPick(hit);
  }

  return (
    <Combobox store={combobox} onOptionSubmit={handleSubmit}>
      <Combobox.Target>
        <TextInput
          label={label}
          placeholder={placeholder}
          description={description}
          value={query}
          autoComplete="off"
          data-autofocus={autoFocus}
          rightSection={
            isFetching ? <Loader size="xs" aria-label={t('creators.search.loading')} /> : null
          }
          onChange={(event) => {
            onQueryChange(event.currentTarget.value);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onClick={() => combobox.openDropdown()}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={!hasQuery && extraOptions.length === 0}>
        <Combobox.Options mah={320} style={{ overflowY: 'auto' }}>
          {hits.map((hit) => {
            const key = hitKey(hit);
            return (
              <Combobox.Option value={key} key={key}>
                {renderHit(hit)}
              </Combobox.Option>
            );
          })}
          {hasQuery && hits.length === 0 && !isFetching && (
            <Combobox.Empty>
              {isError ? t('creators.search.failed') : t('creators.search.noResults')}
            </Combobox.Empty>
          )}
          {extraOptions.map((option) => (
            <Combobox.Option value={`${EXTRA_PREFIX}${option.value}`} key={option.value}>
              {option.label}
            </Combobox.Option>
          ))}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
