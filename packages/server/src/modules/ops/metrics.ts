import { stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DatabaseHandle } from '../../database/database.js';
import type { Services } from '../../services.js';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** What a sweep's run came to, for `cairn_sweep_runs_total`. */
export type SweepOutcome = 'done' | 'failed' | 'skipped';

/** Told of every sweep run by the scheduler. */
export type SweepObserver = (sweep: string, outcome: SweepOutcome, items: number) => void;

/** Upload bodies, by what they carry: a whole file's content or one multipart part. */
export type UploadKind = 'content' | 'part';

/**
 * The app's Prometheus metrics, in a registry of its own (several apps share a process in tests,
 * and prom-client's global registry refuses a metric registered twice).
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #duration = new Histogram({
    name: 'cairn_http_request_duration_seconds',
    help: 'Time from request to response, by route pattern, method and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    // Uploads and archives run for minutes; API calls for milliseconds.
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });
  readonly #serverErrors = new Counter({
    name: 'cairn_http_server_errors_total',
    help: 'Responses with a 5xx status, by route pattern and method',
    labelNames: ['method', 'route'] as const,
    registers: [this.registry],
  });
  readonly #clientErrors = new Counter({
    name: 'cairn_http_client_errors_total',
    help: 'Responses with a 4xx status, by status',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly #uploaded = new Counter({
    name: 'cairn_upload_received_bytes_total',
    help: 'Bytes of file content and multipart parts received through the app (S3 part uploads go to the bucket directly)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly #sweepRuns = new Counter({
    name: 'cairn_sweep_runs_total',
    help: 'Runs of each background sweep, by outcome (skipped: another instance held its lock)',
    labelNames: ['sweep', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly #sweepItems = new Counter({
    name: 'cairn_sweep_items_total',
    help: 'Items each sweep dealt with (embargoes lifted, DOIs registered, uploads removed…)',
    labelNames: ['sweep'] as const,
    registers: [this.registry],
  });

  constructor(database: DatabaseHandle, sqliteFile: string | undefined) {
    collectDefaultMetrics({ register: this.registry });
    const pool = database.pool;
    if (pool) {
      new Gauge({
        name: 'cairn_db_pool_connections',
        help: 'PostgreSQL pool connections: total open, idle, and requests waiting for one',
        labelNames: ['state'] as const,
        registers: [this.registry],
        collect() {
          this.set({ state: 'total' }, pool.totalCount);
          this.set({ state: 'idle' }, pool.idleCount);
          this.set({ state: 'waiting' }, pool.waitingCount);
        },
      });
      new Gauge({
        name: 'cairn_db_pool_max_connections',
        help: 'The most connections the PostgreSQL pool opens',
        registers: [this.registry],
        collect() {
          this.set(pool.max);
        },
      });
    }
    if (sqliteFile) {
      // SQLite has one connection and no pool; what an operator watches is the write-ahead log,
      // which grows without bound while long reads keep checkpoints from finishing.
      new Gauge({
        name: 'cairn_sqlite_file_bytes',
        help: 'Size of the SQLite database file and of its write-ahead log',
        labelNames: ['file'] as const,
        registers: [this.registry],
        async collect() {
          for (const [file, path] of [
            ['database', sqliteFile],
            ['wal', `${sqliteFile}-wal`],
          ] as const) {
            this.set(
              { file },
              await stat(path).then(
                (s) => s.size,
                () => 0,
              ),
            );
          }
        },
      });
    }
  }

  observeResponse(request: FastifyRequest, reply: FastifyReply): void {
    const route = request.routeOptions.url ?? 'unmatched';
    const method = METHODS.has(request.method) ? request.method : 'other';
    const status = reply.statusCode;
    this.#duration.observe(
      { method, route, status_class: `${Math.floor(status / 100)}xx` },
      reply.elapsedTime / 1000,
    );
    if (status >= 500) this.#serverErrors.inc({ method, route });
    else if (status >= 400) this.#clientErrors.inc({ status: String(status) });
  }

  uploaded(kind: UploadKind, bytes: number): void {
    this.#uploaded.inc({ kind }, bytes);
  }

  readonly sweep: SweepObserver = (sweep, outcome, items) => {
    this.#sweepRuns.inc({ sweep, outcome });
    if (items > 0) this.#sweepItems.inc({ sweep }, items);
  };
}

/**
 * Serves `/metrics` on a listener of its own (HOST:CAIRN_METRICS_PORT), so that the figures
 * never share the public port: started with the app and closed with it.
 */
export function registerMetricsListener(
  app: FastifyInstance,
  metrics: Metrics,
  services: Services,
) {
  const { host, operations } = services.config;
  const server = http.createServer((request, response) => {
    if (request.url?.split('?')[0] !== '/metrics' || request.method !== 'GET') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (error: unknown) => {
        app.log.error({ err: error }, 'metrics collection failed');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics failed\n');
      },
    );
  });
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(operations.metricsPort, host, () => {
        server.off('error', reject);
        const { port } = server.address() as AddressInfo;
        app.log.info(`metrics on http://${host}:${port}/metrics`);
        resolve();
      });
    });
  });
  app.addHook('onClose', async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}
