import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AccessSettingsBody,
  CommunityIdParams,
  RecordHitsSchema,
  RecordJsonSchema,
  RedirectSchema,
  DraftBody,
  RecordIdParams,
  RecordPidParams,
  RecordReadQuery,
  RecordSearchQuery,
  RecordVersionsQuery,
  UserRecordsQuery,
  type SearchQueryValues,
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
  routesPlugin,
} from '../../lib/http.js';
import {
  documentedBody,
  documentedContent,
  documentedResponse,
  noContent,
} from '../../lib/openapi.js';
import { requireUser } from '../../plugins/auth.js';
import type { User, UsersService } from '../users/users.service.js';
import { displayName } from '../requests/requests.presenter.js';
import { type VocabulariesService } from '../vocabularies/vocabularies.service.js';
import type { PresentOptions } from './records.presenter.js';
import type { RecordAccessService } from './records-access.service.js';
import type { RecordDraftsService } from './records-drafts.service.js';
import type { RecordPidsService } from './records-pids.service.js';
import type { RecordPublishingService } from './records-publishing.service.js';
import type { DraftResult, RecordResult } from './records.shared.js';

type ParentRow = DraftResult['parent'];
import type { RecordsSearchService } from './records-search.service.js';
import type { RecordsRenderer } from './records.rendering.js';
import {
  EXPORT_MEDIA_TYPES,
  NEGOTIABLE_FORMATS,
  exportFormatByType,
} from './exports/export-formats.js';
import { BIBLIOGRAPHY_TYPE } from './exports/bibliography.js';
import { sendBibliography, sendExport, sendLinkset } from './exports/exports.routes.js';
import { LINKSET_JSON_TYPE, LINKSET_TYPE, LINKSET_TYPES, backLinkHeader } from './signposting.js';

const DRAFT_BODY = documentedBody(DraftBody);
const DRAFT = documentedResponse(
  RecordJsonSchema,
  'The draft; `errors` lists what it cannot be published with',
);
const RECORD = documentedResponse(RecordJsonSchema, 'The published record');
/** GET /api/records/{id}: the record, or the export format `Accept` names. */
const RECORD_OR_EXPORT = documentedContent(
  'The published record (or, with an export format in Accept, that export)',
  {
    [JSON_TYPE]: RECORD,
    [VND_TYPE]: RECORD,
    ...Object.fromEntries(
      NEGOTIABLE_FORMATS.map((f): [string, z.ZodType] => [
        f.mediaType,
        z.string().meta({ description: `${f.label}: /records/{id}/export/${f.name} as well` }),
      ]),
    ),
    [BIBLIOGRAPHY_TYPE]: z.string().meta({
      description:
        'The formatted citation in `style` and `locale`, plain text (sent as text/plain, as InvenioRDM does)',
    }),
  },
);
const HITS = documentedResponse(RecordHitsSchema, 'A page of records');
const REDIRECT = documentedResponse(RedirectSchema, 'Moved: the location of the record');
const RECORD_TYPES = [JSON_TYPE, VND_TYPE] as const;
const acceptRecordTypes = acceptOnly(RECORD_TYPES);
const RECORD_ITEM_TYPES = [
  ...RECORD_TYPES,
  ...EXPORT_MEDIA_TYPES,
  BIBLIOGRAPHY_TYPE,
  ...LINKSET_TYPES,
];

export interface RecordsRouteDeps {
  config: Config;
  drafts: RecordDraftsService;
  publishing: RecordPublishingService;
  pids: RecordPidsService;
  access: RecordAccessService;
  search: RecordsSearchService;
  /** Presents drafts, records and searches, and keeps the render cache. */
  renderer: RecordsRenderer;
  vocabularies: VocabulariesService;
  users: UsersService;
  /** The review receiver and default community as expanded stubs (communities module). */
  expandParent: (
    parent: ParentRow,
    user: User | undefined,
    ui: boolean,
  ) => Promise<PresentOptions['expandedParent']>;
  /**
   * A community's records search (record-communities module): the community's uuid and whether
   * the caller may view all its records. Throws the community's 404, 410 or 403.
   */
  communityScope: (
    user: User | undefined,
    idOrSlug: string,
  ) => Promise<{ communityId: string; seesAll: boolean }>;
  /** The parent's access settings (access module), for their managers. */
  accessSettings: {
    updateSettings(user: User | undefined, id: string, body: unknown): Promise<void>;
  };
}

/** InvenioRDM's records and drafts resource, versions included. */
export const recordRoutes = routesPlugin<RecordsRouteDeps>((app: FastifyInstance, deps) => {
  const { config, drafts, publishing, pids, access, search, renderer } = deps;
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

  async function withOwner(
    o: PresentOptions,
    parent: ParentRow,
    user: User | undefined,
  ): Promise<PresentOptions> {
    if (!o.expand) return o;
    const owner = await deps.users.findById(parent.ownerId);
    const expandedParent = await deps.expandParent(parent, user, o.ui);
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
    const caller = request.identity.user;
    const savedById = result.row.updatedBy;
    const [o, savedBy] = await Promise.all([
      withOwner(await options(request, type), result.parent, caller),
      // Mostly the caller, whose row the request holds already: a save costs no further read.
      savedById === null
        ? undefined
        : caller?.id === savedById
          ? caller
          : deps.users.findById(savedById),
    ]);
    const body = await renderer.draft(
      result,
      savedBy ? { ...o, savedBy: { id: savedBy.id, name: displayName(savedBy) } } : o,
      request.method === 'GET' ? type : undefined,
    );
    return reply.status(status).header('etag', `"${result.row.revisionId}"`).type(type).send(body);
  }

  async function sendRecord(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    result: RecordResult,
  ) {
    const type = negotiate(request, RECORD_TYPES);
    const o = await withOwner(await options(request, type), result.parent, request.identity.user);
    const body = await renderer.record(result, o, request.method === 'GET' ? type : undefined);
    return reply.status(status).header('etag', `"${result.row.revisionId}"`).type(type).send(body);
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
        response: { 201: DRAFT },
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
    request: FastifyRequest<{ Querystring: SearchQueryValues }>,
    reply: FastifyReply,
    path: string,
    scope: { communityId?: string; seesAll?: boolean } = {},
  ) {
    const result = await search.search(request.identity.user, request.query, scope);
    const type = negotiate(request, RECORD_TYPES);
    const o = await options(request, type);
    return reply.type(type).send(await renderer.search(result, o, `${config.siteUrl}${path}`));
  }

  api.get(
    '/api/records',
    {
      onRequest: acceptRecordTypes,
      schema: {
        response: { 200: HITS },
        tags,
        summary: 'Search published records',
        querystring: RecordSearchQuery,
      },
    },
    async (request, reply) => sendSearch(request, reply, '/api/records'),
  );

  api.get(
    '/api/communities/:id/records',
    {
      onRequest: acceptRecordTypes,
      schema: {
        response: { 200: HITS },
        tags: ['Communities'],
        summary:
          "Search the community's published records (q in the records query syntax, sort, page, size and every facet filter, with aggregations); restricted ones for its members",
        params: CommunityIdParams,
        querystring: RecordSearchQuery,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const scope = await deps.communityScope(request.identity.user, id);
      return sendSearch(request, reply, `/api/communities/${scope.communityId}/records`, scope);
    },
  );

  api.get(
    '/api/records/:id',
    {
      onRequest: acceptOnly(RECORD_ITEM_TYPES),
      schema: {
        response: { 200: RECORD_OR_EXPORT, 301: REDIRECT },
        tags,
        summary: 'Read a published record; Accept also selects an export format',
        description: [
          'Accept `application/linkset+json` answers the FAIR Signposting linkset of the record (RFC 9264), as InvenioRDM does;',
          'Cairn extension: `application/linkset` answers it in the text form of RFC 9264.',
          'A 200 answer carries a `Link` header naming the landing page it `describes` and the `linkset` in both forms',
          '(InvenioRDM names the JSON form only).',
          'Accept `text/x-bibliography` answers the citation in `style` (400 "Citation string style not found." for one it does not know).',
        ].join(' '),
        params: RecordIdParams,
        querystring: RecordReadQuery,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const result = await access.readRecord(request.identity.user, id, request.identity.link);
      if ('redirect' in result) return redirect(reply, result.redirect);
      const type = negotiate(request, RECORD_ITEM_TYPES);
      if (type === LINKSET_JSON_TYPE || type === LINKSET_TYPE) {
        return sendLinkset(reply, result, type, deps);
      }
      if (type === BIBLIOGRAPHY_TYPE) return sendBibliography(reply, result, request.query, deps);
      const format = exportFormatByType(type);
      if (format) return sendExport(reply, result, format, deps);
      // The metadata names the landing page it describes and the linkset, as InvenioRDM's does.
      void reply.header('link', backLinkHeader('describes', config.siteUrl, result.row.id));
      return sendRecord(request, reply, 200, result);
    },
  );

  api.put(
    '/api/records/:id/access',
    {
      onRequest: acceptRecordTypes,
      schema: {
        response: {
          200: documentedResponse(RecordJsonSchema, 'The record (or draft), settings changed'),
        },
        tags: ['Access'],
        summary: "Change the record's access settings: who may request access, on what conditions",
        description:
          "InvenioRDM's flat body, read back under `parent.access.settings` of every version and the draft: what it leaves out is back to its default (`false`, `null`, `0`). `secret_link_expiration`: the days (0 to 365; 0 no end) a guest's link lasts once their request is accepted. The record owner, administrators and `manage` grantees only.",
        params: RecordIdParams,
        body: documentedBody(AccessSettingsBody),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const user = request.identity.user;
      await deps.accessSettings.updateSettings(user, id, request.body);
      // The published record when the id names one, as InvenioRDM answers; else the draft.
      const record = await access.recordAsSystem(id);
      if (record) return sendRecord(request, reply, 200, record);
      return sendDraft(request, reply, 200, await drafts.readDraft(user, id));
    },
  );

  api.get(
    '/api/records/:id/draft',
    {
      onRequest: acceptRecordTypes,
      schema: {
        response: { 200: DRAFT },
        tags,
        summary: 'Read a draft (its owner, reviewers and preview or edit links)',
        params: RecordIdParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { user, link } = request.identity;
      return sendDraft(request, reply, 200, await drafts.readDraft(user, id, { link }));
    },
  );

  api.put(
    '/api/records/:id/draft',
    {
      onRequest: acceptRecordTypes,
      schema: {
        response: { 200: DRAFT },
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
          request.identity.link,
        ),
      );
    },
  );

  api.delete(
    '/api/records/:id/draft',
    {
      onRequest: acceptRecordTypes,
      schema: {
        response: { 204: noContent('Discarded') },
        tags,
        summary: 'Discard a draft (204)',
        params: RecordIdParams,
      },
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
        response: { 201: DRAFT },
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
        response: { 202: RECORD },
        tags,
        summary: 'Publish a draft (202); 400 lists every error',
        params: RecordIdParams,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { user, link } = request.identity;
      return sendRecord(request, reply, 202, await publishing.publish(user, id, { link }));
    },
  );

  api.post(
    '/api/records/:id/draft/pids/:scheme',
    {
      onRequest: acceptRecordTypes,
      schema: {
        response: { 201: DRAFT },
        tags: ['PIDs'],
        summary: 'Reserve a managed DOI (201)',
        params: RecordPidParams,
      },
    },
    async (request, reply) => {
      const { id, scheme } = request.params;
      return sendDraft(
        request,
        reply,
        201,
        await pids.reservePid(request.identity.user, id, scheme, request.identity.link),
      );
    },
  );

  api.delete(
    '/api/records/:id/draft/pids/:scheme',
    {
      onRequest: acceptRecordTypes,
      schema: {
        response: { 200: DRAFT },
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
        await pids.discardPid(request.identity.user, id, scheme, request.identity.link),
      );
    },
  );

  api.post(
    '/api/records/:id/versions',
    {
      onRequest: acceptRecordTypes,
      schema: {
        response: { 201: DRAFT },
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
        response: { 200: HITS },
        tags: ['Versions'],
        summary: 'List published versions',
        params: RecordIdParams,
        querystring: RecordVersionsQuery,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const result = await search.versions(request.identity.user, id, request.query);
      const type = negotiate(request, RECORD_TYPES);
      const o = await options(request, type);
      const self = `${config.siteUrl}/api/records/${id}/versions`;
      return reply.type(type).send(await renderer.hits(result, o, self));
    },
  );

  api.get(
    '/api/records/:id/versions/latest',
    {
      onRequest: acceptRecordTypes,
      schema: {
        response: { 301: REDIRECT },
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
        response: { 200: HITS },
        tags,
        summary: "The caller's drafts and records",
        description:
          'With `shared_with_me=true`, the drafts and records others granted the caller instead (see `/access/grants`); a `view` grant lists the published record, not its draft.',
        querystring: UserRecordsQuery,
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const result = await search.userRecords(user, request.query);
      const type = negotiate(request, RECORD_TYPES);
      const o = await options(request, type);
      const self = `${config.siteUrl}/api/user/records`;
      return reply.type(type).send(await renderer.userRecords(result, o, self));
    },
  );
});
