import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RecordJsonSchema, type RecordJson } from '../../api/records';
import { useApiClient } from '../../api/useApiClient';
import { useBootstrap } from '../../bootstrap';
import type { DraftPayload } from './serializer';

// The editor asks for expanded references on every draft call (reference §1.0).
const EXPAND = { expand: '1' };

export const draftKeys = {
  detail: (id: string) => ['drafts', id] as const,
};

/**
 * The draft behind `/uploads/:id`. Never refetched by itself: once the form is filled from it,
 * the form owns the values and each save writes the server's answer back into the cache.
 */
export function useDraft(id: string | undefined) {
  const client = useApiClient();
  return useQuery({
    queryKey: draftKeys.detail(id ?? ''),
    queryFn:
      id === undefined
        ? skipToken
        : async () =>
            RecordJsonSchema.parse(
              await client.get(`/api/records/${encodeURIComponent(id)}/draft`, { query: EXPAND }),
            ),
    staleTime: Infinity,
  });
}

export interface SaveDraftInput {
  payload: DraftPayload;
  /** The draft as last saved; null creates a new draft. */
  draft: RecordJson | null;
}

/**
 * Creates the draft (POST to the configured create URL) or replaces it (PUT its `self` link,
 * with `If-Match` so another tab's save is not overwritten). A 2xx answer may still carry
 * `errors`: the draft was stored without the invalid values (reference §1.0).
 */
export function useSaveDraft() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const { config } = useBootstrap();
  return useMutation({
    mutationFn: async ({ payload, draft }: SaveDraftInput) => {
      const body = draft
        ? await client.put(requireLink(draft, 'self'), payload, {
            query: EXPAND,
            ...(draft.revision_id === undefined ? {} : { ifMatch: draft.revision_id }),
          })
        : await client.post(config.createUrl, payload, { query: EXPAND });
      return RecordJsonSchema.parse(body);
    },
    onSuccess: (draft) => queryClient.setQueryData(draftKeys.detail(draft.id), draft),
  });
}

/** Publishes a saved draft; answers the published record (HTTP 202). */
export function usePublishDraft() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (draft: RecordJson) =>
      RecordJsonSchema.parse(
        await client.post(requireLink(draft, 'publish'), {}, { query: EXPAND }),
      ),
    onSuccess: (record) => queryClient.removeQueries({ queryKey: draftKeys.detail(record.id) }),
  });
}

function requireLink(draft: RecordJson, name: 'self' | 'publish'): string {
  const link = draft.links[name];
  if (!link) throw new Error(`Draft ${draft.id} has no "${name}" link.`);
  return link;
}
