import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PublicUserHitsSchema } from '@cairn/shared';
import { useApiClient } from '../../api/useApiClient';

/** People found by part of their name or their whole address (two characters at least). */
export function usePeopleSearch(q: string) {
  const client = useApiClient();
  const query = q.trim();
  return useQuery({
    queryKey: ['users', 'search', query] as const,
    queryFn: async () =>
      PublicUserHitsSchema.parse(await client.get('/api/users', { query: { q: query } })).hits.hits,
    enabled: query.length >= 2,
    placeholderData: keepPreviousData,
  });
}
