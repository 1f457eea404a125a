import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { acceptOnly, JSON_TYPE, negotiate, VND_TYPE } from '../../lib/http.js';
import { documentedBody } from '../../lib/openapi.js';
import { presentRequest } from '../requests/requests.presenter.js';
import type { RequestView } from '../requests/requests.service.js';
import type { ReviewsService } from './reviews.service.js';

const TYPES = [JSON_TYPE, VND_TYPE] as const;
const acceptTypes = acceptOnly(TYPES);
const IdParams = z.object({ id: z.string().describe('Draft id, e.g. ha4g3-7x208') });
const ReviewBody = z.object({
  type: z.literal('community-submission'),
  receiver: z.object({ community: z.string().describe('Community uuid or slug') }),
});
const SubmitBody = z.object({
  payload: z
    .object({ content: z.string().min(1), format: z.literal('html').optional() })
    .optional()
    .describe('A first comment for the curators'),
  require_review: z
    .boolean()
    .optional()
    .describe('true: review even when the caller may include directly'),
});

export interface ReviewsRouteDeps {
  config: Config;
  reviews: ReviewsService;
}

/** A draft's community review (InvenioRDM's `/api/records/{id}/draft/review`). */
export function registerReviewRoutes(app: FastifyInstance, deps: ReviewsRouteDeps): void {
  const { config, reviews } = deps;
  const tags = ['Reviews'];

  function send(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    view: RequestView,
    extraLinks: Record<string, string> = {},
  ) {
    const body = presentRequest(view, config.siteUrl);
    body.links = { ...(body.links as Record<string, unknown>), ...extraLinks };
    return reply
      .status(status)
      .header('etag', `"${view.row.revisionId}"`)
      .type(negotiate(request, TYPES))
      .send(body);
  }

  app.get(
    '/api/records/:id/draft/review',
    {
      onRequest: acceptTypes,
      schema: { tags, summary: "The draft's review request (404 without one)", params: IdParams },
    },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof IdParams>;
      return send(request, reply, 200, await reviews.read(request.identity.user, id));
    },
  );

  app.put(
    '/api/records/:id/draft/review',
    {
      onRequest: acceptTypes,
      schema: {
        tags,
        summary: 'Choose the community to submit to (200, status created); If-Match honoured',
        params: IdParams,
        body: documentedBody(ReviewBody),
      },
    },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof IdParams>;
      const view = await reviews.put(
        request.identity.user,
        id,
        request.body,
        request.headers['if-match'],
      );
      return send(request, reply, 200, view);
    },
  );

  app.delete(
    '/api/records/:id/draft/review',
    {
      onRequest: acceptTypes,
      schema: {
        tags,
        summary: 'Remove the review (204); 400 while it is open',
        params: IdParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof IdParams>;
      await reviews.delete(request.identity.user, id, request.headers['if-match']);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/records/:id/draft/actions/submit-review',
    {
      onRequest: acceptTypes,
      schema: {
        tags,
        summary:
          'Submit for review (202); accepted and published at once when the caller may include directly',
        params: IdParams,
        body: documentedBody(SubmitBody),
      },
    },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof IdParams>;
      const { view, nextHtml } = await reviews.submit(request.identity.user, id, request.body);
      return send(request, reply, 202, view, { next_html: nextHtml });
    },
  );
}
