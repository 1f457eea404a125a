import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { acceptOnly, JSON_TYPE, negotiate, requestLocale, VND_TYPE } from '../../lib/http.js';
import { facet, searchQuery } from '../../lib/openapi.js';
import { searchLinks } from '../../lib/search.js';
import type { VocabularyItemsService } from './indexed/items.service.js';
import { isIndexedType } from './indexed/kinds.js';
import { presentItem, presentItemHits, requireAdmin } from './indexed/items.routes.js';
import {
  VOCABULARY_SORTS,
  type VocabulariesService,
  type VocabularyEntry,
} from './vocabularies.service.js';
import {
  presentLocalizedVocabularyEntry,
  presentVocabularyEntry,
} from './vocabularies.presenter.js';

const VOCABULARY_TYPES = [JSON_TYPE, VND_TYPE] as const;
const acceptVocabularyTypes = acceptOnly(VOCABULARY_TYPES);
const TypeParams = z.object({
  type: z.string().describe('Vocabulary type, e.g. languages, licenses, resourcetypes'),
});
const ItemParams = TypeParams.extend({ id: z.string().describe('Entry id, e.g. cc-by-4.0') });

export interface VocabulariesRouteDeps {
  config: Config;
  vocabularies: VocabulariesService;
  items: VocabularyItemsService;
}

/** InvenioRDM's generic vocabularies resource, read-only. */
export function registerVocabularyRoutes(app: FastifyInstance, deps: VocabulariesRouteDeps): void {
  const { config, vocabularies, items } = deps;
  const base = (vocabulary: string) =>
    `${config.siteUrl}/api/vocabularies/${encodeURIComponent(vocabulary)}`;
  const tags = ['Vocabularies'];

  /** The representation the request negotiated, as a function of one entry. */
  function presenter(request: FastifyRequest) {
    const type = negotiate(request, VOCABULARY_TYPES);
    const locale = requestLocale(request, config.locales, config.defaultLocale);
    const present =
      type === VND_TYPE
        ? (e: VocabularyEntry) => presentLocalizedVocabularyEntry(e, locale, config.defaultLocale)
        : (e: VocabularyEntry) => presentVocabularyEntry(e, config.siteUrl);
    return { type, locale, present };
  }

  app.get(
    '/api/vocabularies/:type',
    {
      onRequest: acceptVocabularyTypes,
      schema: {
        tags,
        summary: 'Search a vocabulary (q or suggest, tags, sort, page, size)',
        params: TypeParams,
        querystring: searchQuery(VOCABULARY_SORTS, {
          suggest: z.string().max(500).describe('Typed text (not together with q)'),
          tags: facet(),
        }),
      },
    },
    async (request, reply) => {
      const { type: vocabulary } = request.params as z.infer<typeof TypeParams>;
      const { type, locale, present } = presenter(request);
      // Subjects and the other large vocabularies answer here too, from their own index.
      if (isIndexedType(vocabulary)) {
        const found = await items.search(vocabulary, request.query as Record<string, unknown>);
        return reply.type(type).send(presentItemHits(found, base(vocabulary), type));
      }
      const result = await vocabularies.search(
        vocabulary,
        request.query as Record<string, unknown>,
        { locale, fallbackLocale: config.defaultLocale },
      );
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

  app.get(
    '/api/vocabularies/:type/:id',
    {
      onRequest: acceptVocabularyTypes,
      schema: { tags, summary: 'Read one vocabulary entry', params: ItemParams },
    },
    async (request, reply) => {
      const { type: vocabulary, id } = request.params as z.infer<typeof ItemParams>;
      const { type, present } = presenter(request);
      if (isIndexedType(vocabulary)) {
        return reply
          .type(type)
          .send(presentItem(await items.read(vocabulary, id), base(vocabulary)));
      }
      return reply.type(type).send(present(await vocabularies.read(vocabulary, id)));
    },
  );

  app.post(
    '/api/vocabularies/:type',
    { schema: { tags, summary: 'Create a vocabulary entry (admins; 201)', params: TypeParams } },
    async (request, reply) => {
      requireAdmin(request);
      const { type: vocabulary } = request.params as z.infer<typeof TypeParams>;
      if (isIndexedType(vocabulary)) {
        const item = await items.create(vocabulary, request.body);
        return reply.code(201).send(presentItem(item, base(vocabulary)));
      }
      const entry = await vocabularies.create(vocabulary, request.body);
      return reply.code(201).send(presentVocabularyEntry(entry, config.siteUrl));
    },
  );

  app.put(
    '/api/vocabularies/:type/:id',
    { schema: { tags, summary: 'Replace a vocabulary entry (admins)', params: ItemParams } },
    async (request, reply) => {
      requireAdmin(request);
      const { type: vocabulary, id } = request.params as z.infer<typeof ItemParams>;
      if (isIndexedType(vocabulary)) {
        const item = await items.update(vocabulary, id, request.body);
        return reply.send(presentItem(item, base(vocabulary)));
      }
      const entry = await vocabularies.update(vocabulary, id, request.body);
      return reply.send(presentVocabularyEntry(entry, config.siteUrl));
    },
  );

  app.delete(
    '/api/vocabularies/:type/:id',
    { schema: { tags, summary: 'Delete a vocabulary entry (admins; 204)', params: ItemParams } },
    async (request, reply) => {
      requireAdmin(request);
      const { type: vocabulary, id } = request.params as z.infer<typeof ItemParams>;
      if (isIndexedType(vocabulary)) await items.delete(vocabulary, id);
      else await vocabularies.delete(vocabulary, id);
      return reply.code(204).send();
    },
  );
}
