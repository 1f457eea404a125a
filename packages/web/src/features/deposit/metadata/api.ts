import { useDebouncedValue } from '@mantine/hooks';
import {
  keepPreviousData,
  skipToken,
  useQueries,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ItemHitSchema,
  ItemHitsSchema,
  VocabularyHitSchema,
  VocabularyHitsSchema,
  type ItemHit,
  type VocabularyHit,
} from '@cairn/shared';
import { useApiClient } from '../../../api/useApiClient';
import { useBootstrap } from '../../../bootstrap';

/*
 * The vocabularies the metadata widgets read. Small vocabularies (types, relations) are listed
 * once and cached for the page's life; large ones (languages, subjects, funders, awards) are
 * suggested as the person types, and a stored id is looked up on its own so the form shows its
 * title, not the id. Titles come localised (`title_l10n`, vnd Accept header) in the UI language.
 */

/** How long typing waits before asking for suggestions (react-invenio-forms waits 500 ms). */
export const SUGGEST_DEBOUNCE_MS = 300;
/** Suggestions per request, as react-invenio-forms' RemoteSelectField asks. */
export const SUGGEST_SIZE = 20;
/** Small vocabularies are read whole: the largest (relation types) has a few dozen entries. */
const LIST_SIZE = 200;
/** The license picker's page size, as InvenioRDM's searchkit modal. */
export const LICENSE_PAGE_SIZE = 12;
/** Awards per search, as InvenioRDM's award search. */
const AWARD_SIZE = 5;

export type { ItemHit, VocabularyHit };

/** The small vocabularies a widget lists whole (`/api/vocabularies/{type}`). */
export type ListedVocabulary =
  'resourcetypes' | 'titletypes' | 'descriptiontypes' | 'datetypes' | 'relationtypes';

export type IndexedVocabulary = 'subjects' | 'funders' | 'awards';

export interface VocabularyOption {
  value: string;
  label: string;
}

export const metadataKeys = {
  list: (type: string, tags: string, ln: string) => ['vocabulary', type, 'list', tags, ln] as const,
  entry: (type: string, id: string, ln: string) => ['vocabulary', type, 'entry', id, ln] as const,
  suggest: (type: string, params: Record<string, string>) =>
    ['vocabulary', type, 'suggest', params] as const,
  item: (type: string, id: string) => ['vocabulary-item', type, id] as const,
};

/** The UI language as the server's `ln` parameter reads it (two letters). */
export function useLn(): string {
  const { i18n } = useTranslation();
  return (i18n.resolvedLanguage ?? i18n.language).slice(0, 2);
}

function toOptions(hits: readonly VocabularyHit[]): VocabularyOption[] {
  return hits
    .map((hit) => ({ value: hit.id, label: hit.title_l10n }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/**
 * Every entry of a small vocabulary as select options, sorted by title. Depositable resource
 * types come with the page (bootstrap) and need no request.
 */
export function useVocabularyOptions(
  type: ListedVocabulary,
  tags?: string,
): { options: VocabularyOption[]; isLoading: boolean; isError: boolean } {
  const client = useApiClient();
  const ln = useLn();
  const { vocabularies } = useBootstrap();
  const preloaded =
    type === 'resourcetypes' && tags === 'depositable' && vocabularies.resourcetypes.length > 0
      ? vocabularies.resourcetypes
      : undefined;
  const query = useQuery({
    queryKey: metadataKeys.list(type, tags ?? '', ln),
    queryFn: preloaded
      ? skipToken
      : async () => {
          const body = await client.get(`/api/vocabularies/${type}`, {
            query: { size: String(LIST_SIZE), ln, ...(tags ? { tags } : {}) },
          });
          return toOptions(VocabularyHitsSchema.parse(body).hits.hits);
        },
    staleTime: Infinity,
  });
  if (preloaded) {
    return {
      options: preloaded.map((entry) => ({ value: entry.id, label: entry.title })),
      isLoading: false,
      isError: false,
    };
  }
  return { options: query.data ?? [], isLoading: query.isLoading, isError: query.isError };
}

/**
 * Suggestions from a large vocabulary (`/api/vocabularies/{type}?suggest=…`) for the text typed,
 * debounced. Nothing is asked for an empty text.
 */
export function useVocabularySuggestions(type: 'languages' | 'licenses', text: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const ln = useLn();
  const [debounced] = useDebouncedValue(text.trim(), SUGGEST_DEBOUNCE_MS);
  const params = { suggest: debounced, size: String(SUGGEST_SIZE), ln };
  return useQuery({
    queryKey: metadataKeys.suggest(type, params),
    queryFn:
      debounced === ''
        ? skipToken
        : async () => {
            const hits = VocabularyHitsSchema.parse(
              await client.get(`/api/vocabularies/${type}`, { query: params }),
            ).hits.hits;
            // A suggestion picked later needs no second request for its title.
            for (const hit of hits) primeVocabularyEntry(queryClient, type, hit, ln);
            return hits;
          },
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}

/** Remembers `hit` as the entry behind its id, e.g. once picked from suggestions. */
export function primeVocabularyEntry(
  queryClient: QueryClient,
  type: string,
  hit: VocabularyHit,
  ln: string,
): void {
  queryClient.setQueryData(metadataKeys.entry(type, hit.id, ln), hit);
}

/**
 * The entries behind stored ids (`/api/vocabularies/{type}/{id}`), one cached request per id not
 * seen yet. An id the server does not know maps to undefined; the widget shows the id itself.
 */
export function useVocabularyEntries(
  type: 'languages' | 'licenses',
  ids: readonly string[],
): Map<string, VocabularyHit> {
  const client = useApiClient();
  const ln = useLn();
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: metadataKeys.entry(type, id, ln),
      queryFn: async () =>
        VocabularyHitSchema.parse(
          await client.get(`/api/vocabularies/${type}/${encodeURIComponent(id)}`, {
            query: { ln },
          }),
        ),
      staleTime: Infinity,
      enabled: id !== '',
    })),
    combine: (results) => {
      const found = new Map<string, VocabularyHit>();
      results.forEach((result, i) => {
        const id = ids[i];
        if (id !== undefined && result.data) found.set(id, result.data);
      });
      return found;
    },
  });
}

/** The licence picker's tag toggles (InvenioRDM's searchkit filters). */
export type LicenseFilter = 'recommended' | 'all' | 'data' | 'software';

/** One page of licences for the picker: the filter's tag, the text searched, the page. */
export function useLicenseSearch(filter: LicenseFilter, text: string, page: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const ln = useLn();
  const [debounced] = useDebouncedValue(text.trim(), SUGGEST_DEBOUNCE_MS);
  const params: Record<string, string> = {
    tags: filter,
    page: String(page),
    size: String(LICENSE_PAGE_SIZE),
    ln,
    ...(debounced ? { suggest: debounced } : {}),
  };
  return useQuery({
    queryKey: metadataKeys.suggest('licenses', params),
    queryFn: async () => {
      const { hits } = VocabularyHitsSchema.parse(
        await client.get('/api/vocabularies/licenses', { query: params }),
      );
      for (const hit of hits.hits) primeVocabularyEntry(queryClient, 'licenses', hit, ln);
      return hits;
    },
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}

/**
 * Suggestions from `/api/subjects`, `/api/funders` or `/api/awards`. `filters` adds the type's
 * facet (`funders` for awards). An empty text browses the first results, which lets awards be
 * listed once a funder is chosen.
 */
export function useItemSuggestions(
  type: IndexedVocabulary,
  text: string,
  options: { filters?: Record<string, string>; enabled?: boolean } = {},
) {
  const client = useApiClient();
  const [debounced] = useDebouncedValue(text.trim(), SUGGEST_DEBOUNCE_MS);
  const params: Record<string, string> = {
    size: String(type === 'awards' ? AWARD_SIZE : SUGGEST_SIZE),
    ...(debounced ? { suggest: debounced } : {}),
    ...options.filters,
  };
  const enabled = options.enabled ?? debounced !== '';
  return useQuery({
    queryKey: metadataKeys.suggest(type, params),
    queryFn: enabled
      ? async () => ItemHitsSchema.parse(await client.get(`/api/${type}`, { query: params })).hits
      : skipToken,
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}

/** One funder or award by id, for the label of a stored entry that carries only its id. */
export function useItem(type: 'funders' | 'awards', id: string | undefined) {
  const client = useApiClient();
  return useQuery({
    queryKey: metadataKeys.item(type, id ?? ''),
    queryFn: id
      ? async () => ItemHitSchema.parse(await client.get(`/api/${type}/${encodeURIComponent(id)}`))
      : skipToken,
    staleTime: Infinity,
  });
}

/** A multilingual title in the UI language, else the first one stored. */
export function pickLocalized(
  text: Record<string, string> | undefined,
  ln: string,
): string | undefined {
  if (!text) return undefined;
  return text[ln] ?? text.en ?? Object.values(text)[0];
}
