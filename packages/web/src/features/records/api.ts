import { useQuery } from '@tanstack/react-query';
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
