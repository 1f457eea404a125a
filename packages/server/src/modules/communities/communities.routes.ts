import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AddMembersBody,
  BinaryBody,
  CommunityHitsSchema,
  CommunityJsonSchema,
  FileItemSchema,
  MemberHitsSchema,
  CommunityBody,
  CommunityIdParams,
  CommunityRenameBody,
  CommunitySearchQuery,
  CommunityUpdateBody,
  MembersBody,
  MembersQuery,
  PublicMembersQuery,
  RemoveMembersBody,
} from '@cairn/shared';
import type { Config } from '../../config.js';
import {
  acceptOnly,
  bodyStream,
  JSON_TYPE,
  negotiate,
  requestLocale,
  VND_TYPE,
  routesPlugin,
} from '../../lib/http.js';
import { documentedBody, documentedResponse, noContent } from '../../lib/openapi.js';
import { searchLinks } from '../../lib/search.js';
import { presentCommunity, presentCommunityHits } from './communities.presenter.js';
import {
  type CommunitiesService,
  type Community,
  type CommunityHits,
  type CommunityPermissions,
} from './communities.service.js';

const COMMUNITY_TYPES = [JSON_TYPE, VND_TYPE] as const;
const COMMUNITY = documentedResponse(CommunityJsonSchema, 'The community');
const COMMUNITY_HITS = documentedResponse(CommunityHitsSchema, 'A page of communities');
const acceptCommunityTypes = acceptOnly(COMMUNITY_TYPES);
export interface CommunitiesRouteDeps {
  config: Config;
  communities: CommunitiesService;
}

/** InvenioRDM's communities and members resources. */
export const communityRoutes = routesPlugin<CommunitiesRouteDeps>((app: FastifyInstance, deps) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { config, communities } = deps;
  const tags = ['Communities'];

  function send(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    community: Community & { permissions?: CommunityPermissions },
  ) {
    const type = negotiate(request, COMMUNITY_TYPES);
    const body = presentCommunity(community, community.permissions, {
      siteUrl: config.siteUrl,
      ui: type === VND_TYPE,
      locale: requestLocale(request, config.locales, config.defaultLocale),
    });
    return reply
      .status(status)
      .header('etag', `"${community.row.revisionId}"`)
      .type(type)
      .send(body);
  }

  api.post(
    '/api/communities',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        response: { 201: COMMUNITY },
        tags,
        summary: 'Create a community (201); the caller becomes its owner',
        body: documentedBody(CommunityBody),
      },
    },
    async (request, reply) =>
      send(request, reply, 201, await communities.create(request.identity.user, request.body)),
  );

  api.get(
    '/api/communities',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        response: { 200: COMMUNITY_HITS },
        tags,
        summary:
          'Search communities (q, sort bestmatch|newest|oldest, page, size, type, visibility)',
        querystring: CommunitySearchQuery,
      },
    },
    async (request, reply) =>
      sendCommunityHits(
        config,
        request,
        reply,
        '/api/communities',
        await communities.search(request.identity.user, request.query),
      ),
  );

  api.get(
    '/api/user/communities',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        response: { 200: COMMUNITY_HITS },
        tags,
        summary: "Search the caller's communities (403 anonymous)",
        querystring: CommunitySearchQuery,
      },
    },
    async (request, reply) =>
      sendCommunityHits(
        config,
        request,
        reply,
        '/api/user/communities',
        await communities.search(request.identity.user, request.query, true),
      ),
  );

  api.get(
    '/api/communities/:id',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        response: { 200: COMMUNITY },
        tags,
        summary: 'Read a community by uuid or slug (410 once deleted)',
        params: CommunityIdParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return send(request, reply, 200, await communities.read(request.identity.user, id));
    },
  );

  api.put(
    '/api/communities/:id',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        response: { 200: COMMUNITY },
        tags,
        summary: 'Update metadata and access (owners); If-Match honoured',
        params: CommunityIdParams,
        body: documentedBody(CommunityUpdateBody),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return send(
        request,
        reply,
        200,
        await communities.update(
          request.identity.user,
          id,
          request.body,
          request.headers['if-match'],
        ),
      );
    },
  );

  api.delete(
    '/api/communities/:id',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        response: { 204: noContent('Deleted') },
        tags,
        summary: 'Delete a community (owners); it answers 410 afterwards',
        params: CommunityIdParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await communities.delete(request.identity.user, id, request.headers['if-match']);
      return reply.status(204).send();
    },
  );

  api.post(
    '/api/communities/:id/rename',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        response: { 200: COMMUNITY },
        tags,
        summary: 'Change the slug (owners)',
        params: CommunityIdParams,
        body: documentedBody(CommunityRenameBody),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return send(
        request,
        reply,
        200,
        await communities.rename(request.identity.user, id, request.body),
      );
    },
  );

  api.put(
    '/api/communities/:id/logo',
    {
      onRequest: acceptCommunityTypes,
      config: { binaryBody: true },
      schema: {
        response: { 200: documentedResponse(FileItemSchema, 'The stored logo') },
        tags,
        summary: 'Upload the logo (owners; application/octet-stream, at most 1 MB)',
        params: CommunityIdParams,
        consumes: ['application/octet-stream'],
        body: documentedBody(BinaryBody, 'The image'),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { community, size, checksum } = await communities.setLogo(
        request.identity.user,
        id,
        bodyStream(request),
      );
      // InvenioRDM answers the logo upload with raw JSON, never negotiated.
      return reply.type(JSON_TYPE).send({
        key: 'logo',
        size,
        checksum,
        created: community.row.updatedAt,
        updated: community.row.updatedAt,
        links: { self: `${config.siteUrl}/api/communities/${community.row.id}/logo` },
      });
    },
  );

  api.get(
    '/api/communities/:id/logo',
    {
      schema: {
        response: { 200: documentedResponse(BinaryBody, 'The image') },
        tags,
        summary: 'Download the logo (raw bytes)',
        params: CommunityIdParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const logo = await communities.readLogo(request.identity.user, id);
      return (
        reply
          .type(imageType(logo))
          .header('x-content-type-options', 'nosniff')
          // An SVG logo is a document: it may not run scripts when opened on its own.
          .header(
            'content-security-policy',
            "default-src 'none'; style-src 'unsafe-inline'; sandbox",
          )
          .send(logo)
      );
    },
  );

  api.delete(
    '/api/communities/:id/logo',
    {
      schema: {
        response: { 204: noContent('Removed') },
        tags,
        summary: 'Remove the logo (owners; 204)',
        params: CommunityIdParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await communities.deleteLogo(request.identity.user, id);
      return reply.status(204).send();
    },
  );

  // Members

  for (const publicOnly of [false, true]) {
    api.get(
      publicOnly ? '/api/communities/:id/members/public' : '/api/communities/:id/members',
      {
        onRequest: acceptCommunityTypes,
        schema: {
          tags: ['Community members'],
          summary: publicOnly
            ? 'Search the visible members (when members are public)'
            : 'Search members (members only)',
          params: CommunityIdParams,
          querystring: publicOnly ? PublicMembersQuery : MembersQuery,
          response: { 200: documentedResponse(MemberHitsSchema, 'A page of members') },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const user = request.identity.user;
        const result = await communities.members.listMembers(user, id, request.query, publicOnly);
        const manage = result.community.permissions;
        const path = `/api/communities/${result.community.row.id}/members${publicOnly ? '/public' : ''}`;
        return reply.type(negotiate(request, COMMUNITY_TYPES)).send({
          hits: {
            hits: result.rows.map((m) => ({
              id: `${m.communityId}:${m.userId}`,
              member: {
                type: 'user',
                id: String(m.userId),
                name: m.name || m.email.split('@')[0],
                ...(manage.can_manage_members ? { email: m.email } : {}),
                is_group: false,
              },
              ...(publicOnly ? {} : { role: m.role, visible: m.visible === 1 }),
              is_current_user: m.userId === user?.id,
              ...(publicOnly
                ? {}
                : {
                    permissions: {
                      can_leave: m.userId === user?.id,
                      can_delete: m.userId !== user?.id && manage.can_manage_members,
                      can_update_role: m.userId !== user?.id && manage.can_manage_members,
                      can_update_visible: m.userId === user?.id || manage.can_manage_members,
                    },
                    created: m.createdAt,
                    updated: m.updatedAt,
                    revision_id: m.revisionId,
                  }),
            })),
            total: result.total,
          },
          aggregations: {},
          sortBy: result.params.sort,
          page: result.params.page,
          links: searchLinks(`${config.siteUrl}${path}`, result.params, result.total),
        });
      },
    );
  }

  const memberTags = ['Community members'];
  api.post(
    '/api/communities/:id/members',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        response: { 204: noContent('Added') },
        tags: [...memberTags, 'Cairn extension'],
        summary: 'Add users with a role (owners, managers; 204). InvenioRDM invites users instead.',
        params: CommunityIdParams,
        body: documentedBody(AddMembersBody),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await communities.members.addMembers(request.identity.user, id, request.body);
      return reply.status(204).send();
    },
  );

  api.put(
    '/api/communities/:id/members',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        response: { 204: noContent('Changed') },
        tags: memberTags,
        summary: "Change members' role or visibility (204)",
        params: CommunityIdParams,
        body: documentedBody(MembersBody),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await communities.members.updateMembers(request.identity.user, id, request.body);
      return reply.status(204).send();
    },
  );

  api.delete(
    '/api/communities/:id/members',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        response: { 204: noContent('Removed') },
        tags: memberTags,
        summary: 'Remove members, or leave (204)',
        params: CommunityIdParams,
        body: documentedBody(RemoveMembersBody),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await communities.members.removeMembers(request.identity.user, id, request.body);
      return reply.status(204).send();
    },
  );
});

/** A community search in InvenioRDM's envelope, with the type and visibility facets. */
export function sendCommunityHits(
  config: Config,
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
  result: CommunityHits,
) {
  const type = negotiate(request, COMMUNITY_TYPES);
  const o = {
    siteUrl: config.siteUrl,
    ui: type === VND_TYPE,
    locale: requestLocale(request, config.locales, config.defaultLocale),
  };
  return reply.type(type).send(presentCommunityHits(result, o, `${config.siteUrl}${path}`));
}

/** The logo's type from its first bytes; anything unrecognised is served as bytes. */
function imageType(bytes: Buffer): string {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  if (/^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/i.test(bytes.subarray(0, 512).toString('utf8')))
    return 'image/svg+xml';
  return 'application/octet-stream';
}
