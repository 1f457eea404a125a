import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  RequestActionBody,
  CommentPayload,
  CommunityIdParams,
  RecordIdParams,
  RequestActionParams,
  RequestCommentParams,
  RequestCountSchema,
  RequestHitsSchema,
  RequestIdParams,
  RequestJsonSchema,
  RequestSearchQuery,
  RequestTimelineQuery,
  TimelineEventSchema,
  TimelineSchema,
} from '@cairn/shared';
import type { Config } from '../../config.js';
import { AppError, permissionDenied } from '../../errors.js';
import {
  acceptOnly,
  JSON_TYPE,
  negotiate,
  queryOf,
  VND_TYPE,
  routesPlugin,
} from '../../lib/http.js';
import { bodyReader, DEFERRED_BODY } from '../../lib/body.js';
import { documentedResponse, noContent } from '../../lib/openapi.js';
import { searchLinks, type SearchParams } from '../../lib/search.js';
import { presentCommunityStub } from '../communities/communities.presenter.js';
import type { CommunitiesService } from '../communities/communities.service.js';
import type { User, UsersService } from '../users/users.service.js';
import { presentEvent, presentRequest, presentUserStub } from './requests.presenter.js';
import type { RequestsService, RequestView } from './requests.service.js';

const REQUEST_TYPES = [JSON_TYPE, VND_TYPE] as const;
const REQUEST = documentedResponse(RequestJsonSchema, 'The request');
const REQUEST_HITS = documentedResponse(RequestHitsSchema, 'A page of requests');
const EVENT = documentedResponse(TimelineEventSchema, 'The comment');
const acceptRequestTypes = acceptOnly(REQUEST_TYPES);

export interface RequestsRouteDeps {
  config: Config;
  requests: RequestsService;
  communities: CommunitiesService;
  users: UsersService;
  /** The id of a record or draft the caller may read (404, 403 otherwise), for its requests. */
  readableRecord?: (user: User | undefined, id: string) => Promise<string>;
}

/** `?expand=1` (InvenioRDM's): the request page shows names, not ids. */
function wantsExpand(request: FastifyRequest): boolean {
  const { expand } = queryOf(request);
  return expand === '1' || expand === 'true';
}

/** invenio-requests' resource: requests, actions, comments and timeline. */
export const requestRoutes = routesPlugin<RequestsRouteDeps>((app: FastifyInstance, deps) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { config, requests, communities, users } = deps;
  const tags = ['Requests'];

  /** The people behind user ids, each looked up once; unknown ids become ghosts. */
  async function userStubs(ids: Array<number | null>) {
    const unique = [...new Set(ids.filter((id): id is number => id !== null))];
    const found = await users.findByIds(unique);
    return new Map(unique.map((id) => [id, presentUserStub(id, found.get(id))]));
  }

  /** `expanded` of each request: its creator and receiver, each person and community read once. */
  async function expandRequests(views: RequestView[]): Promise<Array<Record<string, unknown>>> {
    const communityIds = [...new Set(views.flatMap((v) => v.row.receiverCommunityId ?? []))];
    const [people, found] = await Promise.all([
      userStubs(views.flatMap((v) => [v.row.createdBy, v.row.receiverUserId])),
      communities.getMany(communityIds),
    ]);
    const byId = new Map(found.map((c) => [c.row.id, c]));
    const stubs = new Map(
      communityIds.map((id) => [id, presentCommunityStub(byId.get(id), id, config.siteUrl)]),
    );
    // An invitation comes from its community and goes to its person (see `presentRequest`).
    const creator = (row: RequestView['row']) =>
      row.createdBy === null ? { email: row.creatorEmail } : people.get(row.createdBy);
    return views.map(({ row }) => {
      if (row.receiverCommunityId === null)
        return { created_by: creator(row), receiver: people.get(row.receiverUserId!) };
      return row.type === 'community-invitation'
        ? {
            created_by: stubs.get(row.receiverCommunityId),
            receiver: people.get(row.receiverUserId!),
          }
        : { created_by: creator(row), receiver: stubs.get(row.receiverCommunityId) };
    });
  }

  async function send(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    view: RequestView,
  ) {
    const body = presentRequest(view, config.siteUrl);
    if (wantsExpand(request)) [body.expanded] = await expandRequests([view]);
    return reply
      .status(status)
      .header('etag', `"${view.row.revisionId}"`)
      .type(negotiate(request, REQUEST_TYPES))
      .send(body);
  }

  /** A page of requests; each hit counts its comments, and `expand=1` names who and where. */
  async function sendHits(
    request: FastifyRequest,
    reply: FastifyReply,
    path: string,
    result: { params: SearchParams; views: RequestView[]; total: number },
  ) {
    const rows = result.views.map((v) => v.row);
    // Searches are for signed-in people only: the service refused anonymous callers.
    const user = request.identity.user!;
    const [counts, unread, expanded] = await Promise.all([
      requests.commentCounts(rows),
      requests.unreadOf(user, rows),
      wantsExpand(request) ? expandRequests(result.views) : undefined,
    ]);
    return reply.type(negotiate(request, REQUEST_TYPES)).send({
      hits: {
        hits: result.views.map((v, i) => ({
          ...presentRequest(v, config.siteUrl),
          comment_count: counts.get(v.row.id) ?? 0,
          is_unread: unread.has(v.row.id),
          ...(expanded ? { expanded: expanded[i] } : {}),
        })),
        total: result.total,
      },
      aggregations: {},
      sortBy: result.params.sort,
      page: result.params.page,
      links: searchLinks(`${config.siteUrl}${path}`, result.params, result.total),
    });
  }

  api.get(
    '/api/requests',
    {
      onRequest: acceptRequestTypes,
      schema: {
        response: { 200: REQUEST_HITS },
        tags,
        summary:
          'Search the requests the caller takes part in (q, is_open, type, status; Cairn extensions: created_by, community, sort=updated, comment_count, is_unread; 403 anonymous)',
        querystring: RequestSearchQuery,
      },
    },
    async (request, reply) =>
      sendHits(
        request,
        reply,
        '/api/requests',
        await requests.search(request.identity.user, request.query),
      ),
  );

  api.post(
    '/api/requests',
    {
      schema: {
        tags,
        summary: 'Not allowed (405): requests are made through records and communities',
      },
    },
    () => {
      throw new AppError('METHOD_NOT_ALLOWED');
    },
  );

  api.get(
    '/api/user/requests',
    {
      onRequest: acceptRequestTypes,
      schema: {
        response: { 200: REQUEST_HITS },
        tags,
        summary: "The caller's requests, made or received",
        querystring: RequestSearchQuery,
      },
    },
    async (request, reply) =>
      sendHits(
        request,
        reply,
        '/api/user/requests',
        await requests.search(request.identity.user, request.query, {
          mine: true,
        }),
      ),
  );

  api.get(
    '/api/user/requests/count',
    {
      schema: {
        response: {
          200: documentedResponse(RequestCountSchema, 'Open requests waiting for the caller'),
        },
        tags: ['Cairn extension'],
        summary:
          "How many open requests wait for the caller's decision (the header's badge; 403 anonymous)",
      },
    },
    async (request) => ({ awaiting: await requests.countAwaiting(request.identity.user) }),
  );

  const { readableRecord } = deps;
  if (readableRecord) {
    api.get(
      '/api/records/:id/requests',
      {
        onRequest: acceptRequestTypes,
        schema: {
          response: { 200: REQUEST_HITS },
          tags: ['Record communities'],
          summary: "Search the record's requests the caller takes part in (403 anonymous)",
          params: RecordIdParams,
          querystring: RequestSearchQuery,
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const user = request.identity.user;
        const recordId = await readableRecord(user, id);
        return sendHits(
          request,
          reply,
          `/api/records/${recordId}/requests`,
          await requests.search(user, request.query, {
            topicRecordId: recordId,
          }),
        );
      },
    );
  }

  api.get(
    '/api/communities/:id/requests',
    {
      onRequest: acceptRequestTypes,
      schema: {
        response: { 200: REQUEST_HITS },
        tags: ['Communities'],
        summary: "Search a community's requests (its curators)",
        params: CommunityIdParams,
        querystring: RequestSearchQuery,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const user = request.identity.user;
      const community = await communities.read(user, id);
      if (!community.permissions.can_curate) throw permissionDenied();
      return sendHits(
        request,
        reply,
        `/api/communities/${community.row.id}/requests`,
        await requests.search(user, request.query, {
          communityId: community.row.id,
        }),
      );
    },
  );

  api.get(
    '/api/requests/:id',
    {
      onRequest: acceptRequestTypes,
      schema: {
        response: { 200: REQUEST },
        tags,
        summary: 'Read a request (expand=1: its creator and receiver)',
        params: RequestIdParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return send(request, reply, 200, await requests.read(request.identity.user, id));
    },
  );

  api.put(
    '/api/requests/:id/seen',
    {
      schema: {
        response: { 204: noContent('Marked as seen') },
        tags: ['Cairn extension'],
        summary:
          'The caller opened the request: its activity so far is seen (the inbox marks the rest unread); 204',
        params: RequestIdParams,
      },
    },
    async (request, reply) => {
      await requests.markSeen(request.identity.user, request.params.id);
      return reply.status(204).send();
    },
  );

  api.post(
    '/api/requests/:id/actions/:action',
    {
      onRequest: acceptRequestTypes,
      ...DEFERRED_BODY,
      schema: {
        response: { 200: REQUEST },
        tags,
        summary: 'Run an action (200); an optional payload becomes a comment',
        description:
          "Accepting an access request may say in `payload.secret_link_expiration` how many days (0 to 365; 0 no end) the guest's secret link lasts, as InvenioRDM's payload, or (a Cairn extension) the person's grant, which then carries `expires_at`; without it a guest's link lasts the record's `parent.access.settings.secret_link_expiration` and a person's grant has no end. An access request is decided by the record's owner and (a Cairn extension) its `manage` grantees.",
        params: RequestActionParams,
        body: RequestActionBody,
      },
    },
    async (request, reply) => {
      const { id, action } = request.params;
      return send(
        request,
        reply,
        200,
        await requests.act(request.identity.user, id, action, bodyReader(request)),
      );
    },
  );

  api.post(
    '/api/requests/:id/comments',
    {
      onRequest: acceptRequestTypes,
      ...DEFERRED_BODY,
      schema: {
        response: { 201: EVENT },
        tags,
        summary: 'Comment (201)',
        params: RequestIdParams,
        body: CommentPayload,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const user = request.identity.user;
      const event = await requests.comments.comment(user, id, bodyReader(request));
      return reply
        .status(201)
        .header('etag', `"${event.revisionId}"`)
        .type(negotiate(request, REQUEST_TYPES))
        .send(presentEvent(event, user, config.siteUrl));
    },
  );

  api.get(
    '/api/requests/:id/comments/:commentId',
    {
      onRequest: acceptRequestTypes,
      schema: {
        response: { 200: EVENT },
        tags,
        summary: 'Read a comment',
        params: RequestCommentParams,
      },
    },
    async (request, reply) => {
      const { id, commentId } = request.params;
      const user = request.identity.user;
      const event = await requests.comments.readComment(user, id, commentId);
      return reply
        .header('etag', `"${event.revisionId}"`)
        .type(negotiate(request, REQUEST_TYPES))
        .send(presentEvent(event, user, config.siteUrl));
    },
  );

  api.put(
    '/api/requests/:id/comments/:commentId',
    {
      onRequest: acceptRequestTypes,
      ...DEFERRED_BODY,
      schema: {
        response: { 200: EVENT },
        tags,
        summary: 'Edit a comment (its author); If-Match honoured',
        params: RequestCommentParams,
        body: CommentPayload,
      },
    },
    async (request, reply) => {
      const { id, commentId } = request.params;
      const user = request.identity.user;
      const event = await requests.comments.updateComment(
        user,
        id,
        commentId,
        bodyReader(request),
        request.headers['if-match'],
      );
      return reply
        .header('etag', `"${event.revisionId}"`)
        .type(negotiate(request, REQUEST_TYPES))
        .send(presentEvent(event, user, config.siteUrl));
    },
  );

  api.delete(
    '/api/requests/:id/comments/:commentId',
    {
      onRequest: acceptRequestTypes,
      schema: {
        response: { 204: noContent('Deleted') },
        tags,
        summary: 'Delete a comment (204); the timeline keeps a log entry',
        params: RequestCommentParams,
      },
    },
    async (request, reply) => {
      const { id, commentId } = request.params;
      await requests.comments.deleteComment(
        request.identity.user,
        id,
        commentId,
        request.headers['if-match'],
      );
      return reply.status(204).send();
    },
  );

  api.get(
    '/api/requests/:id/timeline',
    {
      onRequest: acceptRequestTypes,
      schema: {
        response: { 200: documentedResponse(TimelineSchema, 'A page of the timeline') },
        tags,
        summary: 'Comments and log events, oldest first (expand=1: their authors)',
        params: RequestIdParams,
        querystring: RequestTimelineQuery,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const user = request.identity.user;
      const result = await requests.comments.timeline(user, id, request.query);
      const people = wantsExpand(request)
        ? await userStubs(result.rows.map((e) => e.createdBy))
        : undefined;
      return reply.type(negotiate(request, REQUEST_TYPES)).send({
        hits: {
          hits: result.rows.map((e) => {
            const event = presentEvent(e, user, config.siteUrl);
            if (people) {
              event.expanded = e.createdBy === null ? {} : { created_by: people.get(e.createdBy) };
            }
            return event;
          }),
          total: result.total,
        },
        sortBy: result.params.sort,
        page: result.params.page,
        links: searchLinks(
          `${config.siteUrl}/api/requests/${result.view.row.id}/timeline`,
          result.params,
          result.total,
        ),
      });
    },
  );
});
