import { QueryClient, type QueryClient as QueryClientType } from '@tanstack/react-query';
import { matchPath } from 'react-router';
import { ApiError } from '../api/client';
import type { Bootstrap } from '../bootstrap';
import { draftKeys } from '../features/deposit/api';
import { inboxKeys } from '../features/shared/request-lists';
import { recordKeys } from '../features/shared/records-api';

export function createQueryClient(): QueryClientType {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A client error will not go away by asking again; a flaky network might.
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) &&
          failureCount < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
}

/**
 * Puts the draft or record the server rendered into the page into the cache, so the first
 * render needs no request. Only the page the server rendered it for gets it: later client-side
 * navigations fetch through the API.
 */
export function seedQueryCache(
  queryClient: QueryClientType,
  bootstrap: Bootstrap,
  location: { pathname: string; search: string },
): void {
  if (bootstrap.user && bootstrap.awaitingRequests !== null) {
    queryClient.setQueryData(inboxKeys.count, { awaiting: bootstrap.awaitingRequests });
  }
  const upload = matchPath('/uploads/:id', location.pathname);
  const { draft, record } = bootstrap;
  if (upload?.params.id && draft?.id === upload.params.id) {
    queryClient.setQueryData(draftKeys.detail(draft.id), draft);
  }
  const landing = matchPath('/records/:id', location.pathname);
  if (landing?.params.id && record?.id === landing.params.id) {
    const isPreview = new URLSearchParams(location.search).get('preview') === '1';
    queryClient.setQueryData(
      isPreview ? recordKeys.preview(record.id) : recordKeys.detail(record.id),
      record,
    );
  }
}
