import { Readable } from 'node:stream';
import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyPluginOptions,
  FastifyRequest,
  onRequestHookHandler,
} from 'fastify';
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

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The query parameters of a request, for code shared by many routes (locale, token, expand). The
 * routes' own handlers get them typed from their schemas.
 */
export function queryOf(request: FastifyRequest): Record<string, unknown> {
  return isRecord(request.query) ? request.query : {};
}

/** A JSON body's top-level fields; none when the body is missing or not an object. */
export function bodyFields(body: unknown): Record<string, unknown> {
  return isRecord(body) ? body : {};
}

/** The raw bytes of a route that takes them (file content, logos); an empty stream without a body. */
export function bodyStream(request: FastifyRequest): Readable {
  return request.body instanceof Readable ? request.body : Readable.from([]);
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
  const ln = queryOf(request).ln;
  if (typeof ln === 'string' && locales.includes(ln.slice(0, 2))) return ln.slice(0, 2);
  for (const tag of (request.headers['accept-language'] ?? '').split(',')) {
    const lang = tag.split(';')[0]!.trim().slice(0, 2).toLowerCase();
    if (locales.includes(lang)) return lang;
  }
  return fallback;
}

/**
 * A route module as a Fastify plugin: registered with `app.register(plugin, deps)`, it gets an
 * encapsulated context of its own, so anything it adds (a hook, a decorator, a parser) stays with
 * its routes. Route modules register synchronously; the plugin resolves once they are added.
 */
export function routesPlugin<Deps extends FastifyPluginOptions>(
  register: (app: FastifyInstance, deps: Deps) => void,
): FastifyPluginAsync<Deps> {
  return (app, deps) => {
    register(app, deps);
    return Promise.resolve();
  };
}
