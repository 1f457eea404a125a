import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  GrantHitsSchema,
  GrantListQuery,
  GrantParams,
  GrantSchema,
  GrantsBody,
  GrantUpdateBody,
  GrantUserParams,
  RecordIdParams,
} from '@cairn/shared';
import { acceptOnly, JSON_TYPE, routesPlugin } from '../../lib/http.js';
import { documentedBody, documentedResponse, noContent } from '../../lib/openapi.js';
import type { GrantsService } from './grants.service.js';

const GRANT = documentedResponse(GrantSchema, 'The grant');
const GRANTS = documentedResponse(GrantHitsSchema, "The record's grants, in the order given");
const acceptJson = acceptOnly([JSON_TYPE]);

/**
 * InvenioRDM's grants of a record to people: by their place in the record's list
 * (`/api/records/{id}/access/grants`) and by the person (`…/access/users`).
 */
export const grantRoutes = routesPlugin<{ grants: GrantsService }>(
  (app: FastifyInstance, { grants }) => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['Access'];
    const who = 'The record owner, administrators and `manage` grantees only.';

    api.post(
      '/api/records/:id/access/grants',
      {
        onRequest: acceptJson,
        schema: {
          response: { 201: GRANTS },
          tags,
          summary: 'Grant people access to the record, all its versions and its draft (201)',
          description: `${who} view: the record and its files, restricted or not; preview: also the draft; edit: also editing the draft, as an edit link gives a signed-in person; manage: also sharing it (links, grants), new versions and discarding drafts, as its owner. A second grant to the same person, a grant to the owner or to oneself, or to an unknown user is 400, and then none of the request's grants is given. With \`notify: true\` (on the body or a grant) each new grantee is e-mailed, in their language, with the \`message\` and a link to the record (to its editor for an edit or manage grant on a draft never published), unless they turned e-mail off.`,
          params: RecordIdParams,
          body: documentedBody(GrantsBody),
        },
      },
      async (request, reply) => {
        const result = await grants.create(request.identity.user, request.params.id, request.body);
        return reply.status(201).type(JSON_TYPE).send(result);
      },
    );

    // Every grant is a user's (Cairn has no groups): both lists are the same.
    for (const [path, summary] of [
      ['/api/records/:id/access/grants', "List the record's grants"],
      ['/api/records/:id/access/users', "List the record's grants to users"],
    ] as const) {
      api.get(
        path,
        {
          onRequest: acceptJson,
          schema: {
            response: { 200: GRANTS },
            tags,
            summary,
            description: `${who} With \`expand=1\` (or \`true\`) each grant names its person in \`expanded.subject\` (their name, never their address).`,
            params: RecordIdParams,
            querystring: GrantListQuery,
          },
        },
        async (request, reply) => {
          const { expand } = request.query;
          const expanded = expand === '1' || expand === 'true';
          return reply
            .type(JSON_TYPE)
            .send(await grants.list(request.identity.user, request.params.id, expanded));
        },
      );
    }

    api.get(
      '/api/records/:id/access/grants/:grant_id',
      {
        onRequest: acceptJson,
        schema: {
          response: { 200: GRANT },
          tags,
          summary: 'Read a grant by its index in the list (404 beyond its end)',
          description: who,
          params: GrantParams,
        },
      },
      async (request, reply) => {
        const { id, grant_id } = request.params;
        return reply.type(JSON_TYPE).send(await grants.read(request.identity.user, id, grant_id));
      },
    );

    api.delete(
      '/api/records/:id/access/grants/:grant_id',
      {
        onRequest: acceptJson,
        schema: {
          response: { 204: noContent('Revoked: the person loses the access at once') },
          tags,
          summary: 'Revoke a grant by its index in the list (204)',
          description: `${who} The grants after it move up one place.`,
          params: GrantParams,
        },
      },
      async (request, reply) => {
        const { id, grant_id } = request.params;
        await grants.delete(request.identity.user, id, grant_id);
        return reply.status(204).send();
      },
    );

    api.get(
      '/api/records/:id/access/users/:user_id',
      {
        onRequest: acceptJson,
        schema: {
          response: { 200: GRANT },
          tags,
          summary: "Read a user's grant on the record",
          description: who,
          params: GrantUserParams,
        },
      },
      async (request, reply) => {
        const { id, user_id } = request.params;
        return reply
          .type(JSON_TYPE)
          .send(await grants.readUser(request.identity.user, id, user_id));
      },
    );

    api.patch(
      '/api/records/:id/access/users/:user_id',
      {
        onRequest: acceptJson,
        schema: {
          response: { 200: GRANT },
          tags,
          summary: "Change a user's permission on the record",
          description: who,
          params: GrantUserParams,
          body: documentedBody(GrantUpdateBody),
        },
      },
      async (request, reply) => {
        const { id, user_id } = request.params;
        const grant = await grants.updateUser(request.identity.user, id, user_id, request.body);
        return reply.type(JSON_TYPE).send(grant);
      },
    );

    api.delete(
      '/api/records/:id/access/users/:user_id',
      {
        onRequest: acceptJson,
        schema: {
          response: { 204: noContent('Revoked: the person loses the access at once') },
          tags,
          summary: "Revoke a user's grant (204)",
          description: who,
          params: GrantUserParams,
        },
      },
      async (request, reply) => {
        const { id, user_id } = request.params;
        await grants.deleteUser(request.identity.user, id, user_id);
        return reply.status(204).send();
      },
    );
  },
);
