import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  AffiliationHitSchema,
  hitsOf,
  NameHitSchema,
  VocabularyHitSchema,
  type AffiliationHit,
  type NameHit,
} from '@cairn/shared';
import type { z } from 'zod';
import { INVENIO_JSON } from '../../../api/client';
import { useApiClient } from '../../../api/useApiClient';
import type { CreatorListName } from './creator-rules';

/** Suggestions asked for per query: enough to tell namesakes apart, few enough to scan. */
const SUGGESTION_SIZE = 10;

export type { AffiliationHit, NameHit };
export type Role = { id: string; label: string };

const ROLE_VOCABULARY: Record<CreatorListName, string> = {
  'metadata.creators': 'creatorsroles',
  'metadata.contributors': 'contributorsroles',
};

/**
 * The roles a creator (creatorsroles) or contributor (contributorsroles) may have, in the reader's
 * language, sorted by label. Fetched once per page, and only once needed (`enabled`: the dialog
 * is open or a row shows a role): the lists are short and never change while the form is open.
 */
export function useRoles(list: CreatorListName, enabled: boolean) {
  const client = useApiClient();
  const { i18n } = useTranslation();
  const type = ROLE_VOCABULARY[list];
  return useQuery({
    queryKey: ['vocabularies', type, i18n.language],
    queryFn: async (): Promise<Role[]> => {
      const body = hitsOf(VocabularyHitSchema).parse(
        await client.get(`/api/vocabularies/${type}`, {
          query: { size: '200', ln: i18n.language },
          accept: INVENIO_JSON,
        }),
      );
      return body.hits.hits
        .map((hit) => ({ id: hit.id, label: hit.title_l10n }))
        .sort((a, b) => a.label.localeCompare(b.label, i18n.language));
    },
    enabled,
    staleTime: Infinity,
  });
}

/** The label of role `id` (the id itself until the roles have arrived); `''` without a role. */
export function useRoleLabel(list: CreatorListName, id: string): string {
  const { data } = useRoles(list, id !== '');
  if (id === '') return '';
  return data?.find((role) => role.id === id)?.label ?? id;
}

/** People whose name, ORCID iD or affiliation matches `query` (already debounced). */
export function useNameSuggestions(query: string) {
  return useSuggestions('/api/names', NameHitSchema, query);
}

/** Organisations whose name, acronym or identifier matches `query` (already debounced). */
export function useAffiliationSuggestions(query: string) {
  return useSuggestions('/api/affiliations', AffiliationHitSchema, query);
}

function useSuggestions<T extends z.ZodType>(path: string, item: T, query: string) {
  const client = useApiClient();
  const suggest = query.trim();
  return useQuery({
    queryKey: ['suggestions', path, suggest],
    queryFn: async (): Promise<z.output<T>[]> =>
      hitsOf(item).parse(
        await client.get(path, {
          query: { suggest, size: String(SUGGESTION_SIZE) },
          accept: 'application/json',
        }),
      ).hits.hits,
    enabled: suggest !== '',
    // The last answer stays on screen while the next keystroke's is on its way.
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
