import { useMutation, useQuery } from '@tanstack/react-query';
import { RecordJsonSchema } from '../../api/records';
import { useApiClient } from '../../api/useApiClient';

export const recordKeys = {
  detail: (id: string) => ['records', id] as const,
  /** `?preview=1` shows the draft as it would look published. */
  preview: (id: string) => ['records', id, 'preview'] as const,
};

/** The published record, or with `isPreview` the draft behind it. */
export function useRecord(id: string, isPreview: boolean) {
  const client = useApiClient();
  const path = `/api/records/${encodeURIComponent(id)}`;
  return useQuery({
    queryKey: isPreview ? recordKeys.preview(id) : recordKeys.detail(id),
    queryFn: async () =>
      RecordJsonSchema.parse(await client.get(isPreview ? `${path}/draft` : path)),
    // The record the server rendered into the page is current: no second request on first render.
    staleTime: 60_000,
  });
}

/**
 * Opens a draft from a published record: `new-version` (POST …/versions) or `edit`
 * (POST …/draft). Either answers the draft, whose id the form then opens.
 */
export function useOpenDraft() {
  const client = useApiClient();
  return useMutation({
    mutationFn: async ({ id, kind }: { id: string; kind: 'new-version' | 'edit' }) => {
      const path = `/api/records/${encodeURIComponent(id)}/${kind === 'edit' ? 'draft' : 'versions'}`;
      return RecordJsonSchema.parse(await client.post(path, undefined, { query: { expand: '1' } }));
    },
  });
}
