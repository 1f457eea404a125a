import { z } from 'zod';
import { MESSAGES } from '../validation/messages.js';
import { hitsOf, idParams } from './common.js';
import { searchQuery } from './search.js';

export const TokenParams = idParams('Token id, as listed');
/** A token's name, at most this long once trimmed. */
export const MAX_TOKEN_NAME = 100;

/** `POST /api/user/tokens`: every field optional, so no body at all is a token named "token". */
export const CreateTokenBody = z
  .object(
    {
      name: z
        .string({ error: MESSAGES.notString })
        .trim()
        .max(MAX_TOKEN_NAME, { error: `Longer than maximum length ${MAX_TOKEN_NAME}.` })
        .nullish(),
    },
    { error: MESSAGES.invalidInputType },
  )
  .nullish();
export const LoginBody = z.object({ email: z.string(), password: z.string() });
export const SignupBody = LoginBody.extend({ name: z.string().optional() });
/**
 * `PUT /api/user/preferences`: what is sent is changed, the rest kept. `locale` is one of the
 * site's languages, `email_notifications` whether the person receives e-mail. A body that sets
 * nothing, or is not an object, is a problem of `locale` (the one preference there was first).
 */
export const preferencesBody = (offered: readonly string[]) => {
  const locale = z.enum(offered as [string, ...string[]], {
    error: `Must be one of: ${offered.join(', ')}.`,
  });
  return z.preprocess(
    (body) => (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}),
    z
      .object({
        locale: locale.optional(),
        email_notifications: z.boolean({ error: MESSAGES.notBoolean }).optional(),
      })
      .superRefine((body, context) => {
        if (body.locale === undefined && body.email_notifications === undefined)
          context.addIssue({
            code: 'custom',
            path: ['locale'],
            message: `Must be one of: ${offered.join(', ')}.`,
          });
      }),
  );
};

/** A personal access token as listed: never its secret. */
export const TokenSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  created: z.string(),
  last_used: z.string().nullable().optional(),
});
export type Token = z.infer<typeof TokenSchema>;
export const TokenListSchema = z.looseObject({
  hits: z.looseObject({ hits: z.array(TokenSchema) }),
});
/** A token just created: the only answer that carries its secret. */
export const CreatedTokenSchema = TokenSchema.extend({ token: z.string() });
export type CreatedToken = z.infer<typeof CreatedTokenSchema>;

/** The signed-in person as the API shows them to themselves. */
export const UserJsonSchema = z.looseObject({
  id: z.string(),
  email: z.string(),
  name: z.string().nullish(),
  is_admin: z.boolean(),
});
export const SessionSchema = z.looseObject({ user: UserJsonSchema });
export const PreferencesSchema = z.looseObject({
  locale: z.string().nullable(),
  /** Whether the person receives e-mail notifications (on unless they turn it off). */
  email_notifications: z.boolean(),
});
export type Preferences = z.infer<typeof PreferencesSchema>;

/** `GET /api/users`: people found by part of their name or their whole e-mail address. */
export const UserSearchQuery = searchQuery(['name'], {}, { maxSize: 20 });

/** A person as others may see them: no e-mail address (InvenioRDM's public user). */
export const PublicUserSchema = z.looseObject({
  id: z.string(),
  username: z.string().nullable(),
  profile: z.looseObject({ full_name: z.string() }),
});
export type PublicUser = z.infer<typeof PublicUserSchema>;
export const PublicUserHitsSchema = hitsOf(PublicUserSchema);
