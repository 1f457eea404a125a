import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CommunityIdParams,
  DraftBody,
  RecordIdParams,
  RecordPidParams,
  RecordSearchQuery,
  RecordVersionsQuery,
  UserRecordsQuery,
} from '@cairn/shared';
import type { Config } from '../../config.js';
import {
  acceptOnly,
  isFlagSet,
  JSON_TYPE,
  negotiate,
  queryOf,
  requestLocale,
  VND_TYPE,
} from '../../lib/http.js';
import { searchLinks } from '../../lib/search.js';
import { documentedBody, documentedQuery } from '../../lib/openapi.js';
import { RenderCache } from '../../lib/render-cache.js';
import { requireUser } from '../../plugins/auth.js';
import type { User, UsersService } from '../users/users.service.js';
import { type VocabulariesService } from '../vocabularies/vocabularies.service.js';
import {
  presentDraft,
  presentRecord,
  withIndexedLookup,
  resourceTypeLabel,
  type PresentOptions,
} from './records.presenter.js';
import type { RecordAccessService } from './records-access.service.js';
import type { RecordDraftsService } from './records-drafts.service.js';
import type { RecordPidsService } from './records-pids.service.js';
import type { RecordPublishingService } from './records-publishing.service.js';
import type { DraftResult, RecordResult } from './records.shared.js';

type ParentRow = DraftResult['parent'];
import type { RecordHits, RecordsSearchService } from './records-search.service.js';
import { EXPORT_MEDIA_TYPES, exportFormatByType } from './exports/export-formats.js';
import { sendExport } from './exports/exports.routes.js';

const DRAFT_BODY = documentedBody(DraftBody);
const RECORD_TYPES = [JSON_TYPE, VND_TYPE] as const;
const acceptRecordTypes = acceptOnly(RECORD_TYPES);
const RECORD_ITEM_TYPES = [...RECORD_TYPES, ...EXPORT_MEDIA_TYPES];

export interface RecordsRouteDeps {
  config: Config;
  drafts: RecordDraftsService;
  publishing: RecordPublishingService;
  pids: RecordPidsService;
  access: RecordAccessService;
  search: RecordsSearchService;
  vocabularies: VocabulariesService;
  users: UsersService;
  /** The review receiver and default community as expanded stubs (communities module). */
  expandParent?: (
    parent: ParentRow,
    user: User | undefined,
    ui: boolean,
  ) => Promise<PresentOptions['expandedParent']>;
  /**
   * A community's records search (record-communities module): the community's uuid and whether
   * the caller may view all its records. Throws the community's 404, 410 or 403.
   */
  communityScope?: (
    user: User | undefined,
    idOrSlug: string,
  ) => Promise<{ communityId: string; seesAll: boolean }>;
}

/** InvenioRDM's records and drafts resource, versions included. */
export function registerRecordRoutes(app: FastifyInstance, deps: RecordsRouteDeps): void {
  const { config, drafts, publishing, pids, access, search } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  async function options(request: FastifyRequest, type: string): Promise<PresentOptions> {
    const query = queryOf(request);
    return {
      siteUrl: config.siteUrl,
      ui: type === VND_TYPE,
      expand: isFlagSet(query.expand),
      locale: requestLocale(request, config.locales, config.defaultLocale),
      vocab: await deps.vocabularies.snapshot(),
    };
  }

  // Reading a draft or record is the hottest path (editors reload, landing pages are visited):
  // rendering and serialising cost more than the two queries before them.
  const rendered = new RenderCache(32 * 1024 * 1024);

  async function sendCached(
    reply: FastifyReply,
    status: number,
    type: string,
    revision: number,
    key: string | undefined,
    render: () => Promise<Record<string, unknown>>,
  ) {
    let body = key === undefined ? undefined : rendered.get(key);
    if (body === undefined) {
      body = JSON.stringify(await render());
      if (key !== undefined) rendered.set(key, body);
    }
    return reply.status(status).header('etag', `"${revision}"`).type(type).send(body);
  }

  async function withOwner(
    o: PresentOptions,
    parent: ParentRow,
    user: User | undefined,
  ): Promise<PresentOptions> {
    if (!o.expand) return o;
    const owner = await deps.users.findById(parent.ownerId);
    const expandedParent = await deps.expandParent?.(parent, user, o.ui);
    return {
      ...o,
      ...(owner ? { owner: { id: owner.id, email: owner.email, name: owner.name } } : {}),
      ...(expandedParent ? { expandedParent } : {}),
    };
  }

  async function sendDraft(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    result: DraftResult,
  ) {
    const type = negotiate(request, RECORD_TYPES);
    const o = await withOwner(await options(request, type), result.parent, request.identity.user);
    const { row, parent } = result;
    const key =
      request.method === 'GET' && result.errors.length === 0 && !o.expand
        ? `d:${row.id}:${row.revisionId}:${row.updatedAt}:${parent.updatedAt}:${result.isPublished}:${result.isLatestDraft}:${type}:${o.locale}:${deps.vocabularies.generation}`
        : undefined;
    return sendCached(reply, status, type, row.revisionId, key, async () => {
      const body = presentDraft(row, parent, {
        ...(await withIndexedLookup(o, [row], deps.vocabularies)),
        isPublished: result.isPublished,
        isLatestDraft: result.isLatestDraft,
      });
      if (result.errors.length > 0) body.errors = result.errors;
      return body;
    });
  }

  async function sendRecord(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    result: RecordResult,
  ) {
    const type = negotiate(request, RECORD_TYPES);
    const o = await withOwner(await options(request, type), result.parent, request.identity.user);
    const { row, parent } = result;
    const key =
      request.method === 'GET' && !o.expand
        ? `r:${row.id}:${row.revisionId}:${row.updatedAt}:${row.isLatest}:${parent.updatedAt}:${type}:${o.locale}:${deps.vocabularies.generation}`
        : undefined;
    return sendCached(reply, status, type, row.revisionId, key, async () =>
      presentRecord(row, parent, await withIndexedLookup(o, [row], deps.vocabularies)),
    );
  }

  async function sendHits(
    request: FastifyRequest,
    reply: FastifyReply,
    path: string,
    result: RecordHits,
    aggregations: Record<string, unknown>,
  ) {
    const type = negotiate(request, RECORD_TYPES);
    const o = await withIndexedLookup(
      await options(request, type),
      result.records.map((r) => r.row),
      deps.vocabularies,
    );
    return reply.type(type).send({
      hits: {
        hits: result.records.map((r) => presentRecord(r.row, r.parent, o)),
        total: result.total,
      },
      aggregations,
      sortBy: result.params.sort,
      page: result.params.page,
      links: searchLinks(`${config.siteUrl}${path}`, result.params, result.total),
    });
  }

  function redirect(reply: FastifyReply, id: string) {
    const location = `${config.siteUrl}/api/records/${id}`;
    return reply
      .status(301)
      .header('location', location)
      .type(JSON_TYPE)
      .send({ status: 301, message: 'Redirecting...', location });
  }

  const tags = ['Records and drafts'];

  api.post(
    '/api/records',
    {
      onRequest: acceptRecordTypes,
      schema: {
        tags,
        summary:
          'Create a draft (201); invalid parts are dropped and listed in errors. parent.review {type, receiver: {community}} opens its community review',
        body: DRAFT_BODY,
      },
    },
    async (request, reply) =>
      sendDraft(request, reply, 201, await drafts.createDraft(request.identity.user, request.body)),
  );

  async function sendSearch(
    request: FastifyRequest,
    reply: FastifyReply,
    path: string,
    scope: { communityId?: string; seesAll?: boolean } = {},
  ) {
    const result = await search.search(request.identity.user, queryOf(request), scope);
    const o = await options(request, JSON_TYPE);
    const selected = new Set(result.params.filters.resource_type ?? []);
    return sendHits(request, reply, path, result, {
      resource_type: {
        label: 'Resource types',
        buckets: result.resourceTypes.map((b) => ({
          key: b.key,
          doc_count: b.count,
          label: resourceTypeLabel(o, b.key),
          is_selected: selected.has(b.key),
          inner: { buckets: [] },
        })),
      },
    });
  }

  api.get(
    '/api/records',
    {
      onRequest: acceptRecordTypes,
      schema: {
        tags,
        summary: 'Search published records',
        querystring: documentedQuery(RecordSearchQuery),
      },
    },
    async (request, reply) => sendSearch(request, reply, '/api/records'),
  );

  const { communityScope } = deps;
  if (communityScope) {
    api.get(
      '/api/communities/:id/records',
      {
        onRequest: acceptRecordTypes,
        schema: {
          tags: ['Communities'],
          summary:
            "Search the community's published records (q, sort, page, size, resource_type); restricted ones for its members",
          params: CommunityIdParams,
          querystring: documentedQuery(RecordSearchQuery),
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const scope = await communityScope(request.identity.user, id);
        return sendSearch(request, reply, `/api/communities/${scope.communityId}/records`, scope);
      },
    );
  }

  api.get(
    '/api/records/:id',
    {
      onRequest: acceptOnly(RECORD_ITEM_TYPES),
      schema: {
        tags,
        summary: 'Read a published record; Accept also selects an export format',
        params: RecordIdParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const result = await access.readRecord(request.identity.user, id);
      if ('redirect' in result) return redirect(reply, result.redirect);
      const format = exportFormatByType(negotiate(request, RECORD_ITEM_TYPES));
      if (format) return sendExport(reply, result, format, deps);
      return sendRecord(request, reply, 200, result);
    },
  );

  api.get(
    '/api/records/:id/draft',
    {
      onRequest: acceptRecordTypes,
      schema: { tags, summary: 'Read a draft (owner only)', params: RecordIdParams },
    },
    async (request, reply) => {
      const { id } = request.params;
      return sendDraft(request, reply, 200, await drafts.readDraft(request.identity.user, id));
    },
  );

  api.put(
    '/api/records/:id/draft',
    {
      onRequest: acceptRecordTypes,
      schema: {
        tags,
        summary: 'Save a draft (full replacement of metadata); If-Match honoured',
        params: RecordIdParams,
        body: DRAFT_BODY,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return sendDraft(
        request,
        reply,
        200,
        await drafts.updateDraft(
          request.identity.user,
          id,
          request.body,
          request.headers['if-match'],
        ),
      );
    },
  );

  api.delete(
    '/api/records/:id/draft',
    {
      onRequest: acceptRecordTypes,
      schema: { tags, summary: 'Discard a draft (204)', params: RecordIdParams },
    },
    async (request, reply) => {
      const { id } = request.params;
      await drafts.deleteDraft(request.identity.user, id, request.headers['if-match']);
      return reply.status(204).send();
    },
  );

  api.post(
    '/api/records/:id/draft',
    {
      onRequest: acceptRecordTypes,
      schema: {
        tags,
        summary: 'Edit a published record: open or return its draft (201)',
        params: RecordIdParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return sendDraft(request, reply, 201, await drafts.edit(request.identity.user, id));
    },
  );

  api.post(
    '/api/records/:id/draft/actions/publish',
    {
      onRequest: acceptRecordTypes,
      schema: {
        tags,
        summary: 'Publish a draft (202); 400 lists every error',
        params: RecordIdParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return sendRecord(request, reply, 202, await publishing.publish(request.identity.user, id));
    },
  );

  api.post(
    '/api/records/:id/draft/pids/:scheme',
    {
      onRequest: acceptRecordTypes,
      schema: { tags: ['PIDs'], summary: 'Reserve a managed DOI (201)', params: RecordPidParams },
    },
    async (request, reply) => {
      const { id, scheme } = request.params;
      return sendDraft(
        request,
        reply,
        201,
        await pids.reservePid(request.identity.user, id, scheme),
      );
    },
  );

  api.delete(
    '/api/records/:id/draft/pids/:scheme',
    {
      onRequest: acceptRecordTypes,
      schema: {
        tags: ['PIDs'],
        summary: 'Discard the draft DOI (200 with the draft)',
        params: RecordPidParams,
      },
    },
    async (request, reply) => {
      const { id, scheme } = request.params;
      return sendDraft(
        request,
        reply,
        200,
        await pids.discardPid(request.identity.user, id, scheme),
      );
    },
  );

  api.post(
    '/api/records/:id/versions',
    {
      onRequest: acceptRecordTypes,
      schema: {
        tags: ['Versions'],
        summary: 'Create (or return) the new-version draft (201)',
        params: RecordIdParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return sendDraft(request, reply, 201, await drafts.newVersion(request.identity.user, id));
    },
  );

  api.get(
    '/api/records/:id/versions',
    {
      onRequest: acceptRecordTypes,
      schema: {
        tags: ['Versions'],
        summary: 'List published versions',
        params: RecordIdParams,
        querystring: documentedQuery(RecordVersionsQuery),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const result = await search.versions(request.identity.user, id, request.query);
      return sendHits(request, reply, `/api/records/${id}/versions`, result, {});
    },
  );

  api.get(
    '/api/records/:id/versions/latest',
    {
      onRequest: acceptRecordTypes,
      schema: {
        tags: ['Versions'],
        summary: 'Redirect (301) to the latest published version',
        params: RecordIdParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return redirect(reply, await access.latestVersionId(request.identity.user, id));
    },
  );

  api.get(
    '/api/user/records',
    {
      onRequest: acceptRecordTypes,
      schema: {
        tags,
        summary: "The caller's drafts and records",
        querystring: documentedQuery(UserRecordsQuery),
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const result = await search.userRecords(user, request.query);
      const type = negotiate(request, RECORD_TYPES);
      const o = await withIndexedLookup(
        await options(request, type),
        result.hits.map((h) => h.row),
        deps.vocabularies,
      );
      const selected = result.params.filters.is_published?.[0];
      return reply.type(type).send({
        hits: {
          hits: result.hits.map((h) =>
            h.kind === 'draft'
              ? presentDraft(h.row, h.parent, {
                  ...o,
                  isPublished: h.isPublished,
                  isLatestDraft: true,
                })
              : presentRecord(h.row, h.parent, o),
          ),
          total: result.total,
        },
        aggregations: {
          is_published: {
            label: 'Status',
            buckets: [
              {
                key: 'true',
                doc_count: result.published,
                label: 'Published',
                is_selected: selected === 'true',
                inner: { buckets: [] },
              },
              {
                key: 'false',
                doc_count: result.drafts,
                label: 'Unpublished',
                is_selected: selected === 'false',
                inner: { buckets: [] },
              },
            ],
          },
        },
        sortBy: result.params.sort,
        page: result.params.page,
        links: searchLinks(`${config.siteUrl}/api/user/records`, result.params, result.total),
      });
    },
  );
}
