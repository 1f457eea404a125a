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
 * The signed-in person's preferences: the language of the pages (chosen in the header) and of
 * e-mail, and whether they receive e-mail notifications (chosen on the account page).
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
      return {
        locale: user.locale ?? null,
        email_notifications: user.emailNotifications !== false,
      };
    },
  );

  app.withTypeProvider<ZodTypeProvider>().put(
    '/api/user/preferences',
    {
      ...DEFERRED_BODY,
      schema: {
        response: { 200: PREFERENCES },
        tags,
        summary: "Set the caller's preferences (what is sent changes, the rest stays)",
        description: `\`locale\`: the language of the pages and of e-mail, one of the site's languages (${deps.locales.join(', ')}); \`email_notifications\`: whether the person receives e-mail about their requests (true unless turned off). Anything else, or neither, is a 400 naming the field.`,
        body: preferencesBody(deps.locales),
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { locale, email_notifications: email } = validBody(request);
      if (locale !== undefined) await deps.users.setLocale(user.id, locale);
      if (email !== undefined) await deps.users.setEmailNotifications(user.id, email);
      return {
        locale: locale ?? user.locale ?? null,
        email_notifications: email ?? user.emailNotifications !== false,
      };
    },
  );
});
