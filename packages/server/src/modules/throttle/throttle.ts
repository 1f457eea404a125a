import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fastifyRateLimit, { normalizeIP, type FastifyRateLimitStore } from '@fastify/rate-limit';
import crypto from 'node:crypto';
import type { AttemptLimits, Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { bodyFields } from '../../lib/http.js';
import type { RateLimitsRepository } from './throttle.repository.js';

/** The actions that guess or mint credentials, each throttled per account and per address. */
export type ThrottledAction = 'login' | 'signup' | 'tokens';

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
type LimitResult = Awaited<ReturnType<Limiter>>;

/**
 * @fastify/rate-limit's store over the `rate_limits` table: every app server counts against the
 * same rows. Only `incr` is offered: Cairn never peeks at a count without adding to it, since a
 * peek lets parallel attempts all pass before any of them is counted.
 */
function databaseStore(repository: RateLimitsRepository) {
  return class DatabaseStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const now = new Date();
      repository.hit(key, timeWindow, now).then(
        ({ hits, resetAt }) =>
          // At least a millisecond, so that Retry-After is never 0 while the count stands.
          callback(null, { current: hits, ttl: Math.max(1, Date.parse(resetAt) - now.getTime()) }),
        (error: Error) => callback(error),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

/** The account an attempt is about: the e-mail address tried, or the signed-in person. */
function accountOf(action: ThrottledAction, request: FastifyRequest): string | undefined {
  if (action === 'tokens') return request.identity.user && `user:${request.identity.user.id}`;
  const email = bodyFields(request.body).email;
  // Spelled as the accounts service looks it up, so that case and spaces make no new account.
  return typeof email === 'string' ? `email:${email.trim().toLowerCase()}` : undefined;
}

/** Keys name the action and kind in clear and hash the rest: no e-mail address is stored. */
function counterKey(action: ThrottledAction, kind: 'account' | 'address', value: string): string {
  return `${action}:${kind}:${crypto.createHash('sha256').update(value).digest('base64url')}`;
}

function inWords(seconds: number): string {
  if (seconds < 60) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/**
 * Throttles login, sign-up and token creation with @fastify/rate-limit: a route declares
 * `config: {throttle: action}` and each of its requests counts once per account (the e-mail
 * address tried, or the signed-in person) and once per client address, before the handler runs.
 * Every attempt counts, successful or not, in a fixed window; past either limit the answer is
 * 429 with Retry-After until that window ends. Register before the routes.
 */
export async function registerThrottling(
  app: FastifyInstance,
  repository: RateLimitsRepository,
  config: Config,
): Promise<void> {
  const windowMs = config.rateLimits.windowSeconds * 1000;
  await app.register(fastifyRateLimit, {
    global: false,
    store: databaseStore(repository),
    timeWindow: windowMs,
  });

  const limiters = (action: ThrottledAction, limits: AttemptLimits) => {
    const limiter = (max: number, key: (request: FastifyRequest) => string) =>
      max > 0 ? app.createRateLimit({ max, timeWindow: windowMs, keyGenerator: key }) : undefined;
    return {
      account: limiter(limits.perAccount, (request) =>
        counterKey(action, 'account', accountOf(action, request)!),
      ),
      address: limiter(limits.perAddress, (request) =>
        counterKey(action, 'address', normalizeIP(request.ip)),
      ),
    };
  };
  const byAction = {
    login: limiters('login', config.rateLimits.login),
    signup: limiters('signup', config.rateLimits.signup),
    tokens: limiters('tokens', config.rateLimits.tokens),
  };

  const check = (action: ThrottledAction): preHandlerAsyncHookHandler =>
    async function throttle(request) {
      const { account, address } = byAction[action];
      const checks: Array<Promise<LimitResult>> = [];
      if (address) checks.push(address(request));
      if (account && accountOf(action, request) !== undefined) checks.push(account(request));
      const exceeded = (await Promise.all(checks)).filter(
        (result) => !result.isAllowed && result.isExceeded,
      );
      if (exceeded.length === 0) return;
      const seconds = Math.max(
        ...exceeded.map((result) => (result.isAllowed ? 0 : result.ttlInSeconds)),
      );
      request.log.warn({ throttled: action }, 'too many attempts');
      throw new AppError(
        'RATE_LIMITED',
        `Too many attempts. Try again in ${inWords(seconds)}.`,
        undefined,
        undefined,
        { 'retry-after': String(seconds) },
      );
    };

  app.addHook('onRoute', (route) => {
    const action = route.config?.throttle;
    if (!action) return;
    const existing = route.preHandler ?? [];
    route.preHandler = [...(Array.isArray(existing) ? existing : [existing]), check(action)];
  });
}
