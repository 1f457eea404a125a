import { useQuery } from '@tanstack/react-query';
import { useApiClient } from '../../api/useApiClient';

export { CommunityHitsSchema, CommunityJsonSchema, type CommunityJson } from '@cairn/shared';
import { CommunityHitsSchema, CommunityJsonSchema } from '@cairn/shared';

/**
 * `GET /api/records/{id}/communities`: the communities a published record belongs to, for its
 * landing page (the first page is plenty: a record joins a handful).
 */
export function useRecordCommunities(id: string, enabled: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: ['records', id, 'communities'] as const,
    queryFn: async () =>
      CommunityHitsSchema.parse(
        await client.get(`/api/records/${encodeURIComponent(id)}/communities`, {
          query: { size: '25' },
        }),
      ).hits,
    enabled,
    staleTime: 60_000,
  });
}

/** One community by slug (or uuid). */
export function useCommunity(slug: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: ['communities', slug] as const,
    queryFn: async () =>
      CommunityJsonSchema.parse(await client.get(`/api/communities/${encodeURIComponent(slug)}`)),
    retry: false,
  });
}
