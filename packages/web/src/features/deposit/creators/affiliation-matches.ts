import { useQuery } from '@tanstack/react-query';
import { AffiliationHitSchema, hitsOf, type AffiliationHit } from '@cairn/shared';
import { useApiClient } from '../../../api/useApiClient';
import { foldForSearch } from './creator-display';

/*
 * The affiliations vocabulary's organisations for an imported list, apart from api.ts: only the
 * import dialog, a chunk of its own, uses it.
 */
/** Affiliation names of an imported list looked up at most, and how many requests at once. */
export const AFFILIATION_LOOKUP_LIMIT = 100;
const AFFILIATION_LOOKUP_CONCURRENCY = 4;

/**
 * For an imported list's free-text affiliations, the vocabulary's organisation each one names
 * exactly (its name or acronym, case and accents aside), by the name as written. Each distinct
 * name is asked for once (the first `AFFILIATION_LOOKUP_LIMIT`, a few at a time): a consortium's
 * thousands of authors share a few dozen institutions.
 */
export function useAffiliationMatches(names: readonly string[], enabled: boolean) {
  const client = useApiClient();
  const asked = names.slice(0, AFFILIATION_LOOKUP_LIMIT);
  return useQuery({
    queryKey: ['affiliation-matches', asked],
    queryFn: async (): Promise<Map<string, AffiliationHit>> => {
      const matches = new Map<string, AffiliationHit>();
      let next = 0;
      const worker = async () => {
        while (next < asked.length) {
          const name = asked[next] ?? '';
          next += 1;
          const hits = hitsOf(AffiliationHitSchema).parse(
            await client.get('/api/affiliations', {
              query: { suggest: name, size: '5' },
              accept: 'application/json',
            }),
          ).hits.hits;
          const wanted = foldForSearch(name.trim());
          const exact = hits.find(
            (hit) =>
              foldForSearch(hit.name) === wanted ||
              (hit.acronym !== undefined && foldForSearch(hit.acronym) === wanted),
          );
          if (exact) matches.set(name, exact);
        }
      };
      await Promise.all(Array.from({ length: AFFILIATION_LOOKUP_CONCURRENCY }, worker));
      return matches;
    },
    enabled: enabled && asked.length > 0,
    staleTime: 60_000,
  });
}
