import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { RecordHitsSchema } from '@cairn/shared';
import { useApiClient } from '../../api/useApiClient';

/**
 * `GET /api/records` (or `endpoint`, a community's records, which take the same parameters) with
 * `params` as they are: several values of one facet are repeated
 * parameters (`resource_type=dataset&resource_type=image`), which the client's `query` option,
 * one value per name, cannot express. Shows the previous answer while the next one loads, so that
 * ticking a facet does not blank the page.
 */
export function useRecordSearch(params: URLSearchParams, endpoint = '/api/records') {
  const client = useApiClient();
  const search = params.toString();
  return useQuery({
    queryKey: ['record-search', endpoint, search] as const,
    queryFn: async () =>
      RecordHitsSchema.parse(await client.get(`${endpoint}${search ? `?${search}` : ''}`)),
    placeholderData: keepPreviousData,
  });
}
