import { createContext, useContext } from 'react';
import { z } from 'zod';
import {
  GRANT_PERMISSIONS,
  PublicConfigSchema,
  SECRET_LINK_PERMISSIONS,
  TombstoneSchema,
} from '@cairn/shared';
import { RecordJsonSchema, type RecordJson } from './api/records';

export const CurrentUserSchema = z.object({
  id: z.coerce.string(),
  email: z.string(),
  name: z.string().default(''),
  isAdmin: z.boolean().default(false),
  /** The language the person chose in the header, kept with their account. */
  locale: z.string().nullable().default(null),
  /** Whether the person receives e-mail notifications (chosen on the account page). */
  emailNotifications: z.boolean().default(true),
});
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

export const VocabularyEntrySchema = z.object({ id: z.string(), title: z.string() });
export type VocabularyEntry = z.infer<typeof VocabularyEntrySchema>;

export const DraftPermissionsSchema = z.object({
  can_manage: z.boolean().default(true),
  can_new_version: z.boolean().default(true),
  can_delete_draft: z.boolean().default(true),
});
export type DraftPermissions = z.infer<typeof DraftPermissionsSchema>;

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
  /**
   * What the signed-in person may do with the page's draft (a new upload: everything). Not
   * lenient: permissions that cannot be read must not turn into every permission granted.
   */
  permissions: DraftPermissionsSchema.prefault({}),
  record: lenient('record', RecordJsonSchema.nullable().default(null), null),
  error: lenient(
    'error',
    z
      .object({
        status: z.number(),
        message: z.string(),
        /** A deleted record's page: what the administrator left in its place. */
        tombstone: TombstoneSchema.partial().optional(),
      })
      .nullable()
      .default(null),
    null,
  ),
  /** The secret link the page was opened with (`?token=`), when it opens the page's record. */
  link: lenient(
    'link',
    z
      .object({ permission: z.enum(SECRET_LINK_PERMISSIONS) })
      .nullable()
      .default(null),
    null,
  ),
  /** The signed-in person's grant on the page's record, when they hold one. */
  grant: lenient(
    'grant',
    z
      .object({ permission: z.enum(GRANT_PERMISSIONS) })
      .nullable()
      .default(null),
    null,
  ),
  /**
   * The deposit page's draft has too many files for its JSON to carry their entries: their
   * listing, which the app starts reading at once (the draft itself arrives last).
   */
  filesListing: lenient('filesListing', z.string().nullable().default(null), null),
  /** Open requests waiting for the signed-in person's decision, as the page was served. */
  awaitingRequests: lenient('awaitingRequests', z.number().int().nullable().default(null), null),
});
export type Bootstrap = z.infer<typeof BootstrapSchema>;

export const BOOTSTRAP_ELEMENT_ID = 'cairn-bootstrap';

/** Where the deposit page's draft arrives, at the end of the body (the server's pages module). */
export const STREAMED_DRAFT_ELEMENT_ID = 'cairn-draft';

/**
 * The draft the server sends after the rest of the deposit page, so that the app's scripts load
 * while the server still prepares it: resolves once the page has arrived, with that draft if it is
 * draft `id`, else null (the page then reads it through the API). Read once: the element is gone
 * afterwards, so a later visit to the draft in this tab reads the API's current version.
 */
export async function readStreamedDraft(doc: Document, id: string): Promise<RecordJson | null> {
  if (doc.readyState === 'loading') {
    await new Promise((resolve) =>
      doc.addEventListener('DOMContentLoaded', resolve, { once: true }),
    );
  }
  const element = doc.getElementById(STREAMED_DRAFT_ELEMENT_ID);
  const text = element?.textContent;
  element?.remove();
  if (!text) return null;
  try {
    const parsed = RecordJsonSchema.safeParse(JSON.parse(text));
    if (parsed.success && parsed.data.id === id) return parsed.data;
    console.error('Ignoring the streamed draft:', parsed.error?.issues ?? 'another draft');
  } catch (error) {
    console.error('The streamed draft is not valid JSON:', error);
  }
  return null;
}

/**
 * The page's bootstrap is there but cannot be read (cut short, damaged on the way, or not the shape
 * this version of the app knows). The app then shows a page saying so rather than run on defaults,
 * which would grant every permission on the page's draft.
 */
export class UnreadableBootstrapError extends Error {
  override name = 'UnreadableBootstrapError';
}

/**
 * Reads the JSON the server injects into the page once. Without it (tests, `vite dev`) the app
 * runs on defaults: no user, default config, nothing preloaded. Throws
 * {@link UnreadableBootstrapError} when it is there but cannot be read.
 */
export function readBootstrap(doc: Document): Bootstrap {
  const text = doc.getElementById(BOOTSTRAP_ELEMENT_ID)?.textContent;
  if (!text) return BootstrapSchema.parse({});
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UnreadableBootstrapError('The bootstrap is not valid JSON.', { cause: error });
  }
  const parsed = BootstrapSchema.safeParse(raw);
  if (!parsed.success) {
    throw new UnreadableBootstrapError('The bootstrap is not what the app expects.', {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

export const BootstrapContext = createContext<Bootstrap>(BootstrapSchema.parse({}));

export function useBootstrap(): Bootstrap {
  return useContext(BootstrapContext);
}
