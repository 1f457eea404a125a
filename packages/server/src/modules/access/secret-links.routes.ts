import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  RecordIdParams,
  SecretLinkBody,
  SecretLinkHitsSchema,
  SecretLinkParams,
  SecretLinkSchema,
  SecretLinkUpdateBody,
} from '@cairn/shared';
import { acceptOnly, JSON_TYPE, routesPlugin } from '../../lib/http.js';
import { documentedBody, documentedResponse, noContent } from '../../lib/openapi.js';
import type { SecretLinksService } from './secret-links.service.js';

const LINK = documentedResponse(SecretLinkSchema, 'The secret link');
const LINKS = documentedResponse(SecretLinkHitsSchema, "The record's secret links, oldest first");
const acceptJson = acceptOnly([JSON_TYPE]);

/** InvenioRDM's secret links of a record (`/api/records/{id}/access/links`). */
export const secretLinkRoutes = routesPlugin<{ links: SecretLinksService }>(
  (app: FastifyInstance, { links }) => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['Access'];
    const who = 'The record owner (and administrators) only.';

    api.post(
      '/api/records/:id/access/links',
      {
        onRequest: acceptJson,
        schema: {
          response: { 201: LINK },
          tags,
          summary: 'Create a secret link to the record, all its versions and its draft (201)',
          description: `${who} \`expires_at\` must be a later day than today.`,
          params: RecordIdParams,
          body: documentedBody(SecretLinkBody),
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const link = await links.create(request.identity.user, id, request.body);
        return reply.status(201).type(JSON_TYPE).send(link);
      },
    );

    api.get(
      '/api/records/:id/access/links',
      {
        onRequest: acceptJson,
        schema: {
          response: { 200: LINKS },
          tags,
          summary: "List the record's secret links",
          description: who,
          params: RecordIdParams,
        },
      },
      async (request, reply) =>
        reply.type(JSON_TYPE).send(await links.list(request.identity.user, request.params.id)),
    );

    api.get(
      '/api/records/:id/access/links/:link_id',
      {
        onRequest: acceptJson,
        schema: {
          response: { 200: LINK },
          tags,
          summary: 'Read a secret link (404 once deleted)',
          description: who,
          params: SecretLinkParams,
        },
      },
      async (request, reply) => {
        const { id, link_id } = request.params;
        return reply.type(JSON_TYPE).send(await links.read(request.identity.user, id, link_id));
      },
    );

    api.patch(
      '/api/records/:id/access/links/:link_id',
      {
        onRequest: acceptJson,
        schema: {
          response: { 200: LINK },
          tags,
          summary: "Change a secret link's permission or description, or end it sooner",
          description: `${who} A later \`expires_at\` than the link's, removing it (\`null\`) or a day not after today is 400.`,
          params: SecretLinkParams,
          body: documentedBody(SecretLinkUpdateBody),
        },
      },
      async (request, reply) => {
        const { id, link_id } = request.params;
        const link = await links.update(request.identity.user, id, link_id, request.body);
        return reply.type(JSON_TYPE).send(link);
      },
    );

    api.delete(
      '/api/records/:id/access/links/:link_id',
      {
        onRequest: acceptJson,
        schema: {
          response: { 204: noContent('Deleted: the token stops working at once') },
          tags,
          summary: 'Delete a secret link (204)',
          description: who,
          params: SecretLinkParams,
        },
      },
      async (request, reply) => {
        const { id, link_id } = request.params;
        await links.delete(request.identity.user, id, link_id);
        return reply.status(204).send();
      },
    );
  },
);
