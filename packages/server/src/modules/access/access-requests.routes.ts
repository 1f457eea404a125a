import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AccessRequestBody,
  AccessRequestSentSchema,
  AccessRequestVerifyBody,
  RecordIdParams,
  RequestJsonSchema,
} from '@cairn/shared';
import type { Config } from '../../config.js';
import {
  acceptOnly,
  JSON_TYPE,
  negotiate,
  requestLocale,
  routesPlugin,
  VND_TYPE,
} from '../../lib/http.js';
import { documentedBody, documentedResponse } from '../../lib/openapi.js';
import { presentRequest } from '../requests/requests.presenter.js';
import type { AccessRequestsService } from './access-requests.service.js';

// The web app asks for InvenioRDM's UI type, as for every request it reads.
const TYPES = [JSON_TYPE, VND_TYPE] as const;
const acceptJson = acceptOnly(TYPES);

/**
 * InvenioRDM's access requests (`/api/records/{id}/access/request`) and the confirmation of a
 * guest's address (`/api/access-requests/verify`, Cairn's: InvenioRDM confirms on a page).
 */
export const accessRequestRoutes = routesPlugin<{
  config: Config;
  accessRequests: AccessRequestsService;
}>((app: FastifyInstance, { config, accessRequests }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Access'];

  api.post(
    '/api/records/:id/access/request',
    {
      onRequest: acceptJson,
      schema: {
        response: {
          200: documentedResponse(
            z.union([RequestJsonSchema, AccessRequestSentSchema]),
            'The user-access-request, submitted; or, for a guest, that a link to confirm their address was sent',
          ),
        },
        tags,
        summary: "Ask the record's owner for access to its restricted files",
        description: [
          'Signed in, with `email` your own (or left out, a Cairn extension): a `user-access-request` to the owner, submitted at once; `message` becomes its first comment.',
          'Otherwise (a guest, or another address): `full_name` and `email` are required, and a link to confirm the address is sent to it (valid 6 hours); following it makes a `guest-access-request`.',
          "403: the record is not visible to the caller, its files are not restricted or already open to the caller (an owner, a grantee, a link's holder), or the owner does not take requests of that kind (`parent.access.settings`). 400: an open request of the same person for the record already exists.",
        ].join(' '),
        params: RecordIdParams,
        body: documentedBody(AccessRequestBody),
      },
    },
    async (request, reply) => {
      const result = await accessRequests.request(
        request.identity.user,
        request.identity.link,
        request.params.id,
        request.body,
        requestLocale(request, config.locales, config.defaultLocale),
      );
      const body = 'view' in result ? presentRequest(result.view, config.siteUrl) : result;
      return reply.type(negotiate(request, TYPES)).send(body);
    },
  );

  api.post(
    '/api/access-requests/verify',
    {
      onRequest: acceptJson,
      schema: {
        response: {
          200: documentedResponse(RequestJsonSchema, 'The guest-access-request, submitted'),
        },
        tags: [...tags, 'Cairn extension'],
        summary: "Confirm a guest's address: their access request is made (once)",
        description:
          'The `token` of the link e-mailed to a guest who asked for access. Unknown, expired or used already: 400.',
        body: documentedBody(AccessRequestVerifyBody),
      },
    },
    async (request, reply) => {
      const view = await accessRequests.verify(request.body);
      return reply.type(negotiate(request, TYPES)).send(presentRequest(view, config.siteUrl));
    },
  );
});
