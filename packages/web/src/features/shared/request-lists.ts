import { useQuery } from '@tanstack/react-query';
import { RequestCountSchema, RequestHitsSchema, type RequestCount } from '@cairn/shared';
import { useApiClient } from '../../api/useApiClient';

/*
 * Lists of requests and the header's count, read by the requests inbox, the community page (its
 * open count) and the header; keyed together so that deciding a request refreshes them all.
 */

export const inboxKeys = {
  all: ['request-lists'] as const,
  list: (path: string, params: Record<string, string>) => ['request-lists', path, params] as const,
  count: ['request-lists', 'awaiting'] as const,
};

/** One page of a requests list. */
export function useRequestList(path: string, params: Record<string, string>, enabled = true) {
  const client = useApiClient();
  return useQuery({
    queryKey: inboxKeys.list(path, params),
    queryFn: async () => RequestHitsSchema.parse(await client.get(path, { query: params })).hits,
    placeholderData: (previous) => previous,
    enabled,
  });
}

/** How often the header asks again how many requests wait for the person. */
export const AWAITING_POLL_MS = 60_000;

/**
 * The open requests waiting for the person's decision: seeded from the page (the server counts
 * them), then asked again every minute and when the window regains focus after a while.
 */
export function useAwaitingCount(enabled: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: inboxKeys.count,
    queryFn: async (): Promise<RequestCount> =>
      RequestCountSchema.parse(await client.get('/api/user/requests/count')),
    enabled,
    staleTime: 15_000,
    refetchInterval: AWAITING_POLL_MS,
    refetchOnWindowFocus: true,
  });
}
