import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { preferencesBody, PreferencesSchema } from '@cairn/shared';
import { routesPlugin } from '../../lib/http.js';
import { DEFERRED_BODY, validBody } from '../../lib/body.js';
import { documentedResponse } from '../../lib/openapi.js';
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

  app.withTypeProvider<ZodTypeProvider>().put(
    '/api/user/preferences',
    {
      ...DEFERRED_BODY,
      schema: {
        response: { 200: PREFERENCES },
        tags,
        summary: "Set the caller's preferences",
        description: `\`locale\`: the language of the pages, one of the site's languages (${deps.locales.join(', ')}); anything else is a 400 naming the field.`,
        body: preferencesBody(deps.locales),
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { locale } = validBody(request);
      await deps.users.setLocale(user.id, locale);
      return { locale };
    },
  );
});
