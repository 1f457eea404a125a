import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { useApiClient } from '../../api/useApiClient';

const TokenSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  created: z.string(),
  last_used: z.string().nullable().optional(),
});
export type Token = z.infer<typeof TokenSchema>;
const TokenListSchema = z.looseObject({ hits: z.looseObject({ hits: z.array(TokenSchema) }) });
const CreatedTokenSchema = TokenSchema.extend({ token: z.string() });
export type CreatedToken = z.infer<typeof CreatedTokenSchema>;

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
