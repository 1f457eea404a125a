import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { acceptOnly, JSON_TYPE, negotiate, VND_TYPE } from '../../lib/http.js';
import { documentedBody, facet, searchQuery } from '../../lib/openapi.js';
import { COMMUNITY_SORTS } from '../communities/communities.service.js';
import { sendCommunityHits } from '../communities/communities.routes.js';
import { presentParentCommunities } from './record-communities.presenter.js';
import { presentRequest } from '../requests/requests.presenter.js';
import {
  COMMUNITIES_PER_CALL,
  type RecordCommunitiesService,
} from './record-communities.service.js';

const TYPES = [JSON_TYPE, VND_TYPE] as const;
const acceptTypes = acceptOnly(TYPES);
const IdParams = z.object({ id: z.string().describe('Record id, e.g. ha4g3-7x208') });
const CommunityRef = z.object({ id: z.string().describe('Community uuid or slug') });
const IncludeBody = z.object({
  communities: z
    .array(
      CommunityRef.extend({
        require_review: z
          .boolean()
          .optional()
          .describe('true: a curator reviews even when the caller may include directly'),
        comment: z
          .object({ payload: z.object({ content: z.string().min(1), format: z.literal('html') }) })
          .optional()
          .describe('A first comment on the inclusion request'),
      }),
    )
    .min(1)
    .max(COMMUNITIES_PER_CALL),
});
const RemoveBody = z.object({
  communities: z.array(CommunityRef).min(1).max(COMMUNITIES_PER_CALL),
});
const DefaultBody = z.object({
  default: z
    .string()
    .nullable()
    .describe('A community of the record (uuid or slug); null or "" unsets'),
});

export interface RecordCommunitiesRouteDeps {
  config: Config;
  recordCommunities: RecordCommunitiesService;
}

/** A published record's communities (InvenioRDM's `/api/records/{id}/communities`). */
export function registerRecordCommunityRoutes(
  app: FastifyInstance,
  deps: RecordCommunitiesRouteDeps,
): void {
  const { config, recordCommunities } = deps;
  const tags = ['Record communities'];

  const searches = [
    {
      path: 'communities',
      summary: "Search the record's communities (q, sort, page, size)",
      search: recordCommunities.list.bind(recordCommunities),
    },
    {
      path: 'communities-suggestions',
      summary:
        'Communities the record could still join (q, sort, page, size; membership=true: only the caller’s)',
      search: recordCommunities.suggestions.bind(recordCommunities),
    },
  ];
  for (const { path, summary, search } of searches) {
    app.get(
      `/api/records/:id/${path}`,
      {
        onRequest: acceptTypes,
        schema: {
          tags,
          summary,
          params: IdParams,
          querystring: searchQuery(COMMUNITY_SORTS, {
            type: facet(),
            visibility: facet(['public', 'restricted']),
            ...(path === 'communities-suggestions'
              ? { membership: z.enum(['true', 'false']) }
              : {}),
          }),
        },
      },
      async (request, reply) => {
        const { id } = request.params as z.infer<typeof IdParams>;
        const result = await search(
          request.identity.user,
          id,
          request.query as Record<string, unknown>,
        );
        return sendCommunityHits(config, request, reply, `/api/records/${id}/${path}`, result);
      },
    );
  }

  app.post(
    '/api/records/:id/communities',
    {
      onRequest: acceptTypes,
      schema: {
        tags,
        summary:
          'Request inclusion in further communities (200 with processed and errors; 400 when none was processed)',
        params: IdParams,
        body: documentedBody(IncludeBody),
      },
    },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof IdParams>;
      const { processed, errors } = await recordCommunities.include(
        request.identity.user,
        id,
        request.body,
      );
      return reply
        .status(processed.length > 0 ? 200 : 400)
        .type(negotiate(request, TYPES))
        .send({
          ...(processed.length > 0
            ? {
                processed: processed.map((p) => ({
                  community_id: p.community_id,
                  request_id: p.request_id,
                  request: presentRequest(p.view, config.siteUrl),
                })),
              }
            : {}),
          ...(errors.length > 0 ? { errors } : {}),
        });
    },
  );

  app.delete(
    '/api/records/:id/communities',
    {
      onRequest: acceptTypes,
      schema: {
        tags,
        summary:
          'Remove the record from communities (record owner, or curators of each community); 400 when none was removed',
        params: IdParams,
        body: documentedBody(RemoveBody),
      },
    },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof IdParams>;
      const { removed, errors } = await recordCommunities.remove(
        request.identity.user,
        id,
        request.body,
      );
      return reply
        .status(removed > 0 ? 200 : 400)
        .type(negotiate(request, TYPES))
        .send(errors.length > 0 ? { errors } : {});
    },
  );

  app.put(
    '/api/records/:id/communities',
    {
      onRequest: acceptTypes,
      schema: {
        tags,
        summary: "Set or unset the record's default community (200 with the parent)",
        params: IdParams,
        body: documentedBody(DefaultBody),
      },
    },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof IdParams>;
      const parent = await recordCommunities.setDefault(request.identity.user, id, request.body);
      return reply.type(negotiate(request, TYPES)).send(presentParentCommunities(parent));
    },
  );
}
