import { z } from 'zod';
import {
  DEFAULT_MAX_FILES,
  DEFAULT_MAX_STORAGE,
  DEFAULT_TRANSFER_TYPE,
  UPLOAD_CONCURRENCY,
} from '../limits.js';
import { CustomFieldsUiSchema, DEFAULT_CUSTOM_FIELDS_UI } from '../domain/custom-fields.js';

/**
 * The public configuration the server passes to the browser in each page's bootstrap (never
 * secrets): InvenioRDM's deposit form configuration, under camel-case names. The server builds it
 * against this schema's input type; the browser parses it with the defaults below.
 */
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
  /** Custom fields holding vocabulary ids (`group` or `group.field`); sent as `{id}`. */
  vocabularyCustomFields: z.array(z.string()).default([]),
  /** The form's custom fields area: groups and "Coming soon" placeholders, in order. */
  customFieldsUi: CustomFieldsUiSchema.default(() => [...DEFAULT_CUSTOM_FIELDS_UI]),
  /**
   * Files and bytes a record of the signed-in person may hold: their own quota where one was set
   * (`cairn users quota`), else the instance's configured limits.
   */
  quota: z
    .object({
      maxFiles: z.number().int().positive().default(DEFAULT_MAX_FILES),
      maxStorage: z.number().nonnegative().default(DEFAULT_MAX_STORAGE),
    })
    .prefault({}),
  /** Whether empty files are accepted; when not, the uploader skips them with a warning. */
  allowEmptyFiles: z.boolean().default(true),
  fileUploadConcurrency: z.number().int().positive().default(UPLOAD_CONCURRENCY),
  /** Small files sent a request (a Cairn extension); 0, or a server that names none: one each. */
  fileUploadBatchFiles: z.number().int().min(0).default(0),
  defaultTransferType: z.string().default(DEFAULT_TRANSFER_TYPE),
  enabledTransferTypes: z.array(z.string()).default([DEFAULT_TRANSFER_TYPE]),
  /** Extra checkboxes (each must be ticked) and text of the publish dialog. */
  publishModalExtra: z
    .object({
      checkboxes: z.array(z.object({ id: z.string(), label: z.string() })).default([]),
      text: z.string().default(''),
    })
    .prefault({}),
  /** Days after creation during which a published record may still be made restricted. */
  gracePeriodDays: z.number().int().nonnegative().default(30),
  allowRestrictionAfterGracePeriod: z.boolean().default(false),
  /** How creators are found: `search` (search or type), `search_only`, `off` (type only). */
  creatorMode: z.enum(['search', 'search_only', 'off']).default('search'),
  /**
   * `user_communities_memberships`: the signed-in person's role in the communities the deposit
   * page's draft names (community id → role), for the role badge of its community header; the
   * picker reads each community's role from the API. Only the deposit pages carry it. A role this
   * version does not know is kept as it comes.
   */
  userCommunitiesMemberships: z.record(z.string(), z.string()).default({}),
});

/** The configuration as the browser reads it, defaults filled in. */
export type PublicConfig = z.output<typeof PublicConfigSchema>;
/** `T` with every array and object read-only: what a sender may hand over unchanged. */
type Immutable<T> = T extends readonly (infer U)[]
  ? readonly Immutable<U>[]
  : T extends object
    ? { readonly [K in keyof T]: Immutable<T[K]> }
    : T;

/** The configuration as the server sends it; keys left out take the browser's defaults. */
export type PublicConfigInput = Immutable<z.input<typeof PublicConfigSchema>>;
