import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CommunityHitsSchema,
  CommunitySuggestionsQuery,
  IncludeCommunitiesResultSchema,
  ParentCommunitiesSchema,
  RemoveCommunitiesResultSchema,
  DefaultCommunityBody,
  IncludeCommunitiesBody,
  RecordCommunitiesQuery,
  RecordIdParams,
  RemoveCommunitiesBody,
} from '@cairn/shared';
import type { Config } from '../../config.js';
import { acceptOnly, JSON_TYPE, negotiate, VND_TYPE, routesPlugin } from '../../lib/http.js';
import { bodyReader, DEFERRED_BODY, validBody } from '../../lib/body.js';
import { documentedResponse, ERROR_RESPONSES } from '../../lib/openapi.js';
import { sendCommunityHits } from '../communities/communities.routes.js';
import { presentParentCommunities } from './record-communities.presenter.js';
import { presentRequest } from '../requests/requests.presenter.js';
import type { RecordCommunitiesService } from './record-communities.service.js';

const TYPES = [JSON_TYPE, VND_TYPE] as const;
const INCLUDED = documentedResponse(
  IncludeCommunitiesResultSchema,
  'The inclusions made or requested, and those refused (400 when none was)',
);
const REMOVED = documentedResponse(
  RemoveCommunitiesResultSchema,
  'The communities the record could not leave (400 when it left none)',
);
const acceptTypes = acceptOnly(TYPES);
export interface RecordCommunitiesRouteDeps {
  config: Config;
  recordCommunities: RecordCommunitiesService;
}

/** A published record's communities (InvenioRDM's `/api/records/{id}/communities`). */
export const recordCommunityRoutes = routesPlugin<RecordCommunitiesRouteDeps>(
  (app: FastifyInstance, deps) => {
    const { config, recordCommunities } = deps;
    const api = app.withTypeProvider<ZodTypeProvider>();
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
      api.get(
        `/api/records/:id/${path}`,
        {
          onRequest: acceptTypes,
          schema: {
            tags,
            summary,
            params: RecordIdParams,
            querystring:
              path === 'communities-suggestions'
                ? CommunitySuggestionsQuery
                : RecordCommunitiesQuery,
            response: { 200: documentedResponse(CommunityHitsSchema, 'A page of communities') },
          },
        },
        async (request, reply) => {
          const { id } = request.params;
          const result = await search(request.identity.user, id, request.query);
          return sendCommunityHits(config, request, reply, `/api/records/${id}/${path}`, result);
        },
      );
    }

    api.post(
      '/api/records/:id/communities',
      {
        onRequest: acceptTypes,
        ...DEFERRED_BODY,
        schema: {
          response: { 200: INCLUDED, 400: ERROR_RESPONSES['4XX'] },
          tags,
          summary:
            'Request inclusion in further communities (200 with processed and errors; 400 when none was processed)',
          params: RecordIdParams,
          body: IncludeCommunitiesBody,
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const { processed, errors } = await recordCommunities.include(
          request.identity.user,
          id,
          validBody(request),
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

    api.delete(
      '/api/records/:id/communities',
      {
        onRequest: acceptTypes,
        ...DEFERRED_BODY,
        schema: {
          response: { 200: REMOVED, 400: ERROR_RESPONSES['4XX'] },
          tags,
          summary:
            'Remove the record from communities (record owner, or curators of each community); 400 when none was removed',
          params: RecordIdParams,
          body: RemoveCommunitiesBody,
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const { removed, errors } = await recordCommunities.remove(
          request.identity.user,
          id,
          validBody(request),
        );
        return reply
          .status(removed > 0 ? 200 : 400)
          .type(negotiate(request, TYPES))
          .send(errors.length > 0 ? { errors } : {});
      },
    );

    api.put(
      '/api/records/:id/communities',
      {
        onRequest: acceptTypes,
        ...DEFERRED_BODY,
        schema: {
          response: { 200: documentedResponse(ParentCommunitiesSchema, "The record's parent") },
          tags,
          summary: "Set or unset the record's default community (200 with the parent)",
          params: RecordIdParams,
          body: DefaultCommunityBody,
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const parent = await recordCommunities.setDefault(
          request.identity.user,
          id,
          bodyReader(request),
        );
        return reply.type(negotiate(request, TYPES)).send(presentParentCommunities(parent));
      },
    );
  },
);
