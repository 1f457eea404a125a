import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Services } from '../services.js';
import type { SweepObserver } from '../modules/ops/metrics.js';

interface Sweep {
  name: string;
  /** Advisory-lock key: on PostgreSQL exactly one app server runs each sweep at a time. */
  lockKey: number;
  run: () => Promise<number>;
}

/**
 * Runs the periodic sweeps (lift embargoes, register DOIs, forget expired sessions and ended
 * throttling windows, send e-mail that is due). With
 * PostgreSQL each run takes an advisory lock, so N app servers behind a load balancer never do
 * the same work twice; SQLite means a single process, so no lock is needed.
 */
export function startSweeps(
  services: Services,
  log: FastifyBaseLogger,
  observe: SweepObserver = () => {},
): () => Promise<void> {
  const sweeps: Sweep[] = [
    {
      name: 'embargo-lift',
      lockKey: 734001,
      run: () => services.recordAccess.liftExpiredEmbargoes(),
    },
    { name: 'doi-registration', lockKey: 734002, run: () => services.doi.drain() },
    { name: 'session-cleanup', lockKey: 734003, run: () => services.users.sweepSessions() },
    { name: 'abandoned-uploads', lockKey: 734004, run: () => services.files.sweepAbandoned() },
    { name: 'request-expiry', lockKey: 734005, run: () => services.requests.expireDue() },
    { name: 'rate-limit-cleanup', lockKey: 734006, run: () => services.rateLimits.deleteEnded() },
    // Retries what failed and sends what a process that died left behind; the claim's lease,
    // not this lock, keeps two servers from sending one message.
    { name: 'mail-outbox', lockKey: 734007, run: () => services.mail.drain() },
  ];
  const { db, engine } = services.database;

  async function runAndReport(sweep: Sweep): Promise<void> {
    const n = await sweep.run();
    if (n > 0) log.info({ sweep: sweep.name, n }, 'sweep done');
    observe(sweep.name, 'done', n);
  }

  async function runLocked(sweep: Sweep): Promise<void> {
    if (engine === 'sqlite') return runAndReport(sweep);
    await db.connection().execute(async (conn) => {
      const got = await sql<{
        ok: boolean;
      }>`select pg_try_advisory_lock(${sweep.lockKey}) as ok`.execute(conn);
      if (!got.rows[0]?.ok) {
        observe(sweep.name, 'skipped', 0);
        return;
      }
      try {
        await runAndReport(sweep);
      } finally {
        await sql`select pg_advisory_unlock(${sweep.lockKey})`.execute(conn);
      }
    });
  }

  let stopped = false;
  let running = false;
  let current: Promise<void> = Promise.resolve();
  const tick = () => {
    // A round still running when the next is due makes that one wait for the following tick:
    // stopping must be able to wait for the one round that runs.
    if (running) return;
    running = true;
    current = (async () => {
      for (const sweep of sweeps) {
        if (stopped) return;
        try {
          await runLocked(sweep);
        } catch (error) {
          log.error({ err: error, sweep: sweep.name }, 'sweep failed');
          observe(sweep.name, 'failed', 0);
        }
      }
    })().finally(() => {
      running = false;
    });
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
