import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IndexedItemParams, ItemHitSchema, ItemHitsSchema } from '@cairn/shared';
import type { Config } from '../../../config.js';
import { permissionDenied } from '../../../errors.js';
import { acceptOnly, JSON_TYPE, negotiate, VND_TYPE, routesPlugin } from '../../../lib/http.js';
import { documentedBody, documentedResponse, noContent } from '../../../lib/openapi.js';
import { searchLinks } from '../../../lib/search.js';
import { itemSearchQuery } from '../suggest-params.js';
import { requireUser } from '../../../plugins/auth.js';
import type { ItemHits, StoredItem, VocabularyItemsService } from './items.service.js';
import { INDEXED_KINDS, INDEXED_TYPES, type IndexedType } from './kinds.js';

const ITEM_TYPES = [JSON_TYPE, VND_TYPE] as const;
const ITEM = documentedResponse(ItemHitSchema, 'The item');
const ITEM_HITS = documentedResponse(ItemHitsSchema, 'A page of items');
const acceptItemTypes = acceptOnly(ITEM_TYPES);

export interface ItemRouteDeps {
  config: Config;
  items: VocabularyItemsService;
}

/** An item as the API shows it: its data, bookkeeping, and a self link under `base`. */
export function presentItem(item: StoredItem, base: string): Record<string, unknown> {
  return {
    ...item.data,
    created: item.createdAt,
    updated: item.updatedAt,
    revision_id: item.revisionId,
    links: { self: `${base}/${encodeURIComponent(item.id)}` },
  };
}

/** The search envelope over items, links under `base`. */
export function presentItemHits(result: ItemHits, base: string, type: string) {
  const hits = { hits: result.items.map((i) => presentItem(i, base)), total: result.total };
  const links = searchLinks(base, result.params, result.total);
  return type === VND_TYPE
    ? { hits, sortBy: result.params.sort, links }
    : { hits, aggregations: {}, sortBy: result.params.sort, links };
}

/** Admins only: 403 for everyone else, as InvenioRDM's `SystemProcess | Administration` need. */
export function requireAdmin(request: FastifyRequest): void {
  if (!requireUser(request).isAdmin) throw permissionDenied();
}

/**
 * `/api/names`, `/api/affiliations`, `/api/funders`, `/api/awards`, `/api/subjects`: search and
 * read for everyone, create, replace and delete for admins, as in InvenioRDM.
 */
export const itemRoutes = routesPlugin<ItemRouteDeps>((app: FastifyInstance, deps) => {
  const { config, items } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  for (const type of INDEXED_TYPES) {
    const kind = INDEXED_KINDS[type];
    const base = `${config.siteUrl}${kind.root}`;
    const tags = ['Vocabularies'];
    const filterNote = kind.facetParam ? `, ${kind.facetParam}` : '';
    registerItemSearch(app, items, type, kind.root, base, {
      tags,
      summary: `Search ${type} (q or suggest, tags${filterNote}, sort, page, size)`,
    });
    api.get(
      `${kind.root}/:id`,
      {
        onRequest: acceptItemTypes,
        schema: {
          tags,
          summary: `Read one of the ${type}`,
          params: IndexedItemParams,
          response: { 200: ITEM },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const item = await items.read(type, id);
        return reply.type(negotiate(request, ITEM_TYPES)).send(presentItem(item, base));
      },
    );
    api.post(
      kind.root,
      {
        schema: {
          tags,
          summary: `Create one of the ${type} (admins; 201)`,
          response: { 201: ITEM },
          body: documentedBody(kind.schema),
        },
      },
      async (request, reply) => {
        requireAdmin(request);
        const item = await items.create(type, request.body);
        return reply.code(201).send(presentItem(item, base));
      },
    );
    api.put(
      `${kind.root}/:id`,
      {
        schema: {
          tags,
          summary: `Replace one of the ${type} (admins)`,
          response: { 200: ITEM },
          params: IndexedItemParams,
          body: documentedBody(kind.schema),
        },
      },
      async (request, reply) => {
        requireAdmin(request);
        const { id } = request.params;
        return reply.send(presentItem(await items.update(type, id, request.body), base));
      },
    );
    api.delete(
      `${kind.root}/:id`,
      {
        schema: {
          tags,
          summary: `Delete one of the ${type} (admins; 204)`,
          params: IndexedItemParams,
          response: { 204: noContent('Deleted') },
        },
      },
      async (request, reply) => {
        requireAdmin(request);
        const { id } = request.params;
        await items.delete(type, id);
        return reply.code(204).send();
      },
    );
  }
});

/** The search route of one indexed type at `path`, its links under `base`. */
export function registerItemSearch(
  app: FastifyInstance,
  items: VocabularyItemsService,
  type: IndexedType,
  path: string,
  base: string,
  schema: { tags: string[]; summary: string },
): void {
  const querystring = itemSearchQuery(type);
  app.withTypeProvider<ZodTypeProvider>().get(
    path,
    {
      onRequest: acceptItemTypes,
      schema: { ...schema, querystring, response: { 200: ITEM_HITS } },
    },
    async (request, reply) => {
      const accepted = negotiate(request, ITEM_TYPES);
      const result = await items.search(type, request.query);
      return reply.type(accepted).send(presentItemHits(result, base, accepted));
    },
  );
}
