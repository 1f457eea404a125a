import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Services } from '../../services.js';

/** How long a dependency may take to answer a readiness probe before it counts as down. */
export const PROBE_TIMEOUT_MS = 2000;

const tags = ['Cairn extension'];

const CheckSchema = z.object({
  status: z.enum(['ok', 'error']),
  error: z.string().optional().describe('Why the dependency did not answer (no secrets)'),
});
const ReadySchema = z.object({
  status: z.enum(['ok', 'unavailable', 'shutting down']),
  checks: z.object({ database: CheckSchema, store: CheckSchema }),
});

type Check = z.infer<typeof CheckSchema>;

/**
 * Every secret the configuration holds, so that an error's text can be cleaned of them before an
 * anonymous caller reads it (a driver may echo a connection string or a signed request).
 */
function secretsOf(config: Config): string[] {
  const secrets: string[] = [];
  if (config.database.kind === 'postgres') {
    try {
      const url = new URL(config.database.url);
      if (url.password) secrets.push(url.password, decodeURIComponent(url.password));
    } catch {
      // Not a URL the checks could leak parts of.
    }
  }
  if (config.storage.kind === 's3') secrets.push(config.storage.secretAccessKey);
  if (config.doi.datacite) secrets.push(config.doi.datacite.password);
  return secrets.filter((s) => s.length >= 4);
}

/** A dependency's failure as one line: its code and message, without credentials. */
export function describeFailure(error: unknown, secrets: readonly string[]): string {
  const e = error as { code?: unknown; name?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' && e.message ? e.message : String(error);
  const code = typeof e?.code === 'string' ? e.code : undefined;
  let text = code && !message.includes(code) ? `${code}: ${message}` : message;
  // user:password@ in any URL the message quotes.
  text = text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1***@');
  for (const secret of secrets) text = text.split(secret).join('***');
  return text.replace(/\s+/g, ' ').slice(0, 300);
}

/**
 * Runs `probe` with a deadline. A probe still running when the next one is asked for is shared,
 * not doubled: a database that hangs must not collect a pile of waiting probes from a load
 * balancer that asks every few seconds.
 */
function singleFlight(
  probe: (signal: AbortSignal) => Promise<void>,
  secrets: readonly string[],
): () => Promise<Check> {
  let running: Promise<Check> | undefined;
  return () => {
    running ??= (async (): Promise<Check> => {
      const controller = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const error = new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`);
          controller.abort(error);
          reject(error);
        }, PROBE_TIMEOUT_MS);
      });
      try {
        await Promise.race([probe(controller.signal), deadline]);
        return { status: 'ok' };
      } catch (error) {
        return { status: 'error', error: describeFailure(error, secrets) };
      } finally {
        clearTimeout(timer);
        running = undefined;
      }
    })();
    return running;
  };
}

export interface HealthOptions {
  /** True once shutdown has begun: the instance must leave the load balancer's pool. */
  draining: () => boolean;
}

/**
 * `GET /api/health/live` (the process answers; touches nothing) and `GET /api/health/ready` (the
 * database, and its read replica if one is set, answer a trivial query and the file store a cheap probe, each within
 * PROBE_TIMEOUT_MS). Probes come every few seconds, so their requests are logged only when
 * something goes wrong (route log level `warn`).
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  services: Services,
  options: HealthOptions,
): void {
  const secrets = secretsOf(services.config);
  const database = singleFlight(async () => {
    await sql`select 1`.execute(services.database.db);
    // A read replica answers the search: without it the server cannot do its readers' work.
    if (services.database.reader !== services.database.db)
      await sql`select 1`.execute(services.database.reader);
  }, secrets);
  const store = singleFlight((signal) => services.store.probe(signal), secrets);

  app.get(
    '/api/health/live',
    {
      logLevel: 'warn',
      schema: {
        tags,
        summary: 'Liveness: 200 while the process answers (checks nothing else)',
        security: [],
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    () => ({ status: 'ok' as const }),
  );

  app.get(
    '/api/health/ready',
    {
      logLevel: 'warn',
      schema: {
        tags,
        summary:
          'Readiness: 200 when the database and the file store answer; 503 naming the one that failed and why, or while shutting down',
        security: [],
        response: { 200: ReadySchema, 503: ReadySchema },
      },
    },
    async (request, reply) => {
      const [db, files] = await Promise.all([database(), store()]);
      const checks = { database: db, store: files };
      const failed = db.status !== 'ok' || files.status !== 'ok';
      if (failed) request.log.warn({ checks }, 'not ready');
      const status = options.draining() ? 'shutting down' : failed ? 'unavailable' : 'ok';
      return reply.status(status === 'ok' ? 200 : 503).send({ status, checks });
    },
  );
}
