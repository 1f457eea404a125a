import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { RequestJsonSchema, ReviewBody, ReviewDraftParams, SubmitReviewBody } from '@cairn/shared';
import type { Config } from '../../config.js';
import { acceptOnly, JSON_TYPE, negotiate, VND_TYPE, routesPlugin } from '../../lib/http.js';
import { bodyReader, DEFERRED_BODY } from '../../lib/body.js';
import { documentedResponse, noContent } from '../../lib/openapi.js';
import { presentRequest } from '../requests/requests.presenter.js';
import type { RequestView } from '../requests/requests.service.js';
import type { ReviewsService } from './reviews.service.js';

const REVIEW = documentedResponse(RequestJsonSchema, 'The review request');

const TYPES = [JSON_TYPE, VND_TYPE] as const;
const acceptTypes = acceptOnly(TYPES);
export interface ReviewsRouteDeps {
  config: Config;
  reviews: ReviewsService;
}

/** A draft's community review (InvenioRDM's `/api/records/{id}/draft/review`). */
export const reviewRoutes = routesPlugin<ReviewsRouteDeps>((app: FastifyInstance, deps) => {
  const { config, reviews } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Reviews'];

  function send(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    view: RequestView,
    extraLinks: Record<string, string> = {},
  ) {
    const body = presentRequest(view, config.siteUrl);
    body.links = { ...body.links, ...extraLinks };
    return reply
      .status(status)
      .header('etag', `"${view.row.revisionId}"`)
      .type(negotiate(request, TYPES))
      .send(body);
  }

  api.get(
    '/api/records/:id/draft/review',
    {
      onRequest: acceptTypes,
      schema: {
        response: { 200: REVIEW },
        tags,
        summary: "The draft's review request (404 without one)",
        params: ReviewDraftParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return send(request, reply, 200, await reviews.read(request.identity.user, id));
    },
  );

  api.put(
    '/api/records/:id/draft/review',
    {
      onRequest: acceptTypes,
      ...DEFERRED_BODY,
      schema: {
        response: { 200: REVIEW },
        tags,
        summary: 'Choose the community to submit to (200, status created); If-Match honoured',
        params: ReviewDraftParams,
        body: ReviewBody,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const view = await reviews.put(
        request.identity.user,
        id,
        bodyReader(request),
        request.headers['if-match'],
      );
      return send(request, reply, 200, view);
    },
  );

  api.delete(
    '/api/records/:id/draft/review',
    {
      onRequest: acceptTypes,
      schema: {
        response: { 204: noContent('Removed') },
        tags,
        summary: 'Remove the review (204); 400 while it is open',
        params: ReviewDraftParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await reviews.delete(request.identity.user, id, request.headers['if-match']);
      return reply.status(204).send();
    },
  );

  api.post(
    '/api/records/:id/draft/actions/submit-review',
    {
      onRequest: acceptTypes,
      ...DEFERRED_BODY,
      schema: {
        response: { 202: REVIEW },
        tags,
        summary:
          'Submit for review (202); accepted and published at once when the caller may include directly',
        params: ReviewDraftParams,
        body: SubmitReviewBody,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { view, nextHtml } = await reviews.submit(
        request.identity.user,
        id,
        bodyReader(request),
      );
      return send(request, reply, 202, view, { next_html: nextHtml });
    },
  );
});
