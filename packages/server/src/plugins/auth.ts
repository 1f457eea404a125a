import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import crypto from 'node:crypto';
import { AppError } from '../errors.js';
import { queryOf } from '../lib/http.js';
import type { LinkGrant } from '../modules/records/records.shared.js';
import type { User, UsersService } from '../modules/users/users.service.js';

export const SESSION_COOKIE = 'cairn_session';
export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';

/** Who is calling: a signed-in user (by session cookie or bearer token) or anonymous. */
export interface Identity {
  user?: User;
  via: 'anonymous' | 'session' | 'token';
  /** What a secret link the request carries grants, whoever the caller is (see `SecretLinks`). */
  link?: LinkGrant;
}

/**
 * Where a page opened with a secret link's `?token=` keeps it: the page's own requests (its file
 * list, previews, downloads, the editor's saves) then carry the link without the token in every
 * address, as InvenioRDM keeps it in the session. httpOnly, and gone when the browser closes.
 */
export const LINK_COOKIE = 'cairn_link';

/** The secret links the auth hook resolves tokens with (the access module). */
export interface SecretLinks {
  /** The grant of a live link with this token; undefined when none (unknown, expired, deleted). */
  resolve(token: string): Promise<LinkGrant | undefined>;
}

/** The routes a secret link opens: a record's or draft's API, its landing page, its editor. */
const LINK_ROUTE = /^\/(api\/)?records\/:id(\/|$)|^\/uploads\/:id$/;

declare module 'fastify' {
  interface FastifyRequest {
    identity: Identity;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1];
  }
  const token = queryOf(request).access_token;
  return typeof token === 'string' ? token : undefined;
}

/** Whether two secrets are equal, in a time that does not tell how much of a guess was right. */
export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}

/** Issues the readable CSRF cookie the browser echoes back in X-CSRFToken (double submit). */
export function ensureCsrfCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  secure: boolean,
): string {
  const existing = request.cookies[CSRF_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{20,128}$/.test(existing)) return existing;
  const token = crypto.randomBytes(24).toString('base64url');
  void reply.setCookie(CSRF_COOKIE, token, {
    path: '/',
    sameSite: 'lax',
    secure,
    httpOnly: false,
    maxAge: 365 * 86400,
  });
  return token;
}

/**
 * Resolves the caller on every request. As in InvenioRDM, a missing or bad token means anonymous,
 * never 401. Unsafe methods carried by cookies (a session, or the auth endpoints that create one)
 * must echo the CSRF cookie in X-CSRFToken; bearer-token requests are exempt.
 */
export function registerAuth(
  app: FastifyInstance,
  users: UsersService,
  links?: { links: SecretLinks; secure: boolean },
): void {
  app.decorateRequest('identity', undefined as unknown as Identity);
  app.addHook('onRequest', async (request, reply) => {
    await identify(request);
    if (links) await resolveLink(request, reply, links.links, links.secure);
  });

  async function identify(request: FastifyRequest): Promise<void> {
    request.identity = { via: 'anonymous' };
    const token = bearerToken(request);
    if (token) {
      const user = await users.userForToken(token);
      if (user) request.identity = { user, via: 'token' };
      return;
    }
    const session = request.cookies[SESSION_COOKIE];
    // The matched route, not the raw URL: the router merges `//api/auth/…` into the same route,
    // and a raw-URL test would let that spelling past the check.
    const needsCsrf =
      !SAFE_METHODS.has(request.method) &&
      request.routeOptions.config?.readOnlyPost !== true &&
      (session !== undefined || (request.routeOptions.url?.startsWith('/api/auth/') ?? false));
    if (needsCsrf) {
      const cookie = request.cookies[CSRF_COOKIE];
      const header = request.headers[CSRF_HEADER];
      if (!cookie || typeof header !== 'string' || !constantTimeEqual(cookie, header)) {
        throw new AppError('CSRF_FAILED');
      }
    }
    if (session) {
      const user = await users.userForSession(session);
      if (user) request.identity = { user, via: 'session' };
    }
  }
}

/**
 * The secret link of a record route's `?token=`, else of the cookie a page visit left. A page
 * opened with a live link's token keeps it in the cookie; a cookie that grants nothing any more
 * is cleared, as InvenioRDM drops an expired token from the session (a bad token in the address
 * leaves the cookie alone: it may be another record's live link).
 */
async function resolveLink(
  request: FastifyRequest,
  reply: FastifyReply,
  links: SecretLinks,
  secure: boolean,
): Promise<void> {
  const route = request.routeOptions.url;
  if (!route || !LINK_ROUTE.test(route)) return;
  const fromQuery = queryOf(request).token;
  const fromCookie = request.cookies[LINK_COOKIE];
  const token = typeof fromQuery === 'string' && fromQuery ? fromQuery : fromCookie;
  if (!token) return;
  const link = await links.resolve(token);
  if (link) request.identity.link = link;
  if (route.startsWith('/api/')) return;
  if (link && token !== fromCookie) {
    void reply.setCookie(LINK_COOKIE, token, {
      path: '/',
      sameSite: 'lax',
      secure,
      httpOnly: true,
    });
  } else if (!link && token === fromCookie) {
    void reply.clearCookie(LINK_COOKIE, { path: '/' });
  }
}

/** The signed-in user, or 403 "Permission denied." as InvenioRDM answers anonymous callers. */
export function requireUser(request: FastifyRequest): User {
  const user = request.identity.user;
  if (!user) throw new AppError('PERMISSION_DENIED');
  return user;
}
