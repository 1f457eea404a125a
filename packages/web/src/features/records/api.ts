import { useQuery } from '@tanstack/react-query';
import { ContainerListingSchema, RecordHitsSchema } from '@cairn/shared';
import { useApiClient } from '../../api/useApiClient';

/** `GET /api/records/{id}/versions`: the published versions, newest first, a page at a time. */
export function useVersions(id: string, page: number, enabled: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: ['records', id, 'versions', page] as const,
    queryFn: async () =>
      RecordHitsSchema.parse(
        await client.get(`/api/records/${encodeURIComponent(id)}/versions`, {
          query: { page: String(page), size: String(VERSIONS_PAGE_SIZE), sort: 'version' },
        }),
      ),
    enabled,
    staleTime: 60_000,
  });
}
export const VERSIONS_PAGE_SIZE = 5;

/**
 * The record in one export format, by `Accept` on the record (text as the server wrote it);
 * `query` carries the format's arguments (`?style=apa`).
 */
export function useExport(id: string, mediaType: string, query = '') {
  const client = useApiClient();
  return useQuery({
    queryKey: ['records', id, 'export', mediaType, query] as const,
    queryFn: async () => {
      const body = await client.get(`/api/records/${encodeURIComponent(id)}${query}`, {
        accept: mediaType,
      });
      return typeof body === 'string' ? body : JSON.stringify(body);
    },
    staleTime: Infinity,
  });
}

/** The first bytes of a file, as text, for a preview. */
export function useFilePrefix(url: string, maxBytes: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: ['file-prefix', url, maxBytes] as const,
    queryFn: () => client.getTextPrefix(url, maxBytes),
    staleTime: Infinity,
  });
}

/** What a zip or tar file holds (`…/files/{key}/container`), listed by the server. */
export function useContainerListing(contentUrl: string) {
  const client = useApiClient();
  const url = contentUrl.replace(/\/content$/, '/container');
  return useQuery({
    queryKey: ['file-container', url] as const,
    queryFn: async () => ContainerListingSchema.parse(await client.get(url)),
    staleTime: Infinity,
  });
}
