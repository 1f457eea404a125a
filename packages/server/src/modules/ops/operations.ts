import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { Services } from '../../services.js';
import { registerHealthRoutes } from './health.js';
import {
  Metrics,
  registerMetricsListener,
  type SweepObserver,
  type UploadKind,
} from './metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Health, metrics and the drain at shutdown (`registerOperations`). */
    operations: Operations;
  }
}

/** The upload routes' paths: a file's content, or one part of a multipart upload. */
const UPLOAD_PATH = /\/content(\/\d+)?$/;

/** Whether the request carries file bytes (contents or a part), judged before its body is read. */
function uploadKind(request: FastifyRequest): UploadKind | undefined {
  // A batch of files is many contents in one request.
  if (request.method === 'POST' && request.routeOptions.config?.formBody === true) return 'content';
  if (request.method !== 'PUT' || request.routeOptions.config?.binaryBody !== true)
    return undefined;
  const match = UPLOAD_PATH.exec(request.url.split('?')[0]!);
  if (!match) return undefined;
  return match[1] ? 'part' : 'content';
}

/**
 * What the process knows about its own state: whether it is draining for shutdown, the requests
 * in flight (uploads apart, since they get a longer grace), and the metrics when enabled.
 */
export class Operations {
  #draining = false;
  readonly #inFlight = new Map<FastifyRequest, UploadKind | undefined>();
  readonly #timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly app: FastifyInstance,
    readonly metrics: Metrics | undefined,
  ) {}

  get draining(): boolean {
    return this.#draining;
  }

  /** Where the sweep scheduler reports its runs (nowhere without metrics). */
  get sweepObserver(): SweepObserver | undefined {
    return this.metrics?.sweep;
  }

  /** Requests in flight now, uploads counted apart. */
  inFlight(): { uploads: number; others: number } {
    let uploads = 0;
    for (const kind of this.#inFlight.values()) if (kind) uploads++;
    return { uploads, others: this.#inFlight.size - uploads };
  }

  track(request: FastifyRequest, reply: FastifyReply, kind: UploadKind | undefined): void {
    this.#inFlight.set(request, kind);
    // Ends with the response, or with the connection when it breaks before one was sent.
    reply.raw.once('close', () => this.#inFlight.delete(request));
  }

  done(request: FastifyRequest): void {
    this.#inFlight.delete(request);
    // A kept-alive connection that just went idle would otherwise hold the server open until its
    // keep-alive time-out.
    if (this.#draining) this.app.server.closeIdleConnections();
  }

  /**
   * Shutdown's first step: readiness answers 503, new requests on open connections get 503 with
   * `Connection: close`, and what is still running after its grace is cut (an upload cut this way
   * stays resumable: its file keeps what was committed and its parts what arrived whole).
   */
  beginDrain(graceSeconds: number, uploadGraceSeconds: number): void {
    if (this.#draining) return;
    this.#draining = true;
    this.app.server.closeIdleConnections();
    const cut = (uploads: boolean) => {
      let count = 0;
      for (const [request, kind] of this.#inFlight) {
        if ((kind !== undefined) !== uploads) continue;
        request.raw.socket?.destroy();
        this.#inFlight.delete(request);
        count++;
      }
      if (count > 0)
        this.app.log.warn(
          `shutdown: cut ${count} ${uploads ? 'upload' : 'request'}${count === 1 ? '' : 's'} still running after the grace`,
        );
    };
    const schedule = (seconds: number, fn: () => void) => {
      const timer = setTimeout(fn, seconds * 1000);
      timer.unref();
      this.#timers.push(timer);
    };
    schedule(graceSeconds, () => cut(false));
    // An upload is never cut before a plain request would be.
    schedule(Math.max(graceSeconds, uploadGraceSeconds), () => cut(true));
  }

  /** Called once the server has closed: nothing is left to cut. */
  stopTimers(): void {
    for (const timer of this.#timers) clearTimeout(timer);
  }
}

/**
 * Health routes, metrics (when `CAIRN_METRICS_PORT` is set) and the hooks behind a graceful
 * shutdown. Registered on the root instance, so its hooks see every route.
 */
export function registerOperations(app: FastifyInstance, services: Services): void {
  const { config } = services;
  const metrics =
    config.operations.metricsPort === undefined
      ? undefined
      : new Metrics(
          services.database,
          config.database.kind === 'sqlite' && config.database.file !== ':memory:'
            ? config.database.file
            : undefined,
        );
  const operations = new Operations(app, metrics);
  app.decorate('operations', operations);
  registerHealthRoutes(app, services, { draining: () => operations.draining });
  if (metrics) registerMetricsListener(app, metrics, services);

  app.addHook('onRequest', async (request, reply) => {
    const health = request.routeOptions.url?.startsWith('/api/health/') === true;
    if (operations.draining) {
      void reply.header('connection', 'close');
      // Readiness says itself that the instance is leaving; liveness still holds.
      if (!health)
        throw new AppError('SHUTTING_DOWN', undefined, undefined, undefined, {
          'retry-after': '5',
        });
    }
    const kind = uploadKind(request);
    operations.track(request, reply, kind);
    if (kind && metrics) {
      // Counted as the handler reads: paused first, so that listening for data does not start
      // the body flowing before the handler takes it.
      request.raw.pause();
      request.raw.on('data', (chunk: Buffer) => metrics.uploaded(kind, chunk.length));
    }
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (operations.draining) void reply.header('connection', 'close');
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    operations.done(request);
    metrics?.observeResponse(request, reply);
  });
  app.addHook('onClose', (_instance, done) => {
    operations.stopTimers();
    done();
  });
}
