import { useQuery } from '@tanstack/react-query';
import { RecordHitsSchema } from '@cairn/shared';
import { useApiClient } from '../../api/useApiClient';

export const UPLOADS_PAGE_SIZE = 10;

/** The dashboard's `GET /api/user/records` query: whose, search text, status filter, sort and page. */
export interface UploadsQuery {
  q: string;
  status: 'all' | 'published' | 'draft';
  sort: string;
  page: number;
  /** The records and drafts others granted the caller (`shared_with_me`), not their own. */
  shared: boolean;
}

export const userRecordsKeys = {
  list: (query: UploadsQuery) => ['user-records', query] as const,
};

/** The caller's drafts and records, one page at a time. */
export function useUserRecords(query: UploadsQuery) {
  const client = useApiClient();
  return useQuery({
    queryKey: userRecordsKeys.list(query),
    queryFn: async () =>
      RecordHitsSchema.parse(
        await client.get('/api/user/records', {
          query: {
            ...(query.q ? { q: query.q } : {}),
            sort: query.sort,
            page: String(query.page),
            size: String(UPLOADS_PAGE_SIZE),
            ...(query.shared ? { shared_with_me: 'true' } : {}),
            ...(query.status === 'all'
              ? {}
              : { is_published: query.status === 'published' ? 'true' : 'false' }),
          },
        }),
      ),
    placeholderData: (previous) => previous,
  });
}
