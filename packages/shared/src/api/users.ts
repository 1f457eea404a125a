import { z } from 'zod';
import { idParams } from './common.js';

export const TokenParams = idParams('Token id, as listed');
export const CreateTokenBody = z.object({ name: z.string().optional() });
export const LoginBody = z.object({ email: z.string(), password: z.string() });
export const SignupBody = LoginBody.extend({ name: z.string().optional() });
export const PreferencesBody = z.object({ locale: z.string() });
