import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { acceptOnly, JSON_TYPE, negotiate, requestLocale, VND_TYPE } from '../../lib/http.js';
import { searchLinks } from '../../lib/search.js';
import type { VocabulariesService, VocabularyEntry } from './vocabularies.service.js';
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
}

/** InvenioRDM's generic vocabularies resource, read-only (invenio-api.md §1.14). */
export function registerVocabularyRoutes(app: FastifyInstance, deps: VocabulariesRouteDeps): void {
  const { config, vocabularies } = deps;
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
      },
    },
    async (request, reply) => {
      const { type: vocabulary } = request.params as z.infer<typeof TypeParams>;
      const { type, locale, present } = presenter(request);
      const result = await vocabularies.search(
        vocabulary,
        request.query as Record<string, unknown>,
        { locale, fallbackLocale: config.defaultLocale },
      );
      const hits = { hits: result.entries.map(present), total: result.total };
      const links = searchLinks(
        `${config.siteUrl}/api/vocabularies/${encodeURIComponent(vocabulary)}`,
        result.params,
        result.total,
      );
      // The localized search has no aggregations (invenio-api.md §1.3).
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
      return reply.type(type).send(present(await vocabularies.read(vocabulary, id)));
    },
  );
}
