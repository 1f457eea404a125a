import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { acceptOnly, JSON_TYPE, negotiate, requestLocale, VND_TYPE } from '../../lib/http.js';
import { documentedBody, facet, searchQuery } from '../../lib/openapi.js';
import { searchLinks } from '../../lib/search.js';
import { presentCommunity } from './communities.presenter.js';
import {
  COMMUNITY_ROLES,
  COMMUNITY_SORTS,
  type CommunitiesService,
  type Community,
  type CommunityHits,
  type CommunityPermissions,
} from './communities.service.js';
import { COMMUNITY_TYPES as COMMUNITY_TYPE_TITLES } from './communities.validation.js';

const COMMUNITY_TYPES = [JSON_TYPE, VND_TYPE] as const;
const acceptCommunityTypes = acceptOnly(COMMUNITY_TYPES);
const IdParams = z.object({
  id: z.string().describe('Community uuid or slug'),
});

const Access = z
  .object({
    visibility: z.enum(['public', 'restricted']).optional(),
    members_visibility: z.enum(['public', 'restricted']).optional(),
    member_policy: z.enum(['open', 'closed']).optional(),
    record_submission_policy: z.enum(['open', 'closed']).optional(),
    record_policy: z
      .enum(['open', 'closed'])
      .optional()
      .describe('Legacy name of record_submission_policy'),
    review_policy: z.enum(['open', 'closed', 'members']).optional(),
  })
  .describe('Who sees the community and how records get in');
const CommunityBody = z
  .object({
    slug: z.string().describe('Letters, digits, - and _; at most 100; not a uuid; unique'),
    metadata: z.object({
      title: z.string().describe('1 to 250 characters'),
      description: z.string().optional().describe('At most 250 characters'),
      curation_policy: z.string().optional().describe('HTML, at most 50,000 characters'),
      page: z.string().optional().describe('HTML, at most 50,000 characters'),
      type: z.object({ id: z.enum(['organization', 'event', 'topic', 'project']) }).optional(),
      website: z.string().optional(),
      organizations: z
        .array(z.object({ id: z.string().optional(), name: z.string().optional() }))
        .optional(),
      funding: z.array(z.record(z.string(), z.unknown())).optional(),
    }),
    access: Access.optional(),
    theme: z
      .object({ enabled: z.boolean() })
      .optional()
      .describe('Administrators only: Verified badge'),
    upload_form: z
      .object({ enabled: z.boolean() })
      .optional()
      .describe('Cairn extension, administrators only: the community has its own deposit form'),
  })
  .describe('A community');
const MembersBody = z.object({
  members: z
    .array(z.object({ type: z.literal('user'), id: z.string() }))
    .min(1)
    .max(100),
  role: z.enum(COMMUNITY_ROLES).optional(),
  visible: z.boolean().optional(),
});
const RenameBody = z.object({ slug: z.string() });
const COMMUNITY_SEARCH_QUERY = searchQuery(COMMUNITY_SORTS, {
  type: facet(Object.keys(COMMUNITY_TYPE_TITLES) as [string, ...string[]]),
  visibility: facet(['public', 'restricted']),
});

export interface CommunitiesRouteDeps {
  config: Config;
  communities: CommunitiesService;
}

/** InvenioRDM's communities and members resources. */
export function registerCommunityRoutes(app: FastifyInstance, deps: CommunitiesRouteDeps): void {
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

  app.post(
    '/api/communities',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        tags,
        summary: 'Create a community (201); the caller becomes its owner',
        body: documentedBody(CommunityBody),
      },
    },
    async (request, reply) =>
      send(request, reply, 201, await communities.create(request.identity.user, request.body)),
  );

  app.get(
    '/api/communities',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        tags,
        summary:
          'Search communities (q, sort bestmatch|newest|oldest, page, size, type, visibility)',
        querystring: COMMUNITY_SEARCH_QUERY,
      },
    },
    async (request, reply) =>
      sendCommunityHits(
        config,
        request,
        reply,
        '/api/communities',
        await communities.search(request.identity.user, request.query as Record<string, unknown>),
      ),
  );

  app.get(
    '/api/user/communities',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        tags,
        summary: "Search the caller's communities (403 anonymous)",
        querystring: COMMUNITY_SEARCH_QUERY,
      },
    },
    async (request, reply) =>
      sendCommunityHits(
        config,
        request,
        reply,
        '/api/user/communities',
        await communities.search(
          request.identity.user,
          request.query as Record<string, unknown>,
          true,
        ),
      ),
  );

  app.get(
    '/api/communities/:id',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        tags,
        summary: 'Read a community by uuid or slug (410 once deleted)',
        params: IdParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof IdParams>;
      return send(request, reply, 200, await communities.read(request.identity.user, id));
    },
  );

  app.put(
    '/api/communities/:id',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        tags,
        summary: 'Update metadata and access (owners); If-Match honoured',
        params: IdParams,
        body: documentedBody(CommunityBody.omit({ slug: true })),
      },
    },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof IdParams>;
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

  app.delete(
    '/api/communities/:id',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        tags,
        summary: 'Delete a community (owners); it answers 410 afterwards',
        params: IdParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof IdParams>;
      await communities.delete(request.identity.user, id, request.headers['if-match']);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/communities/:id/rename',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        tags,
        summary: 'Change the slug (owners)',
        params: IdParams,
        body: documentedBody(RenameBody),
      },
    },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof IdParams>;
      return send(
        request,
        reply,
        200,
        await communities.rename(request.identity.user, id, request.body),
      );
    },
  );

  app.put(
    '/api/communities/:id/logo',
    {
      onRequest: acceptCommunityTypes,
      config: { binaryBody: true },
      schema: {
        tags,
        summary: 'Upload the logo (owners; application/octet-stream, at most 1 MB)',
        params: IdParams,
        consumes: ['application/octet-stream'],
      },
    },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof IdParams>;
      const { community, size, checksum } = await communities.setLogo(
        request.identity.user,
        id,
        request.body as Readable,
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

  app.get(
    '/api/communities/:id/logo',
    { schema: { tags, summary: 'Download the logo (raw bytes)', params: IdParams } },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof IdParams>;
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

  app.delete(
    '/api/communities/:id/logo',
    { schema: { tags, summary: 'Remove the logo (owners; 204)', params: IdParams } },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof IdParams>;
      await communities.deleteLogo(request.identity.user, id);
      return reply.status(204).send();
    },
  );

  // Members

  for (const publicOnly of [false, true]) {
    app.get(
      publicOnly ? '/api/communities/:id/members/public' : '/api/communities/:id/members',
      {
        onRequest: acceptCommunityTypes,
        schema: {
          tags: ['Community members'],
          summary: publicOnly
            ? 'Search the visible members (when members are public)'
            : 'Search members (members only)',
          params: IdParams,
          querystring: searchQuery(['name'], publicOnly ? {} : { role: facet(COMMUNITY_ROLES) }),
        },
      },
      async (request, reply) => {
        const { id } = request.params as z.infer<typeof IdParams>;
        const user = request.identity.user;
        const result = await communities.listMembers(
          user,
          id,
          request.query as Record<string, unknown>,
          publicOnly,
        );
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
  app.post(
    '/api/communities/:id/members',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        tags: [...memberTags, 'Cairn extension'],
        summary: 'Add users with a role (owners, managers; 204). InvenioRDM invites users instead.',
        params: IdParams,
        body: documentedBody(MembersBody.required({ role: true })),
      },
    },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof IdParams>;
      await communities.addMembers(request.identity.user, id, request.body);
      return reply.status(204).send();
    },
  );

  app.put(
    '/api/communities/:id/members',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        tags: memberTags,
        summary: "Change members' role or visibility (204)",
        params: IdParams,
        body: documentedBody(MembersBody),
      },
    },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof IdParams>;
      await communities.updateMembers(request.identity.user, id, request.body);
      return reply.status(204).send();
    },
  );

  app.delete(
    '/api/communities/:id/members',
    {
      onRequest: acceptCommunityTypes,
      schema: {
        tags: memberTags,
        summary: 'Remove members, or leave (204)',
        params: IdParams,
        body: documentedBody(MembersBody.pick({ members: true })),
      },
    },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof IdParams>;
      await communities.removeMembers(request.identity.user, id, request.body);
      return reply.status(204).send();
    },
  );
}

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
  const bucket =
    (selected: string[] | undefined, label: (k: string) => string) =>
    (b: { key: string; count: number }) => ({
      key: b.key,
      doc_count: b.count,
      label: label(b.key),
      is_selected: selected?.includes(b.key) ?? false,
      inner: { buckets: [] },
    });
  const capital = (k: string) => k.charAt(0).toUpperCase() + k.slice(1);
  return reply.type(type).send({
    hits: {
      hits: result.communities.map((c) => presentCommunity(c, c.permissions, o)),
      total: result.total,
    },
    aggregations: {
      type: {
        label: 'Type',
        buckets: result.facets.type.map(bucket(result.params.filters.type, capital)),
      },
      visibility: {
        label: 'Visibility',
        buckets: result.facets.visibility.map(bucket(result.params.filters.visibility, capital)),
      },
    },
    sortBy: result.params.sort,
    page: result.params.page,
    links: searchLinks(`${config.siteUrl}${path}`, result.params, result.total),
  });
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
