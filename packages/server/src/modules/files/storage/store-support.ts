import type { Readable } from 'node:stream';
import { FileStoreError, type ByteRange } from './file-store.js';
import { Md5 } from './md5.js';

/** How many bytes a body may bring, and whether it must bring exactly that many. */
export interface BodyLimits {
  /** Fails with 'too-large' as soon as more than this many bytes arrive. */
  maxSize: number;
  /** Fails with 'size-mismatch' when the body ends with another count (or overshoots it). */
  expectedSize?: number;
}

/**
 * One pass over an incoming body that counts and MD5-hashes its bytes as they go by, so a store
 * can enforce its limits the moment they are crossed instead of after the fact.
 *
 * Iterating yields the body's chunks as Buffers and fails with a {@link FileStoreError}:
 * 'too-large' or 'size-mismatch' for the limits, 'aborted' when the body itself errors or ends
 * early (a dropped connection). Whenever iteration stops before the body's end, the body is
 * destroyed, so nobody keeps reading bytes that will be thrown away.
 *
 * Single use: iterate it once, then read {@link size} and {@link md5}.
 */
export class MeteredBody implements AsyncIterable<Buffer> {
  #size = 0;
  readonly #hash: Md5 | undefined;
  readonly #alsoInto: Md5 | undefined;
  #md5: Promise<string> | undefined;

  constructor(
    private readonly body: Readable,
    private readonly limits: BodyLimits,
    options: {
      /** Without a hash, `md5()` is not available: for bytes whose checksum nobody needs yet. */
      hash?: boolean;
      /**
       * Another hash the bytes are added to as they pass (a whole file's, of which this body is
       * a part). It is the caller's: when the body fails, the caller must treat it as spoilt.
       */
      alsoInto?: Md5;
    } = {},
  ) {
    this.#hash = options.hash === false ? undefined : new Md5();
    this.#alsoInto = options.alsoInto;
  }

  /** Bytes seen so far (all of them once iteration has finished). */
  get size(): number {
    return this.#size;
  }

  /** Hex MD5 of the whole body; only meaningful once iteration has finished. */
  md5(): Promise<string> {
    if (!this.#hash) throw new Error('This body was read without hashing.');
    this.#md5 ??= this.#hash.digest();
    return this.#md5;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer, void, undefined> {
    const { maxSize, expectedSize } = this.limits;
    let finished = false;
    try {
      if (expectedSize !== undefined && expectedSize > maxSize) {
        throw new FileStoreError(
          'too-large',
          `${expectedSize} bytes announced, at most ${maxSize} allowed.`,
        );
      }
      // Stop at the expected size rather than the maximum: past it the upload is already wrong.
      const limit = expectedSize ?? maxSize;
      const chunks = this.body[Symbol.asyncIterator]() as AsyncIterator<unknown>;
      for (;;) {
        let step: IteratorResult<unknown>;
        try {
          step = await chunks.next();
        } catch (cause) {
          throw Object.assign(
            new FileStoreError('aborted', 'The body ended before it was complete.'),
            {
              cause,
            },
          );
        }
        if (step.done) break;
        const chunk = toBuffer(step.value);
        this.#size += chunk.length;
        if (this.#size > limit) {
          throw expectedSize === undefined
            ? new FileStoreError('too-large', `More than ${maxSize} bytes received.`)
            : new FileStoreError(
                'size-mismatch',
                `More than the expected ${expectedSize} bytes received.`,
              );
        }
        const behind = this.#hash?.update(chunk);
        if (behind) await behind;
        const alsoBehind = this.#alsoInto?.update(chunk);
        if (alsoBehind) await alsoBehind;
        yield chunk;
      }
      if (expectedSize !== undefined && this.#size !== expectedSize) {
        throw new FileStoreError(
          'size-mismatch',
          `Expected ${expectedSize} bytes, received ${this.#size}.`,
        );
      }
      finished = true;
    } finally {
      if (!finished) {
        this.#hash?.discard();
        stopReading(this.body);
      }
    }
  }
}

/**
 * Cuts a stream of chunks into parts of exactly `partSize` bytes (the last one shorter). It reads
 * one chunk past a full part before handing it out, so it can tell whether that part is the last.
 */
export class PartReader {
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #done = false;

  constructor(
    private readonly chunks: AsyncIterator<Buffer>,
    private readonly partSize: number,
  ) {}

  async next(): Promise<{ bytes: Buffer; last: boolean }> {
    while (!this.#done && this.#pendingBytes <= this.partSize) {
      const step = await this.chunks.next();
      if (step.done) this.#done = true;
      else {
        this.#pending.push(step.value);
        this.#pendingBytes += step.value.length;
      }
    }
    const all = Buffer.concat(this.#pending, this.#pendingBytes);
    const bytes = all.subarray(0, this.partSize);
    // Copied so the next part does not keep this one's memory alive.
    const rest = Buffer.from(all.subarray(this.partSize));
    this.#pending = rest.length > 0 ? [rest] : [];
    this.#pendingBytes = rest.length;
    return { bytes, last: this.#done && rest.length === 0 };
  }
}

/**
 * Stops taking bytes from a body that will be thrown away. A request body is only paused, not
 * destroyed: destroying it would destroy the connection before the client could be told why, and
 * the error response closes the connection anyway (see the error handler).
 */
function stopReading(body: Readable): void {
  if ('socket' in body && (body as { socket?: unknown }).socket) body.pause();
  else body.destroy();
}

function toBuffer(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (typeof value === 'string') return Buffer.from(value);
  throw new TypeError('File bodies must be byte streams.');
}

/** Base64 `Content-MD5` (RFC 1864) → hex, or undefined when it is not 16 bytes of base64. */
export function contentMd5ToHex(contentMd5: string): string | undefined {
  if (!/^[A-Za-z0-9+/]{22}==$/.test(contentMd5)) return undefined;
  return Buffer.from(contentMd5, 'base64').toString('hex');
}

/** Hex MD5 → the base64 form S3 expects in `Content-MD5`. */
export function hexToContentMd5(md5: string): string {
  return Buffer.from(md5, 'hex').toString('base64');
}

/** Refuses ranges no store could serve (the route has already clamped them to the object). */
export function assertByteRange({ start, end }: ByteRange): void {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`Invalid byte range ${start}-${end}.`);
  }
}

/** 1..count. */
export function partNumbers(count: number): number[] {
  return Array.from({ length: count }, (_, i) => i + 1);
}
