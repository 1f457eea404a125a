import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreatedTokenSchema, TokenListSchema, type CreatedToken, type Token } from '@cairn/shared';
import { useApiClient } from '../../api/useApiClient';

export type { CreatedToken, Token };

const tokensKey = ['user-tokens'] as const;

/** `GET /api/user/tokens` (a Cairn extension): the caller's tokens, without secrets. */
export function useTokens() {
  const client = useApiClient();
  return useQuery({
    queryKey: tokensKey,
    queryFn: async () => TokenListSchema.parse(await client.get('/api/user/tokens')).hits.hits,
  });
}

export function useCreateToken() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) =>
      CreatedTokenSchema.parse(await client.post('/api/user/tokens', { name })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}

export function useRevokeToken() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await client.request(`/api/user/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}
