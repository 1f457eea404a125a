import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import crypto from 'node:crypto';
import { parse as parseQuery } from 'node:querystring';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import './fastify-config.js';
import { JSON_MAX_DEPTH, SEARCH_QUERY_MAX_LENGTH, SEARCH_QUERY_MAX_WORDS } from '@cairn/shared';
import type { Services } from './services.js';
import type { Config } from './config.js';
import { AppError, permissionDenied } from './errors.js';
import { handleFrameworkError, registerErrorHandler } from './plugins/errors.js';
import { decodeQueryComponent, parseClientJson } from './lib/client-text.js';
import { isRecord } from './lib/http.js';
import { ERROR_RESPONSES } from './lib/openapi.js';
import { sitemapRoutes } from './modules/sitemaps/sitemaps.routes.js';
import { refuseUnstorableParameters } from './plugins/client-input.js';
import { registerBodyIdleTimeout } from './plugins/body-timeout.js';
import { registerAuth } from './plugins/auth.js';
import { loggerOptions } from './lib/logging.js';
import { registerThrottling } from './modules/throttle/throttle.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { authRoutes } from './modules/users/auth.routes.js';
import { recordRoutes } from './modules/records/records.routes.js';
import { importMetadataRoutes } from './modules/records/import/import.routes.js';
import { recordDeletionRoutes } from './modules/records/records-deletion.routes.js';
import { vocabularyRoutes } from './modules/vocabularies/vocabularies.routes.js';
import { itemRoutes } from './modules/vocabularies/indexed/items.routes.js';
import { registerPages } from './modules/pages/pages.routes.js';
import { registerDocsPage } from './modules/docs/docs.routes.js';
import { fileRoutes } from './modules/files/files.routes.js';
import { secretLinkRoutes } from './modules/access/secret-links.routes.js';
import { grantRoutes } from './modules/access/grants.routes.js';
import { accessRequestRoutes } from './modules/access/access-requests.routes.js';
import { recordExportRoutes } from './modules/records/exports/exports.routes.js';
import { tokenRoutes } from './modules/users/tokens.routes.js';
import { preferenceRoutes } from './modules/users/preferences.routes.js';
import { communityRoutes } from './modules/communities/communities.routes.js';
import { requestRoutes } from './modules/requests/requests.routes.js';
import { membershipRoutes } from './modules/memberships/memberships.routes.js';
import { reviewRoutes } from './modules/reviews/reviews.routes.js';
import { registerOperations } from './modules/ops/operations.js';
import { registerOaiRoutes } from './modules/oai/oai.routes.js';
import { recordCommunityRoutes } from './modules/record-communities/record-communities.routes.js';

export interface AppOptions {
  /**
   * `false`: no log. Otherwise Cairn's logger (secrets redacted) at `level` (the configured one
   * by default), writing to `stream` (standard output by default).
   */
  logger?: false | { level?: string; stream?: { write(line: string): void } };
  /**
   * Called before any route is registered, so that hooks it adds reach every route, those of
   * encapsulated plugins included (tests hold answers to their documented schemas this way).
   */
  beforeRoutes?: (app: FastifyInstance) => void;
}

/**
 * Fastify's `trustProxy` from the configured one. A hop count becomes the function Fastify would
 * make of it, which its type leaves out.
 */
function fastifyTrustProxy(trust: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return typeof trust === 'boolean' ? trust : [...trust];
}

/**
 * Builds the Fastify app from wired services; never listens (tests use inject or listen on port 0).
 */
export async function buildApp(
  services: Services,
  options: AppOptions = {},
): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : loggerOptions(options.logger?.level ?? config.logLevel, options.logger?.stream),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    genReqId: () => crypto.randomUUID(),
    routerOptions: {
      ignoreTrailingSlash: true,
      ignoreDuplicateSlashes: true,
      // Percent-escapes that are not UTF-8 are kept as lone surrogates (not Node's U+FFFD), so
      // the check below refuses them instead of the text being rewritten silently.
      querystringParser: (query) =>
        parseQuery(query, '&', '=', { decodeURIComponent: decodeQueryComponent }),
    },
    frameworkErrors: handleFrameworkError,
    // Requests that arrive while shutting down get the contract's 503 (modules/ops).
    return503OnClosing: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  options.beforeRoutes?.(app);
  registerBodyIdleTimeout(app, config.bodyIdleTimeoutSeconds);

  // Fastify's built-in text/plain parser would hand a string to routes that expect JSON; the
  // contract answers every body type but JSON with 415, as InvenioRDM does.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseClientJson(body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  refuseUnstorableParameters(app);
  // A body with no Content-Type is JSON, as in InvenioRDM; any other declared type is 415.
  app.addHook('onRequest', (request, _reply, done) => {
    const hasBody =
      request.headers['content-length'] !== undefined ||
      request.headers['transfer-encoding'] !== undefined;
    const type = request.headers['content-type'];
    const config = request.routeOptions.config;
    // File content and parts are raw bytes: no Content-Type means octet-stream there, and the
    // match is on the exact string, as InvenioRDM's is.
    if (config?.binaryBody && /\/(content(\/\d+)?|logo)$/.test(request.url.split('?')[0]!)) {
      if (type === undefined) request.headers['content-type'] = 'application/octet-stream';
      else if (type !== 'application/octet-stream') {
        done(
          new AppError(
            'UNSUPPORTED_MEDIA_TYPE',
            "Invalid 'Content-Type' header. Expected one of: application/octet-stream",
          ),
        );
        return;
      }
    } else if (hasBody && type === undefined) {
      request.headers['content-type'] = 'application/json';
    }
    done();
  });
  // Raw bytes only where a route takes them (file content, parts, logos); JSON routes would be
  // handed a stream they cannot read.
  app.addContentTypeParser('application/octet-stream', (request, payload, done) => {
    if (request.routeOptions.config.binaryBody || request.is404) done(null, payload);
    else done(new AppError('UNSUPPORTED_MEDIA_TYPE'), undefined);
  });
  // A batch of files arrives as a form, read part by part by its route as it streams in.
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    if (request.routeOptions.config.formBody || request.is404) done(null, payload);
    else done(new AppError('UNSUPPORTED_MEDIA_TYPE'), undefined);
  });

  // Only the REST API belongs in the OpenAPI document; pages and assets are for browsers.
  // Every API route answers errors in the contract's error body.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) route.schema = { ...route.schema, hide: true };
    else if (!route.schema?.hide) {
      const responses = isRecord(route.schema?.response) ? route.schema.response : {};
      route.schema = { ...route.schema, response: { ...ERROR_RESPONSES, ...responses } };
    }
  });
  await registerSecurityHeaders(app, config, services.store);
  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Cairn REST API',
        version: '0.1.0',
        description: [
          "InvenioRDM-compatible REST API of Cairn. Operations tagged 'Cairn extension' go beyond the InvenioRDM contract.",
          `Every operation refuses with 400: a JSON body nested deeper than ${JSON_MAX_DEPTH} levels of objects and arrays (JSON_TOO_DEEP); text that is not well-formed Unicode or holds U+0000, in bodies, query strings and path parameters (VALIDATION_FAILED, naming the field); search text (q, suggest) longer than ${SEARCH_QUERY_MAX_LENGTH} characters or ${SEARCH_QUERY_MAX_WORDS} words once NFKC-normalised.`,
          'A request body from which no byte arrives for CAIRN_BODY_IDLE_TIMEOUT_SECONDS (30 by default) is answered 408 (REQUEST_TIMEOUT) and its connection closed.',
          "A secret link's `token` (see Access) is taken as `?token=` by every operation under `/api/records/{id}`: a `view` link opens the restricted record, its files and archive; `preview` also its draft and the draft's files; `edit` also, for a signed-in caller, what a curator reviewing the draft may do (save it and its files, reserve its DOI, publish it). An unknown, expired or deleted token grants nothing (the request runs as if it had none).",
          "A grant to a person (see Access, `/access/grants`) opens the same operations to its holder's own requests, with no token: `view`, `preview` and `edit` as a link's, and `manage` also sharing the record (links, grants), discarding its drafts and making new versions, as its owner.",
        ].join('\n\n'),
      },
      servers: [{ url: config.siteUrl }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'Personal access token (npx cairn tokens create EMAIL)',
          },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'cairn_session',
            description: 'Browser session; unsafe methods also need X-CSRFToken',
          },
        },
      },
      security: [{ bearer: [] }, { session: [] }],
    },
    transform: jsonSchemaTransform,
  });
  app.get('/api/docs/openapi.json', { schema: { hide: true } }, () => app.swagger());
  registerDocsPage(app);
  registerOperations(app, services);

  registerAuth(app, services.users, {
    links: services.secretLinks,
    secure: config.siteUrl.startsWith('https://'),
  });
  await registerThrottling(app, services.rateLimits, config);
  await app.register(authRoutes, { config, users: services.users });
  await app.register(recordRoutes, {
    config,
    drafts: services.drafts,
    publishing: services.publishing,
    pids: services.recordPids,
    access: services.recordAccess,
    search: services.search,
    renderer: services.recordsRenderer,
    vocabularies: services.vocabularies,
    users: services.users,
    expandParent: (parent, user, ui) => services.reviews.expandParent(parent, user, ui),
    communityScope: (user, id) => services.recordCommunities.communityScope(user, id),
    accessSettings: services.accessRequests,
  });
  await app.register(importMetadataRoutes, { config, imports: services.metadataImport });
  await app.register(recordDeletionRoutes, {
    config,
    deletion: services.recordDeletion,
    renderer: services.recordsRenderer,
    vocabularies: services.vocabularies,
  });
  await app.register(vocabularyRoutes, {
    config,
    vocabularies: services.vocabularies,
    items: services.vocabularyItems,
  });
  await app.register(itemRoutes, { config, items: services.vocabularyItems });
  await app.register(fileRoutes, { config, files: services.files });
  await app.register(secretLinkRoutes, { links: services.secretLinks });
  await app.register(grantRoutes, { grants: services.grants });
  await app.register(accessRequestRoutes, { config, accessRequests: services.accessRequests });
  await app.register(tokenRoutes, { users: services.users });
  await app.register(preferenceRoutes, { users: services.users, locales: config.locales });
  await app.register(recordExportRoutes, {
    config,
    access: services.recordAccess,
    vocabularies: services.vocabularies,
  });
  await registerCurationRoutes(app, services);
  await registerOaiRoutes(app, services.oai);
  // The benchmarks' baseline: the cheapest answer that still passes every hook a route passes.
  app.get('/api/hello', { schema: { hide: true } }, () => ({ hello: 'world' }));
  await app.register(sitemapRoutes, { config, sitemaps: services.sitemaps });
  await registerPages(app, {
    config,
    drafts: services.drafts,
    access: services.recordAccess,
    vocabularies: services.vocabularies,
    expandParent: (parent, user, ui) => services.reviews.expandParent(parent, user, ui),
    memberships: (user, ids) => services.communities.membershipsOf(user.id, ids),
    quota: (ownerId) => services.files.quotaOf(ownerId),
    awaitingRequests: (user) => services.requests.countAwaiting(user),
    allowedInCommunity: async (user, slug, what) => {
      const community = await services.communities.read(user, slug);
      if (!community.permissions[what]) throw permissionDenied();
    },
  });
  // The app's logger takes the messages when no SMTP server is configured.
  services.mail.start(app.log);
  return app;
}

/**
 * The routes of communities, their members, requests, reviews and a record's communities (issue
 * 4's modules); the permission matrix reads every route they register from here.
 */
export async function registerCurationRoutes(
  app: FastifyInstance,
  services: Services,
): Promise<void> {
  const { config } = services;
  await app.register(communityRoutes, { config, communities: services.communities });
  await app.register(requestRoutes, {
    config,
    requests: services.requests,
    communities: services.communities,
    users: services.users,
    readableRecord: (user, id) => services.recordCommunities.readableRecordId(user, id),
  });
  await app.register(membershipRoutes, { config, memberships: services.memberships });
  await app.register(reviewRoutes, { config, reviews: services.reviews });
  await app.register(recordCommunityRoutes, {
    config,
    recordCommunities: services.recordCommunities,
  });
}
