import { useMutation, useQuery } from '@tanstack/react-query';
import { MemberHitsSchema } from '@cairn/shared';
import { toRequestPath } from '../../api/client';
import { useApiClient } from '../../api/useApiClient';
import {
  CommunityHitsSchema,
  CommunityJsonSchema,
  type CommunityJson,
} from '../shared/communities';

export const COMMUNITIES_PAGE_SIZE = 10;
export const MEMBERS_PAGE_SIZE = 25;

export interface CommunitiesQuery {
  q: string;
  sort: string;
  page: number;
}

/** `GET /api/communities`: the communities the caller may see, searched and paged. */
export function useCommunities(query: CommunitiesQuery) {
  const client = useApiClient();
  return useQuery({
    queryKey: ['communities', 'search', query] as const,
    queryFn: async () =>
      CommunityHitsSchema.parse(
        await client.get('/api/communities', {
          query: {
            ...(query.q ? { q: query.q } : {}),
            sort: query.sort,
            page: String(query.page),
            size: String(COMMUNITIES_PAGE_SIZE),
          },
        }),
      ).hits,
    placeholderData: (previous) => previous,
  });
}

export { useCommunity } from '../shared/communities';

/**
 * Where `GET /api/communities/{id}/records` answers for `community`: its link, as a path on this
 * origin. It takes the parameters of `GET /api/records`, facets and query syntax included.
 */
export function communityRecordsUrl(community: CommunityJson): string {
  return toRequestPath(community.links.records ?? `${community.links.self}/records`);
}

/**
 * Which members list the person may read: members read the full one, with roles
 * (`GET …/members`); others the public one while the community shows its members; else none.
 */
export type MembersScope = 'all' | 'public' | 'none';

export function membersScopeOf(community: CommunityJson): MembersScope {
  if (community.ui?.membership_role) return 'all';
  return community.access.members_visibility === 'restricted' ? 'none' : 'public';
}

/** The first page of the community's members, from the list `scope` names. */
export function useCommunityMembers(community: CommunityJson, scope: MembersScope) {
  const client = useApiClient();
  const url =
    scope === 'all'
      ? (community.links.members ?? `${community.links.self}/members`)
      : (community.links.public_members ?? `${community.links.self}/members/public`);
  return useQuery({
    queryKey: ['communities', community.id, 'members', scope] as const,
    queryFn: async () =>
      MemberHitsSchema.parse(await client.get(url, { query: { size: String(MEMBERS_PAGE_SIZE) } }))
        .hits,
    enabled: scope !== 'none',
    retry: false,
  });
}

/** The body of `POST /api/communities` as the form fills it. */
export interface NewCommunity {
  slug: string;
  metadata: { title: string; description: string };
  access: {
    visibility: 'public' | 'restricted';
    review_policy: 'closed' | 'open' | 'members';
    record_submission_policy: 'open' | 'closed';
  };
}

export function useCreateCommunity() {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (body: NewCommunity) =>
      CommunityJsonSchema.parse(
        await client.post('/api/communities', {
          ...body,
          slug: body.slug.trim(),
          metadata: {
            title: body.metadata.title.trim(),
            ...(body.metadata.description.trim()
              ? { description: body.metadata.description.trim() }
              : {}),
          },
        }),
      ),
  });
}
