import type { FastifyInstance } from 'fastify';
import { PreferencesBody, PreferencesSchema } from '@cairn/shared';
import { bodyFields, routesPlugin } from '../../lib/http.js';
import { documentedBody, documentedResponse } from '../../lib/openapi.js';
import { requireUser } from '../../plugins/auth.js';
import type { UsersService } from './users.service.js';

const PREFERENCES = documentedResponse(PreferencesSchema, "The caller's preferences");

const tags = ['Cairn extension'];

/**
 * The signed-in person's preferences: for now the language of the pages, chosen in the header.
 * InvenioRDM keeps preferences in its own account pages with no REST contract to follow, so
 * these are Cairn extensions.
 */
export const preferenceRoutes = routesPlugin<{
  users: UsersService;
  locales: readonly string[];
}>((app: FastifyInstance, deps) => {
  app.get(
    '/api/user/preferences',
    {
      schema: {
        response: { 200: PREFERENCES },
        tags,
        summary: "The caller's preferences (`locale`: null until chosen)",
      },
    },
    (request) => {
      const user = requireUser(request);
      return { locale: user.locale ?? null };
    },
  );

  app.put(
    '/api/user/preferences',
    {
      schema: {
        response: { 200: PREFERENCES },
        tags,
        summary: "Set the caller's preferences",
        description: `\`locale\`: the language of the pages, one of the site's languages (${deps.locales.join(', ')}); anything else is a 400 naming the field.`,
        body: documentedBody(PreferencesBody),
      },
    },
    async (request) => {
      const user = requireUser(request);
      const body = bodyFields(request.body);
      const locale = await deps.users.setLocale(user.id, body.locale, deps.locales);
      return { locale };
    },
  );
});
