import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

/*
 * A request body from which no byte arrives for the configured idle time is answered 408 and its
 * connection closed; a body that keeps moving, however slowly, is never cut. Node and Fastify
 * each have a time-out, and none does this:
 *
 * - Node's `requestTimeout` (which Fastify sets to 0) limits the whole request: a 50 GB upload
 *   over a slow line that never pauses would be cut.
 * - Fastify's `connectionTimeout` (the socket's idle time-out) destroys the socket without an
 *   answer, and counts the server's own silence too: a commit hashing a large file, or a request
 *   kept alive between two uploads, would be cut as well.
 * - `headersTimeout` covers the headers only.
 *
 * So every body passes through an idle watch (Fastify's preParsing hook hands it to the JSON
 * parser and to the raw streams of file content and parts alike), whose timer restarts with
 * every chunk and which waits as long as the reader is behind: a client held back by the
 * server's own back-pressure is not stalling.
 */

/** A body's watch and the request stream it reads, per request. */
const watches = new WeakMap<FastifyRequest, IdleWatch>();

class IdleWatch extends Transform {
  #timer: NodeJS.Timeout | undefined;
  /** Set once the body stalled: the request is answered with it whatever its reader makes of it. */
  timedOut: AppError | undefined;

  constructor(
    private readonly source: Readable,
    private readonly idleMs: number,
    private readonly onIdle: () => void,
  ) {
    super();
    this.#arm();
  }

  #stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Restarts the idle time (a refresh of one timer: a large upload has a million chunks). */
  #arm(): void {
    if (this.#timer) this.#timer.refresh();
    else {
      this.#timer = setTimeout(() => this.#check(), this.idleMs);
      this.#timer.unref();
    }
  }

  #check(): void {
    // The reader is behind (or has not started): the client waits on the server.
    if (this.writableNeedDrain || this.readableLength >= this.readableHighWaterMark) this.#arm();
    else this.onIdle();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.#arm();
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback) {
    this.#stop();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    // A reader that gives up on the body (too large, a wrong checksum) leaves the request paused,
    // as it did when it read the request itself: the error answer closes the connection.
    this.detach();
    this.source.pause();
    callback(error);
  }

  /** Stops watching: the request's answer no longer depends on its body. */
  detach(): void {
    this.#stop();
    this.source.unpipe(this);
  }
}

/** Whether the request carries a body at all. */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (
    (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined
  );
}

/** The 408 of a request whose body stalled, whatever error its reader then ran into. */
export function bodyTimeout(request: FastifyRequest): AppError | undefined {
  return watches.get(request)?.timedOut;
}

/** The error a stalled body is answered with. */
function timeoutError(idleSeconds: number): AppError {
  return new AppError(
    'REQUEST_TIMEOUT',
    `The request body stopped arriving: no byte came for ${idleSeconds} seconds.`,
  );
}

/** Stops watching the body of a request answered before it was read (see lingerThenClose). */
export function stopWatchingBody(request: FastifyRequest): void {
  watches.get(request)?.detach();
}

/** Registers the idle watch on every request body; `idleSeconds` 0 leaves bodies unwatched. */
export function registerBodyIdleTimeout(app: FastifyInstance, idleSeconds: number): void {
  if (idleSeconds <= 0) return;
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (!hasBody(request)) {
      done(null, payload);
      return;
    }
    const watch: IdleWatch = new IdleWatch(payload, idleSeconds * 1000, () => {
      watch.timedOut = timeoutError(idleSeconds);
      watch.detach();
      if (reply.sent || reply.raw.headersSent) {
        // Answered already (refused before its body was read): nothing is left to say.
        request.raw.socket?.destroy();
        return;
      }
      // Its reader fails with this error, and the error handler answers 408 and closes.
      watch.destroy(watch.timedOut);
    });
    // Readers attach their own listeners; a body nobody reads must not crash the process.
    watch.on('error', () => {});
    payload.on('error', (error) => watch.destroy(error));
    payload.on('close', () => {
      if (!(payload as { complete?: boolean }).complete && watch.timedOut === undefined)
        watch.destroy(new Error('The connection closed before the body was complete.'));
    });
    payload.pipe(watch);
    watches.set(request, watch);
    done(null, watch);
  });
}
