import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { COMMUNITY_PAGE_SIZE } from '@cairn/shared';
import { INVENIO_JSON } from '../../../api/client';
import { useApiClient } from '../../../api/useApiClient';
import { CommunityHitsSchema } from '@cairn/shared';

/** `all`: every community the caller may see; `mine`: those the caller is a member of. */
export type CommunityScope = 'all' | 'mine';

const SEARCH_PATHS: Record<CommunityScope, string> = {
  all: '/api/communities',
  mine: '/api/user/communities',
};

/** The picker's search always ranks by relevance. */
const COMMUNITY_SORT = 'bestmatch';

export interface CommunitySearchParams {
  scope: CommunityScope;
  query: string;
  /** 1-based. */
  page: number;
}

export const communityKeys = {
  search: (params: CommunitySearchParams) => ['communities', 'search', params] as const,
};

/**
 * One page of the community picker: the vnd Accept header makes the server add each community's
 * `ui.permissions` and the caller's membership role. The previous page stays on screen while the
 * next one loads, so the list does not jump.
 */
export function useCommunitySearch(params: CommunitySearchParams) {
  const client = useApiClient();
  return useQuery({
    queryKey: communityKeys.search(params),
    queryFn: async () =>
      CommunityHitsSchema.parse(
        await client.get(SEARCH_PATHS[params.scope], {
          accept: INVENIO_JSON,
          query: {
            q: params.query,
            sort: COMMUNITY_SORT,
            page: String(params.page),
            size: String(COMMUNITY_PAGE_SIZE),
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}
