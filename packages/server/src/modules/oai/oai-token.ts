import { z } from 'zod';

/**
 * Resumption tokens carry the whole state of a list request: what was asked, where the next page
 * starts, how far the harvester has come and when the token lapses. No server keeps anything, so
 * a token survives a restart and any instance behind a load balancer can answer it.
 *
 * A token is not secret and need not be: it is decoded and checked like any argument, and what
 * it can select is what the same request's arguments could.
 */

const Iso = z.iso.datetime();

const ListTokenSchema = z.object({
  k: z.enum(['ListRecords', 'ListIdentifiers']),
  /** metadataPrefix */
  m: z.string().min(1),
  /** The set's spec, if the request named one. */
  s: z.string().min(1).optional(),
  /** Inclusive lower and exclusive upper bounds on the last change. */
  f: Iso.optional(),
  b: Iso,
  /** After this record (last change, id). */
  a: z.tuple([Iso, z.string().min(1)]),
  /** cursor and completeListSize */
  c: z.number().int().min(0),
  n: z.number().int().min(0),
  e: Iso,
});
export type ListToken = z.infer<typeof ListTokenSchema>;

const SetsTokenSchema = z.object({
  k: z.literal('ListSets'),
  a: z.string().min(1),
  c: z.number().int().min(0),
  n: z.number().int().min(0),
  e: Iso,
});
export type SetsToken = z.infer<typeof SetsTokenSchema>;

const TokenSchema = z.discriminatedUnion('k', [ListTokenSchema, SetsTokenSchema]);
export type ResumptionToken = z.infer<typeof TokenSchema>;

/** How long a harvester may pause between two pages. */
export const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

export function encodeToken(token: ResumptionToken): string {
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

/**
 * The token's state, or why it is refused: not one of ours, lapsed, or issued for another verb
 * (a harvester must resume a list with the verb that began it).
 */
export function decodeToken(
  text: string,
  verb: string,
  now: Date,
): { token: ResumptionToken } | { refusal: string } {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return { refusal: 'The resumption token is not one this repository issued.' };
  }
  const parsed = TokenSchema.safeParse(value);
  if (!parsed.success)
    return { refusal: 'The resumption token is not one this repository issued.' };
  const token = parsed.data;
  if (token.k !== verb)
    return { refusal: `The resumption token continues a ${token.k} request, not ${verb}.` };
  if (new Date(token.e) < now)
    return { refusal: `The resumption token expired at ${token.e.slice(0, 19)}Z.` };
  return { token };
}
