import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ItemHitSchema,
  ItemHitsSchema,
  VocabularyEntriesSchema,
  VocabularyEntrySchema,
  VocabularyItemParams,
  VocabularySearchQuery,
  VocabularyTypeParams,
} from '@cairn/shared';
import { z } from 'zod';
import type { Config } from '../../config.js';
import {
  acceptOnly,
  JSON_TYPE,
  negotiate,
  requestLocale,
  VND_TYPE,
  routesPlugin,
} from '../../lib/http.js';
import {
  documentedBody,
  documentedQuery,
  documentedResponse,
  noContent,
} from '../../lib/openapi.js';
import { searchLinks } from '../../lib/search.js';
import { parsedQuery } from '../../lib/zod-errors.js';
import { itemSearchQuery } from './suggest-params.js';
import type { VocabularyItemsService } from './indexed/items.service.js';
import { isIndexedType } from './indexed/kinds.js';
import { presentItem, presentItemHits, requireAdmin } from './indexed/items.routes.js';
import {
  EntrySchema,
  type VocabulariesService,
  type VocabularyEntry,
} from './vocabularies.service.js';
import {
  presentLocalizedVocabularyEntry,
  presentVocabularyEntry,
} from './vocabularies.presenter.js';

const VOCABULARY_TYPES = [JSON_TYPE, VND_TYPE] as const;
const ENTRY = documentedResponse(z.union([VocabularyEntrySchema, ItemHitSchema]), 'The entry');
const ENTRY_BODY = documentedBody(
  EntrySchema,
  'An entry of a small vocabulary; names, affiliations, funders, awards and subjects take the item of their own routes',
);
const acceptVocabularyTypes = acceptOnly(VOCABULARY_TYPES);

export interface VocabulariesRouteDeps {
  config: Config;
  vocabularies: VocabulariesService;
  items: VocabularyItemsService;
}

/** InvenioRDM's generic vocabularies resource, read-only. */
export const vocabularyRoutes = routesPlugin<VocabulariesRouteDeps>(
  (app: FastifyInstance, deps) => {
    const { config, vocabularies, items } = deps;
    const api = app.withTypeProvider<ZodTypeProvider>();
    const base = (vocabulary: string) =>
      `${config.siteUrl}/api/vocabularies/${encodeURIComponent(vocabulary)}`;
    const tags = ['Vocabularies'];

    /** The representation the request negotiated, as a function of one entry. */
    function presenter(request: FastifyRequest) {
      const type = negotiate(request, VOCABULARY_TYPES);
      const locale = requestLocale(request, config.locales, config.defaultLocale);
      const present: (entry: VocabularyEntry) => z.input<typeof VocabularyEntrySchema> =
        type === VND_TYPE
          ? (e: VocabularyEntry) => presentLocalizedVocabularyEntry(e, locale, config.defaultLocale)
          : (e: VocabularyEntry) => presentVocabularyEntry(e, config.siteUrl);
      return { type, locale, present };
    }

    api.get(
      '/api/vocabularies/:type',
      {
        onRequest: acceptVocabularyTypes,
        schema: {
          response: {
            200: documentedResponse(
              z.union([VocabularyEntriesSchema, ItemHitsSchema]),
              'A page of entries',
            ),
          },
          tags,
          summary: 'Search a vocabulary (q or suggest, tags, sort, page, size)',
          params: VocabularyTypeParams,
          querystring: documentedQuery(VocabularySearchQuery),
        },
      },
      async (request, reply) => {
        const { type: vocabulary } = request.params;
        const { type, locale, present } = presenter(request);
        // Subjects and the other large vocabularies answer here too, from their own index.
        if (isIndexedType(vocabulary)) {
          // Each large vocabulary reads its query string as its own route does.
          const query = parsedQuery(itemSearchQuery(vocabulary), request.query);
          const found = await items.search(vocabulary, query);
          return reply.type(type).send(presentItemHits(found, base(vocabulary), type));
        }
        const result = await vocabularies.search(vocabulary, request.query, {
          locale,
          fallbackLocale: config.defaultLocale,
        });
        const hits = { hits: result.entries.map(present), total: result.total };
        const links = searchLinks(base(vocabulary), result.params, result.total);
        // InvenioRDM's localized search has no aggregations.
        return reply
          .type(type)
          .send(
            type === VND_TYPE
              ? { hits, sortBy: result.params.sort, links }
              : { hits, aggregations: {}, sortBy: result.params.sort, links },
          );
      },
    );

    api.get(
      '/api/vocabularies/:type/:id',
      {
        onRequest: acceptVocabularyTypes,
        schema: {
          response: { 200: ENTRY },
          tags,
          summary: 'Read one vocabulary entry',
          params: VocabularyItemParams,
        },
      },
      async (request, reply) => {
        const { type: vocabulary, id } = request.params;
        const { type, present } = presenter(request);
        if (isIndexedType(vocabulary)) {
          return reply
            .type(type)
            .send(presentItem(await items.read(vocabulary, id), base(vocabulary)));
        }
        return reply.type(type).send(present(await vocabularies.read(vocabulary, id)));
      },
    );

    api.post(
      '/api/vocabularies/:type',
      {
        schema: {
          response: { 201: ENTRY },
          tags,
          summary: 'Create a vocabulary entry (admins; 201)',
          params: VocabularyTypeParams,
          body: ENTRY_BODY,
        },
      },
      async (request, reply) => {
        requireAdmin(request);
        const { type: vocabulary } = request.params;
        if (isIndexedType(vocabulary)) {
          const item = await items.create(vocabulary, request.body);
          return reply.code(201).send(presentItem(item, base(vocabulary)));
        }
        const entry = await vocabularies.create(vocabulary, request.body);
        return reply.code(201).send(presentVocabularyEntry(entry, config.siteUrl));
      },
    );

    api.put(
      '/api/vocabularies/:type/:id',
      {
        schema: {
          response: { 200: ENTRY },
          tags,
          summary: 'Replace a vocabulary entry (admins)',
          params: VocabularyItemParams,
          body: ENTRY_BODY,
        },
      },
      async (request, reply) => {
        requireAdmin(request);
        const { type: vocabulary, id } = request.params;
        if (isIndexedType(vocabulary)) {
          const item = await items.update(vocabulary, id, request.body);
          return reply.send(presentItem(item, base(vocabulary)));
        }
        const entry = await vocabularies.update(vocabulary, id, request.body);
        return reply.send(presentVocabularyEntry(entry, config.siteUrl));
      },
    );

    api.delete(
      '/api/vocabularies/:type/:id',
      {
        schema: {
          response: { 204: noContent('Deleted') },
          tags,
          summary: 'Delete a vocabulary entry (admins; 204)',
          params: VocabularyItemParams,
        },
      },
      async (request, reply) => {
        requireAdmin(request);
        const { type: vocabulary, id } = request.params;
        if (isIndexedType(vocabulary)) await items.delete(vocabulary, id);
        else await vocabularies.delete(vocabulary, id);
        return reply.code(204).send();
      },
    );
  },
);
