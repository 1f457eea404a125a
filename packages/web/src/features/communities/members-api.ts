import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MemberHitsSchema,
  MemberRequestHitsSchema,
  RequestJsonSchema,
  type CommunityJson,
} from '@cairn/shared';
import { useApiClient } from '../../api/useApiClient';
import { MEMBERS_PAGE_SIZE } from './api';

const ALL_ROLES = ['owner', 'manager', 'curator', 'reader'] as const;

/**
 * The roles the person may give, change or take away here (the server's rule: owners all,
 * managers up to manager, administrators all); none for the others.
 */
export function manageableRoles(community: CommunityJson, isAdmin: boolean): readonly string[] {
  const role = community.ui?.membership_role;
  if (isAdmin || role === 'owner') return ALL_ROLES;
  return role === 'manager' ? ALL_ROLES.slice(1) : [];
}

const memberKeys = {
  all: (communityId: string) => ['communities', communityId, 'members'] as const,
};

function base(community: CommunityJson) {
  return `/api/communities/${encodeURIComponent(community.id)}`;
}

/** A page of the community's members (members only), searched by name or address. */
export function useMembersPage(community: CommunityJson, q: string, page: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: [...memberKeys.all(community.id), 'page', q, page] as const,
    queryFn: async () =>
      MemberHitsSchema.parse(
        await client.get(`${base(community)}/members`, {
          query: {
            ...(q ? { q } : {}),
            page: String(page),
            size: String(MEMBERS_PAGE_SIZE),
          },
        }),
      ).hits,
    placeholderData: keepPreviousData,
  });
}

export type MemberRequestKind = 'invitations' | 'membership-requests';

/** The community's invitations or requests to join (owners and managers), open ones first. */
export function useMemberRequests(community: CommunityJson, kind: MemberRequestKind) {
  const client = useApiClient();
  return useQuery({
    queryKey: [...memberKeys.all(community.id), kind] as const,
    queryFn: async () =>
      MemberRequestHitsSchema.parse(
        await client.get(`${base(community)}/${kind}`, { query: { size: '50' } }),
      ).hits,
  });
}

const user = (id: string) => ({ type: 'user', id });

/**
 * Every change to members, invitations or requests to join: each refreshes the community's
 * lists (and the community itself, whose `ui.membership_role` may be the person's own).
 */
export function useMembersMutation(community: CommunityJson) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const url = base(community);
  return useMutation({
    mutationFn: async (change: MembersChange): Promise<unknown> => {
      switch (change.kind) {
        case 'role':
        case 'visible':
          return client.put(`${url}/members`, {
            members: [user(change.userId)],
            ...(change.kind === 'role' ? { role: change.role } : { visible: change.visible }),
          });
        case 'remove':
          return client.request(`${url}/members`, {
            method: 'DELETE',
            body: { members: [user(change.userId)] },
          });
        case 'invite':
          return client.post(`${url}/invitations`, {
            members: [user(change.userId)],
            role: change.role,
            ...(change.message ? { message: change.message } : {}),
          });
        case 'offer':
          return client.put(`${url}/${change.of}`, {
            members: [user(change.userId)],
            role: change.role,
          });
        case 'decide':
          return client.post(
            `/api/requests/${encodeURIComponent(change.requestId)}/actions/${change.action}`,
          );
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['communities'] }),
  });
}

export type MembersChange =
  | { kind: 'role'; userId: string; role: string }
  | { kind: 'visible'; userId: string; visible: boolean }
  | { kind: 'remove'; userId: string }
  | { kind: 'invite'; userId: string; role: string; message: string }
  | { kind: 'offer'; of: MemberRequestKind; userId: string; role: string }
  | { kind: 'decide'; requestId: string; action: 'accept' | 'decline' | 'cancel' };

/** `POST …/membership-requests`: asks to join; answers the request made. */
export function useRequestMembership(community: CommunityJson) {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (message: string) =>
      RequestJsonSchema.parse(
        await client.post(`${base(community)}/membership-requests`, message ? { message } : {}),
      ),
  });
}
