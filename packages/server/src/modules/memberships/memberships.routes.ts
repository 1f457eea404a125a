import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CommunityIdParams,
  InviteMembersBody,
  MemberRequestHitsSchema,
  MemberRequestsQuery,
  MembersBody,
  MembershipRequestBody,
  RequestJsonSchema,
} from '@cairn/shared';
import type { Config } from '../../config.js';
import { JSON_TYPE, routesPlugin } from '../../lib/http.js';
import { documentedBody, documentedResponse, noContent } from '../../lib/openapi.js';
import { searchLinks } from '../../lib/search.js';
import { presentRequest, requestHtmlUrl } from '../requests/requests.presenter.js';
import { INVITATION, MEMBERSHIP_REQUEST, type MembershipsService } from './memberships.service.js';

export interface MembershipsRouteDeps {
  config: Config;
  memberships: MembershipsService;
}

/** The members resource's invitations and membership requests (InvenioRDM's routes and bodies). */
export const membershipRoutes = routesPlugin<MembershipsRouteDeps>((app: FastifyInstance, deps) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { config, memberships } = deps;
  const tags = ['Community members'];

  for (const [path, type, noun] of [
    ['invitations', INVITATION, 'invitations'],
    ['membership-requests', MEMBERSHIP_REQUEST, 'membership requests'],
  ] as const) {
    api.get(
      `/api/communities/:id/${path}`,
      {
        schema: {
          tags,
          summary: `Search the community's ${noun}, open ones first (owners and managers)`,
          params: CommunityIdParams,
          querystring: MemberRequestsQuery,
          response: { 200: documentedResponse(MemberRequestHitsSchema, `A page of ${noun}`) },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const user = request.identity.user;
        const result = await memberships.search(user, id, type, request.query);
        const api = `${config.siteUrl}/api/requests`;
        return reply.type(JSON_TYPE).send({
          hits: {
            hits: result.rows.map((row) => {
              const open = row.isOpen === 1;
              return {
                id: row.requestId,
                member: {
                  type: 'user',
                  id: String(row.userId),
                  name: row.name || row.email.split('@')[0],
                  email: row.email,
                  is_group: false,
                },
                role: row.role,
                visible: row.visible === 1,
                request: {
                  id: row.requestId,
                  status: row.status,
                  is_open: open,
                  expires_at: row.expiresAt,
                  links: {
                    self: `${api}/${row.requestId}`,
                    self_html: requestHtmlUrl(config.siteUrl, row.requestId),
                  },
                },
                permissions: {
                  can_update_role: open,
                  ...(type === INVITATION
                    ? { can_cancel: open }
                    : { can_accept: open, can_decline: open }),
                },
                created: row.createdAt,
                updated: row.updatedAt,
              };
            }),
            total: result.total,
          },
          aggregations: {},
          sortBy: result.params.sort,
          page: result.params.page,
          links: searchLinks(
            `${config.siteUrl}/api/communities/${result.community.row.id}/${path}`,
            result.params,
            result.total,
          ),
        });
      },
    );

    api.put(
      `/api/communities/:id/${path}`,
      {
        schema: {
          tags,
          summary: `Change the role or visibility open ${noun} would give (204)`,
          params: CommunityIdParams,
          body: documentedBody(MembersBody),
          response: { 204: noContent('Changed') },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        await memberships.update(request.identity.user, id, type, request.body);
        return reply.status(204).send();
      },
    );
  }

  api.post(
    '/api/communities/:id/invitations',
    {
      schema: {
        tags,
        summary:
          'Invite users with a role (owners, managers; 204): each gets a community-invitation request',
        params: CommunityIdParams,
        body: documentedBody(InviteMembersBody),
        response: { 204: noContent('Invited') },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await memberships.invite(request.identity.user, id, request.body);
      return reply.status(204).send();
    },
  );

  api.post(
    '/api/communities/:id/membership-requests',
    {
      schema: {
        tags,
        summary:
          'Ask to join a community whose member policy is open (201, a community-membership-request)',
        params: CommunityIdParams,
        body: documentedBody(MembershipRequestBody),
        response: { 201: documentedResponse(RequestJsonSchema, 'The request') },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const view = await memberships.requestMembership(request.identity.user, id, request.body);
      return reply
        .status(201)
        .header('etag', `"${view.row.revisionId}"`)
        .type(JSON_TYPE)
        .send(presentRequest(view, config.siteUrl));
    },
  );
});
