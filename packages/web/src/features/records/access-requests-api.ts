import { useMutation } from '@tanstack/react-query';
import { RequestJsonSchema } from '@cairn/shared';
import { useApiClient } from '../../api/useApiClient';

/** What a person sends to ask for access: a signed-in person their words, a guest also who they are. */
export interface AccessRequestInput {
  message: string;
  email?: string;
  full_name?: string;
}

/**
 * `POST /api/records/{id}/access/request`: a signed-in person's request (the request JSON), or
 * a guest's, which waits for them to confirm their address (`{message}`).
 */
export function useRequestAccess(recordId: string) {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (input: AccessRequestInput) => {
      const body = await client.post(
        `/api/records/${encodeURIComponent(recordId)}/access/request`,
        input,
      );
      const request = RequestJsonSchema.safeParse(body);
      return request.success ? { request: request.data } : { sent: true as const };
    },
  });
}

/** `POST /api/access-requests/verify`: a guest's confirmation; answers their request. */
export function useVerifyAccessRequest() {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (token: string) =>
      RequestJsonSchema.parse(await client.post('/api/access-requests/verify', { token })),
  });
}
