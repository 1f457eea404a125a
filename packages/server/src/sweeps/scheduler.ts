import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Services } from '../services.js';

interface Sweep {
  name: string;
  /** Advisory-lock key: on PostgreSQL exactly one app server runs each sweep at a time. */
  lockKey: number;
  run: () => Promise<number>;
}

/**
 * Runs the periodic sweeps (lift embargoes, register DOIs, forget expired sessions and ended
 * throttling windows). With
 * PostgreSQL each run takes an advisory lock, so N app servers behind a load balancer never do
 * the same work twice; SQLite means a single process, so no lock is needed.
 */
export function startSweeps(services: Services, log: FastifyBaseLogger): () => Promise<void> {
  const sweeps: Sweep[] = [
    { name: 'embargo-lift', lockKey: 734001, run: () => services.records.liftExpiredEmbargoes() },
    { name: 'doi-registration', lockKey: 734002, run: () => services.doi.drain() },
    { name: 'session-cleanup', lockKey: 734003, run: () => services.users.sweepSessions() },
    { name: 'abandoned-uploads', lockKey: 734004, run: () => services.files.sweepAbandoned() },
    { name: 'request-expiry', lockKey: 734005, run: () => services.requests.expireDue() },
    { name: 'rate-limit-cleanup', lockKey: 734006, run: () => services.rateLimits.deleteEnded() },
  ];
  const { db, engine } = services.database;

  async function runLocked(sweep: Sweep): Promise<void> {
    if (engine === 'sqlite') {
      const n = await sweep.run();
      if (n > 0) log.info({ sweep: sweep.name, n }, 'sweep done');
      return;
    }
    await db.connection().execute(async (conn) => {
      const got = await sql<{
        ok: boolean;
      }>`select pg_try_advisory_lock(${sweep.lockKey}) as ok`.execute(conn);
      if (!got.rows[0]?.ok) return;
      try {
        const n = await sweep.run();
        if (n > 0) log.info({ sweep: sweep.name, n }, 'sweep done');
      } finally {
        await sql`select pg_advisory_unlock(${sweep.lockKey})`.execute(conn);
      }
    });
  }

  let stopped = false;
  let current: Promise<void> = Promise.resolve();
  const tick = () => {
    current = (async () => {
      for (const sweep of sweeps) {
        if (stopped) return;
        try {
          await runLocked(sweep);
        } catch (error) {
          log.error({ err: error, sweep: sweep.name }, 'sweep failed');
        }
      }
    })();
  };
  const interval = services.config.sweepIntervalSeconds;
  tick();
  const timer = interval > 0 ? setInterval(tick, interval * 1000) : undefined;
  timer?.unref();
  return async () => {
    stopped = true;
    if (timer) clearInterval(timer);
    await current;
  };
}
