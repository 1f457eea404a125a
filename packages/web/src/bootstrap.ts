import { createContext, useContext } from 'react';
import { z } from 'zod';
import { RecordJsonSchema } from './api/records';

/** The public configuration the server passes to the browser (never secrets). */
export const PublicConfigSchema = z.object({
  siteUrl: z.string().default(''),
  siteName: z.string().default('Cairn'),
  defaultLocale: z.string().default('en'),
  locales: z.array(z.string()).default(['en']),
  createUrl: z.string().default('/api/records'),
  dashboardUploadsRoute: z.string().default('/me/uploads'),
  isDoiRequired: z.boolean().default(false),
  csrfCookieName: z.string().default('csrftoken'),
  csrfHeaderName: z.string().default('X-CSRFToken'),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;

export const CurrentUserSchema = z.object({
  id: z.coerce.string(),
  email: z.string(),
  name: z.string().default(''),
  isAdmin: z.boolean().default(false),
});
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

export const VocabularyEntrySchema = z.object({ id: z.string(), title: z.string() });
export type VocabularyEntry = z.infer<typeof VocabularyEntrySchema>;

/**
 * Each key falls back on its own: a draft the schema does not understand must not also log the
 * user out. The page then fetches the data through the API, which reports the problem.
 */
function lenient<T extends z.ZodType>(key: string, schema: T, fallback: z.output<T>) {
  return schema.catch((context) => {
    console.error(`Ignoring the bootstrap's "${key}":`, context.error.issues);
    return fallback;
  });
}

export const BootstrapSchema = z.object({
  config: lenient('config', PublicConfigSchema.prefault({}), PublicConfigSchema.parse({})),
  user: lenient('user', CurrentUserSchema.nullable().default(null), null),
  vocabularies: lenient(
    'vocabularies',
    z.object({ resourcetypes: z.array(VocabularyEntrySchema).default([]) }).prefault({}),
    { resourcetypes: [] },
  ),
  draft: lenient('draft', RecordJsonSchema.nullable().default(null), null),
  record: lenient('record', RecordJsonSchema.nullable().default(null), null),
  error: lenient(
    'error',
    z.object({ status: z.number(), message: z.string() }).nullable().default(null),
    null,
  ),
});
export type Bootstrap = z.infer<typeof BootstrapSchema>;

export const BOOTSTRAP_ELEMENT_ID = 'cairn-bootstrap';

/**
 * Reads the JSON the server injects into the page once. Without it (tests, `vite dev`) the app
 * runs on defaults: no user, default config, nothing preloaded.
 */
export function readBootstrap(doc: Document): Bootstrap {
  const text = doc.getElementById(BOOTSTRAP_ELEMENT_ID)?.textContent;
  let raw: unknown = {};
  if (text) {
    try {
      raw = JSON.parse(text);
    } catch (error) {
      console.error('The bootstrap JSON is not valid JSON:', error);
    }
  }
  const parsed = BootstrapSchema.safeParse(raw);
  return parsed.success ? parsed.data : BootstrapSchema.parse({});
}

export const BootstrapContext = createContext<Bootstrap>(BootstrapSchema.parse({}));

export function useBootstrap(): Bootstrap {
  return useContext(BootstrapContext);
}
