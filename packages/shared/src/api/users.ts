import { z } from 'zod';
import { idParams } from './common.js';

export const TokenParams = idParams('Token id, as listed');
export const CreateTokenBody = z.object({ name: z.string().optional() });
export const LoginBody = z.object({ email: z.string(), password: z.string() });
export const SignupBody = LoginBody.extend({ name: z.string().optional() });
export const PreferencesBody = z.object({ locale: z.string() });

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
export const PreferencesSchema = z.looseObject({ locale: z.string().nullable() });
