import { useQuery } from '@tanstack/react-query';
import { RecordSearchResultSchema } from '../../api/records';
import { useApiClient } from '../../api/useApiClient';

export const userRecordsKeys = {
  list: (sort: string) => ['user-records', { sort }] as const,
};

/** The caller's drafts and records, most recently updated first (reference §1.10). */
export function useUserRecords() {
  const client = useApiClient();
  const sort = 'updated-desc';
  return useQuery({
    queryKey: userRecordsKeys.list(sort),
    queryFn: async () =>
      RecordSearchResultSchema.parse(await client.get('/api/user/records', { query: { sort } })),
  });
}
