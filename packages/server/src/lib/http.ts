import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { AppError } from '../errors.js';

export const JSON_TYPE = 'application/json';
export const VND_TYPE = 'application/vnd.inveniordm.v1+json';

/**
 * flask-resources negotiation: no Accept or a wildcard gives JSON; an explicitly listed supported
 * type wins whatever its q-value; anything else is 406 naming what is on offer.
 */
export function negotiate(request: FastifyRequest, supported: readonly string[]): string {
  const header = request.headers.accept;
  if (!header) return supported[0]!;
  const listed = header
    .split(',')
    .map((part) => part.split(';')[0]!.trim().toLowerCase())
    .filter(Boolean);
  for (const type of listed) if (supported.includes(type)) return type;
  if (listed.some((t) => t === '*/*' || t === 'application/*')) return supported[0]!;
  throw new AppError(
    'NOT_ACCEPTABLE',
    `Invalid 'Accept' header. Expected one of: ${supported.join(', ')}`,
  );
}

/**
 * A route `onRequest` hook that refuses an unacceptable Accept header (406) before the body is
 * read or the handler runs, so a write never happens only to be answered 406.
 */
export function acceptOnly(supported: readonly string[]): onRequestHookHandler {
  return (request, _reply, done) => {
    try {
      negotiate(request, supported);
      done();
    } catch (error) {
      done(error as Error);
    }
  };
}

export function isFlagSet(value: unknown): boolean {
  return value === '1' || value === 'true' || value === 'True' || value === '';
}

/** `?ln=` first, then the first Accept-Language tag we have, then the default locale. */
export function requestLocale(
  request: FastifyRequest,
  locales: readonly string[],
  fallback: string,
): string {
  const ln = (request.query as Record<string, unknown>).ln;
  if (typeof ln === 'string' && locales.includes(ln.slice(0, 2))) return ln.slice(0, 2);
  for (const tag of (request.headers['accept-language'] ?? '').split(',')) {
    const lang = tag.split(';')[0]!.trim().slice(0, 2).toLowerCase();
    if (locales.includes(lang)) return lang;
  }
  return fallback;
}
