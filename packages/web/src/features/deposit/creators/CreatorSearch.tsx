/**
 * The creator dialog's search: people through `/api/names`, organisations through
 * `/api/affiliations`, and how a suggestion reads. Separate from the dialog (CreatorModal.tsx),
 * which only learns what was picked; the affiliations input shows its suggestions the same way.
 */
import { Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useAffiliationSuggestions,
  useNameSuggestions,
  type AffiliationHit,
  type NameHit,
} from './api';
import type { CreatorType } from './creator-rules';
import { SuggestionSearch } from './SuggestionSearch';

/** Typing pauses this long before a suggestion request leaves. */
export const SUGGEST_DEBOUNCE_MS = 250;

/** One suggestion, person or organisation, as the search shows it and what picking it does. */
interface SearchHit {
  key: string;
  title: string;
  details: string[];
  identifiers: ReadonlyArray<{ scheme: string; identifier: string }>;
  pick: () => void;
}

/**
 * The search above the fields: people through `/api/names`, organisations through
 * `/api/affiliations` (search-first for both, organisations too: a picked one brings its
 * identifiers, which a typed name lacks).
 */
export function CreatorSearch({
  type,
  onPickPerson,
  onPickOrganization,
  onManual,
}: {
  type: CreatorType;
  onPickPerson: (hit: NameHit) => void;
  onPickOrganization: (hit: AffiliationHit) => void;
  /** Offered as "enter manually" in `search_only` mode, where the fields start hidden. */
  onManual: (() => void) | undefined;
}) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, SUGGEST_DEBOUNCE_MS);
  const isPerson = type === 'personal';
  // An empty query asks for nothing, so only the search of the chosen type runs.
  const people = useNameSuggestions(isPerson ? debounced : '');
  const organizations = useAffiliationSuggestions(isPerson ? '' : debounced);
  const search = isPerson ? people : organizations;
  const hits: SearchHit[] =
    debounced === ''
      ? []
      : isPerson
        ? (people.data ?? []).map((hit) => ({
            key: hit.id,
            title: [hit.family_name, hit.given_name].filter(Boolean).join(', ') || hit.name || '',
            details: hit.affiliations.map((a) => a.name ?? a.id ?? ''),
            identifiers: hit.identifiers,
            pick: () => onPickPerson(hit),
          }))
        : (organizations.data ?? []).map((hit) => ({
            ...organizationSummary(hit),
            key: hit.id,
            pick: () => onPickOrganization(hit),
          }));
  return (
    <SuggestionSearch
      label={isPerson ? t('creators.search.personLabel') : t('creators.search.organizationLabel')}
      placeholder={
        isPerson
          ? t('creators.search.personPlaceholder')
          : t('creators.search.organizationPlaceholder')
      }
      query={query}
      onQueryChange={setQuery}
      hits={hits}
      isFetching={search.isFetching}
      isError={search.isError}
      hitKey={(hit) => hit.key}
      renderHit={(hit) => <HitSummary {...hit} />}
      onPick={(hit) => {
        setQuery('');
        hit.pick();
      }}
      extraOptions={onManual ? [{ value: 'manual', label: t('creators.search.manual') }] : []}
      onExtra={onManual}
      data-autofocus
    />
  );
}

/** An organisation as a suggestion reads: name (acronym), then where it is. */
export function organizationSummary(hit: AffiliationHit) {
  const place = [hit.location_name, hit.country_name].filter(Boolean).join(', ');
  return {
    title: hit.acronym ? `${hit.name} (${hit.acronym})` : hit.name,
    details: place ? [place] : [],
    identifiers: hit.identifiers,
  };
}

/** One suggestion: the name, then what tells namesakes apart (affiliations, identifiers). */
export function HitSummary({
  title,
  details,
  identifiers,
}: {
  title: string;
  details: readonly string[];
  identifiers: ReadonlyArray<{ scheme: string; identifier: string }>;
}) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={500}>
        {title}
      </Text>
      {details.length > 0 && (
        <Text size="xs" c="dimmed">
          {details.join('; ')}
        </Text>
      )}
      {identifiers.length > 0 && (
        <Text size="xs" c="dimmed">
          {identifiers
            .map((entry) => `${entry.scheme.toUpperCase()} ${entry.identifier}`)
            .join(' · ')}
        </Text>
      )}
    </Stack>
  );
}
