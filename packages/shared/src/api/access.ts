import { z } from 'zod';
import { MESSAGES } from '../validation/messages.js';
import { COMMENT_MAX, idParams, linkExpirationDays, objectOrEmpty } from './common.js';
import { Flag } from './search.js';
import { PublicUserSchema } from './users.js';

/** What a secret link lets its holder do: read, also read the draft, also edit the draft. */
export const SECRET_LINK_PERMISSIONS = ['view', 'preview', 'edit'] as const;
export type SecretLinkPermission = (typeof SECRET_LINK_PERMISSIONS)[number];

/** `/api/records/{id}/access/links/{link_id}`. */
export const SecretLinkParams = idParams('Record or draft id, e.g. ha4g3-7x208').extend({
  link_id: z.string().describe('The secret link id'),
});

/** Whether `YYYY-MM-DD` names a day of the calendar (not 31 February). */
function isCalendarDay(day: string): boolean {
  const time = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === day;
}

/** `YYYY-MM-DD`, or a date-time whose day is taken, as InvenioRDM's date field reads it. */
const expiryDate = z
  .string({ error: MESSAGES.invalidDate })
  .regex(/^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, {
    error: MESSAGES.invalidDate,
    abort: true,
  })
  .refine((value) => isCalendarDay(value.slice(0, 10)), { error: MESSAGES.invalidDate })
  .transform((value) => value.slice(0, 10))
  .describe('The day the link stops working (it works until that day begins, UTC)');

const permission = z
  .string({ error: MESSAGES.notString })
  .refine(
    (p): p is SecretLinkPermission => (SECRET_LINK_PERMISSIONS as readonly string[]).includes(p),
    {
      error: `Must be one of: ${SECRET_LINK_PERMISSIONS.join(', ')}.`,
    },
  )
  .describe('view: read the record and its files; preview: also the draft; edit: also edit it');

const description = z
  .string({ error: MESSAGES.notString })
  .max(10_000, { error: 'Longer than maximum length 10000.' })
  .describe('What the link is for, shown to the owner only');

/** PATCH body: each part optional; `expires_at: null` asks to remove the expiry (refused). */
export const SecretLinkUpdateBody = z.preprocess(
  objectOrEmpty,
  z.object({
    permission: permission.optional(),
    expires_at: expiryDate.nullable().optional(),
    description: description.optional(),
  }),
);

/** POST body: the permission is required (checked after the rest, as InvenioRDM does). */
export const SecretLinkBody = SecretLinkUpdateBody;

/** A secret link as the owner reads it. */
export const SecretLinkSchema = z.object({
  id: z.string(),
  token: z.string().describe('Add as `?token=` to an address of the record to use the link'),
  permission: z.enum(SECRET_LINK_PERMISSIONS),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  description: z.string(),
});
export type SecretLinkJson = z.infer<typeof SecretLinkSchema>;

export const SecretLinkHitsSchema = z.object({
  hits: z.object({ hits: z.array(SecretLinkSchema), total: z.number() }),
});

/** What a grant lets a person do: as a link's levels, and `manage`, which shares further. */
export const GRANT_PERMISSIONS = ['view', 'preview', 'edit', 'manage'] as const;
export type GrantPermission = (typeof GRANT_PERMISSIONS)[number];

const grantPermission = z
  .string({ error: MESSAGES.notString })
  .refine((p): p is GrantPermission => (GRANT_PERMISSIONS as readonly string[]).includes(p), {
    error: `Must be one of: ${GRANT_PERMISSIONS.join(', ')}.`,
  })
  .describe(
    'view: read the record and its files; preview: also the draft; edit: also edit it; manage: also share it further',
  );

const grantSubject = z.object({
  type: z
    .string({ error: MESSAGES.notString })
    .refine((t) => t === 'user', { error: 'Must be one of: user.' })
    .describe('Only `user` (InvenioRDM also knows `role` and `system_role`)'),
  id: z.string({ error: MESSAGES.notString }).describe("The user's id"),
});

const grantMessage = z
  .string({ error: MESSAGES.notString })
  .max(10_000, { error: 'Longer than maximum length 10000.' });

/** One grant of a POST: the subject and permission; `message` and `notify` also per grant. */
const GrantInput = z.object({
  subject: grantSubject,
  permission: grantPermission,
  message: grantMessage.optional(),
  notify: z.boolean().optional(),
});

/** POST `/api/records/{id}/access/grants`: 1 to 100 grants, as InvenioRDM takes them. */
export const GrantsBody = z.preprocess(
  objectOrEmpty,
  z.object({
    grants: z
      .array(GrantInput)
      .min(1, { error: 'Length must be between 1 and 100.' })
      .max(100, { error: 'Length must be between 1 and 100.' }),
    message: grantMessage.optional(),
    notify: z.boolean().optional(),
  }),
);

/** PATCH `/api/records/{id}/access/users/{user_id}`: the new permission. */
export const GrantUpdateBody = z.preprocess(
  objectOrEmpty,
  z.object({ permission: grantPermission }),
);

/** `/api/records/{id}/access/grants/{grant_id}`: a grant's place in the parent's list. */
export const GrantParams = idParams('Record or draft id, e.g. ha4g3-7x208').extend({
  grant_id: z.string().describe("The grant's index in the record's list, from 0"),
});

/** `/api/records/{id}/access/users/{user_id}`. */
export const GrantUserParams = idParams('Record or draft id, e.g. ha4g3-7x208').extend({
  user_id: z.string().describe("The grantee's user id"),
});

/** `?expand=1` (InvenioRDM's `expand`) on a record's grants: each names its person. */
export const GrantListQuery = z.looseObject({ expand: Flag });

/** A grant as InvenioRDM answers it; `expanded.subject` with `?expand=1` on the lists. */
export const GrantSchema = z.object({
  subject: z.object({ type: z.literal('user'), id: z.string() }),
  permission: z.enum(GRANT_PERMISSIONS),
  origin: z.string().nullable(),
  expires_at: z
    .string()
    .optional()
    .describe(
      'Cairn extension: `YYYY-MM-DD`, the day a grant given by accepting an access request for some days stops working (UTC); absent: no end',
    ),
  expanded: z
    .object({
      subject: PublicUserSchema.extend({
        username: z.string().nullable().optional(),
        is_ghost: z.boolean().optional(),
      }).describe('The person: their name, never their e-mail address'),
    })
    .optional(),
});
export type GrantJson = z.infer<typeof GrantSchema>;

export const GrantHitsSchema = z.object({
  hits: z.object({ hits: z.array(GrantSchema), total: z.number() }),
});

/** The longest conditions text an owner sets, in characters. */
export const CONDITIONS_MAX = 10_000;

/**
 * PUT `/api/records/{id}/access`: InvenioRDM's flat access settings of a record. The body
 * replaces them: what it leaves out is back to its default (off, no text, links without end).
 */
export const AccessSettingsBody = z.preprocess(
  objectOrEmpty,
  z.strictObject(
    {
      allow_user_requests: z
        .boolean({ error: MESSAGES.notBoolean })
        .optional()
        .describe('Signed-in people may ask for access to restricted files'),
      allow_guest_requests: z
        .boolean({ error: MESSAGES.notBoolean })
        .optional()
        .describe('Guests may ask, confirming their e-mail address first'),
      accept_conditions_text: z
        .string({ error: MESSAGES.notString })
        .max(CONDITIONS_MAX, { error: `Longer than maximum length ${CONDITIONS_MAX}.` })
        .nullable()
        .optional()
        .describe('What the owner asks of those who request access; HTML, sanitised'),
      secret_link_expiration: linkExpirationDays
        .nullable()
        .optional()
        .describe("Days a guest's link lasts once accepted (0: no end)"),
    },
    { error: MESSAGES.unknownField },
  ),
);

/** `parent.access.settings` as a record or draft carries it. */
export interface AccessSettings {
  allow_user_requests: boolean;
  allow_guest_requests: boolean;
  accept_conditions_text: string | null;
  secret_link_expiration: number;
}

const personName = z
  .string({ error: MESSAGES.notString })
  .trim()
  .min(1, { error: 'Shorter than minimum length 1.' })
  .max(255, { error: 'Longer than maximum length 255.' });

/**
 * POST `/api/records/{id}/access/request`: a signed-in person's request whose `email` is their
 * own (or, a Cairn extension, left out), or a guest's with their name and address.
 */
export const AccessRequestBody = z.preprocess(
  objectOrEmpty,
  z.object({
    message: z
      .string({ error: MESSAGES.notString })
      .max(COMMENT_MAX, { error: `Longer than maximum length ${COMMENT_MAX}.` })
      .optional()
      .describe("Why the person asks; shown to the owner as the request's first comment"),
    email: z
      .string({ error: MESSAGES.notString })
      .trim()
      .max(254, { error: 'Not a valid email address.' })
      .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: 'Not a valid email address.' })
      .optional()
      .describe("Required of guests; a signed-in person's own makes it their request"),
    full_name: personName.optional().describe('Required of guests'),
    consent_to_share_personal_data: z
      .union([z.boolean(), z.string()])
      .optional()
      .describe('Accepted as InvenioRDM takes it; Cairn shows the owner the name and address'),
  }),
);

/** POST `/api/access-requests/verify` (Cairn): the token of the link a guest was e-mailed. */
export const AccessRequestVerifyBody = z.preprocess(
  objectOrEmpty,
  z.object({
    token: z
      .string({ error: MESSAGES.required })
      .min(1, { error: MESSAGES.required })
      .max(200, { error: 'Not a valid token.' }),
  }),
);

/** What a guest's request answers before their address is confirmed. */
export const AccessRequestSentSchema = z.object({ message: z.string() });
