import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApiClient } from '../../api/useApiClient';

/** An InvenioRDM community in the vnd form, whose `ui` carries the caller's view. */
export const CommunityJsonSchema = z.looseObject({
  id: z.string(),
  slug: z.string(),
  metadata: z.looseObject({
    title: z.string().optional(),
    description: z.string().optional(),
    curation_policy: z.string().optional(),
    website: z.string().optional(),
    type: z.looseObject({ id: z.string() }).optional(),
  }),
  access: z
    .looseObject({
      visibility: z.string().optional(),
      members_visibility: z.string().optional(),
      record_submission_policy: z.string().optional(),
      review_policy: z.string().optional(),
    })
    .prefault({}),
  theme: z.looseObject({ enabled: z.boolean().optional() }).optional(),
  links: z.looseObject({
    self: z.string(),
    logo: z.string().optional(),
    records: z.string().optional(),
    members: z.string().optional(),
    public_members: z.string().optional(),
  }),
  ui: z
    .looseObject({
      has_logo: z.boolean().optional(),
      membership_role: z.string().optional(),
      type: z.looseObject({ title_l10n: z.string().optional() }).optional(),
    })
    .optional(),
});
export type CommunityJson = z.infer<typeof CommunityJsonSchema>;

export const CommunityHitsSchema = z.looseObject({
  hits: z.looseObject({ hits: z.array(CommunityJsonSchema), total: z.number() }),
});

/**
 * `GET /api/records/{id}/communities`: the communities a published record belongs to, for its
 * landing page (the first page is plenty: a record joins a handful).
 */
export function useRecordCommunities(id: string, enabled: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: ['records', id, 'communities'] as const,
    queryFn: async () =>
      CommunityHitsSchema.parse(
        await client.get(`/api/records/${encodeURIComponent(id)}/communities`, {
          query: { size: '25' },
        }),
      ).hits,
    enabled,
    staleTime: 60_000,
  });
}
