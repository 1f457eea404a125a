import { useQuery } from '@tanstack/react-query';
import { useApiClient } from '../../api/useApiClient';
import { CommunityHitsSchema } from '../shared/communities';

/** Communities the home page points to. */
export const HOME_COMMUNITIES = 6;
/** Records the home page lists as the latest. */
export const HOME_RECORDS = 10;

/** The latest records' search, as the API takes it. */
export const LATEST_RECORDS = new URLSearchParams({ sort: 'newest', size: String(HOME_RECORDS) });

/** `GET /api/communities`: the first few the visitor may see, in the API's default order. */
export function useHomeCommunities() {
  const client = useApiClient();
  return useQuery({
    queryKey: ['communities', 'home'] as const,
    queryFn: async () =>
      CommunityHitsSchema.parse(
        await client.get('/api/communities', { query: { size: String(HOME_COMMUNITIES) } }),
      ).hits,
  });
}
