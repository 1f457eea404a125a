import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GrantHitsSchema,
  SecretLinkHitsSchema,
  type AccessSettings,
  type GrantPermission,
  type SecretLinkPermission,
} from '@cairn/shared';
import { ApiError } from '../../../api/client';
import { useApiClient } from '../../../api/useApiClient';

const shareKeys = {
  all: (id: string) => ['share', id] as const,
  links: (id: string) => ['share', id, 'links'] as const,
  grants: (id: string) => ['share', id, 'grants'] as const,
};

const access = (id: string) => `/api/records/${encodeURIComponent(id)}/access`;
/** The access routes answer plain JSON only, as InvenioRDM's do. */
const JSON_ONLY = { accept: 'application/json' };

/** The record's secret links (those who manage it only). */
export function useSecretLinks(id: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: shareKeys.links(id),
    queryFn: async () =>
      SecretLinkHitsSchema.parse(await client.get(`${access(id)}/links`, JSON_ONLY)).hits,
  });
}

/** The record's grants to people, each with the person's name (`expand`). */
export function useGrants(id: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: shareKeys.grants(id),
    queryFn: async () =>
      GrantHitsSchema.parse(
        await client.get(`${access(id)}/users`, { ...JSON_ONLY, query: { expand: '1' } }),
      ).hits,
  });
}

export type ShareChange =
  | {
      kind: 'create-link';
      permission: SecretLinkPermission;
      expiresAt: string;
      description: string;
    }
  | { kind: 'update-link'; linkId: string; permission?: SecretLinkPermission; expiresAt?: string }
  | { kind: 'revoke-link'; linkId: string }
  | {
      kind: 'grant';
      userId: string;
      permission: GrantPermission;
      message: string;
      notify: boolean;
    }
  | { kind: 'update-grant'; userId: string; permission: GrantPermission }
  | { kind: 'revoke-grant'; userId: string };

/** Every change to the record's links and grants; each refreshes both lists. */
export function useShareMutation(id: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const base = access(id);
  return useMutation({
    mutationFn: async (change: ShareChange): Promise<unknown> => {
      switch (change.kind) {
        case 'create-link':
          return client.post(
            `${base}/links`,
            {
              permission: change.permission,
              ...(change.expiresAt ? { expires_at: change.expiresAt } : {}),
              ...(change.description ? { description: change.description } : {}),
            },
            JSON_ONLY,
          );
        case 'update-link':
          return client.request(`${base}/links/${encodeURIComponent(change.linkId)}`, {
            ...JSON_ONLY,
            method: 'PATCH',
            body: {
              ...(change.permission ? { permission: change.permission } : {}),
              ...(change.expiresAt ? { expires_at: change.expiresAt } : {}),
            },
          });
        case 'revoke-link':
          return client.request(`${base}/links/${encodeURIComponent(change.linkId)}`, {
            ...JSON_ONLY,
            method: 'DELETE',
          });
        case 'grant':
          return client.post(
            `${base}/grants`,
            {
              grants: [
                { subject: { type: 'user', id: change.userId }, permission: change.permission },
              ],
              ...(change.message ? { message: change.message } : {}),
              notify: change.notify,
            },
            JSON_ONLY,
          );
        case 'update-grant':
          return client.request(`${base}/users/${encodeURIComponent(change.userId)}`, {
            ...JSON_ONLY,
            method: 'PATCH',
            body: { permission: change.permission },
          });
        case 'revoke-grant':
          return client.request(`${base}/users/${encodeURIComponent(change.userId)}`, {
            ...JSON_ONLY,
            method: 'DELETE',
          });
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: shareKeys.all(id) }),
  });
}

/**
 * What the server said went wrong, in its own words: the field messages of a refused body
 * ("Could not find the specified subject.") rather than its general "A validation error
 * occurred.", else its message; undefined when no server answered.
 */
export function shareErrorOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || !error.hasServerMessage) return undefined;
  const details = (error.errors ?? []).flatMap((e) => e.messages);
  return details.length > 0 ? details.join(' ') : error.message;
}

/**
 * The address a link's holder opens: the landing page with the token; the draft's preview
 * (`?preview=1`) while the record was never published, since only the draft exists then.
 */
export function secretLinkUrl(
  origin: string,
  id: string,
  token: string,
  isPublished: boolean,
): string {
  const url = new URL(`/records/${encodeURIComponent(id)}`, origin);
  if (!isPublished) url.searchParams.set('preview', '1');
  url.searchParams.set('token', token);
  return url.toString();
}

/** `PUT /api/records/{id}/access`: the record's access settings, replaced. */
export function useUpdateAccessSettings(recordId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: AccessSettings) =>
      client.put(`/api/records/${encodeURIComponent(recordId)}/access`, settings),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['records', recordId] }),
  });
}
