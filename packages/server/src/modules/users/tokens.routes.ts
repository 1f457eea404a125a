import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CreatedTokenSchema, CreateTokenBody, TokenListSchema, TokenParams } from '@cairn/shared';
import { documentedResponse, noContent } from '../../lib/openapi.js';
import { DEFERRED_BODY, validBody } from '../../lib/body.js';
import { invenioTime } from '../records/records.presenter.js';
import { requireUser } from '../../plugins/auth.js';
import type { UsersService } from './users.service.js';
import { routesPlugin } from '../../lib/http.js';

const tags = ['Cairn extension'];

function presentToken(t: {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt?: string | null;
}) {
  return {
    id: String(t.id),
    name: t.name,
    created: invenioTime(t.createdAt),
    last_used: t.lastUsedAt ? invenioTime(t.lastUsedAt) : null,
  };
}

/**
 * Personal access tokens from the account page. InvenioRDM manages tokens in its own UI (no
 * REST contract to follow), so these are Cairn extensions. The secret is in the 201 answer only;
 * Cairn keeps its hash, so a lost token is revoked and replaced, never shown again.
 */
export const tokenRoutes = routesPlugin<{ users: UsersService }>(
  (app: FastifyInstance, { users }) => {
    app.get(
      '/api/user/tokens',
      {
        schema: {
          response: {
            200: documentedResponse(TokenListSchema, "The caller's tokens, without their secrets"),
          },
          tags,
          summary: "The caller's personal access tokens (never their secrets)",
        },
      },
      async (request) => {
        const user = requireUser(request);
        const tokens = await users.listTokens(user.id);
        return { hits: { hits: tokens.map(presentToken), total: tokens.length } };
      },
    );

    app.withTypeProvider<ZodTypeProvider>().post(
      '/api/user/tokens',
      {
        ...DEFERRED_BODY,
        config: { throttle: 'tokens' },
        schema: {
          response: {
            201: documentedResponse(
              CreatedTokenSchema,
              'The token, with its secret: shown this once',
            ),
          },
          tags,
          summary: 'Create a personal access token (201); the secret is shown only in this answer',
          description:
            'Throttled per person and per client address (CAIRN_RATE_LIMIT_TOKENS_*): past either limit the answer is 429 with Retry-After.',
          body: CreateTokenBody,
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        const created = await users.createToken(user.id, validBody(request)?.name ?? '');
        return reply.status(201).send({ ...presentToken(created), token: created.token });
      },
    );

    app.withTypeProvider<ZodTypeProvider>().delete(
      '/api/user/tokens/:id',
      {
        schema: {
          tags,
          summary: 'Revoke a personal access token (204)',
          params: TokenParams,
          response: { 204: noContent('Revoked') },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        const { id } = request.params;
        await users.revokeToken(user.id, id);
        return reply.status(204).send();
      },
    );
  },
);
