import { Worker } from 'node:worker_threads';

/** How much of a file the worker reads and hashes before it looks at its other messages. */
const FILE_SLICE = 4 * 1024 * 1024;

// MD5 runs at a few hundred MB/s on one core, slower than loopback and a disk: computed on the
// event loop it was what capped an upload (and stalled every other request meanwhile). A worker
// thread hashes instead; the event loop only copies bytes into 1 MiB batches and posts them.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { openSync, readSync, closeSync } = require('node:fs');
const hashes = new Map();
const SLICE = ${FILE_SLICE};
let slice;
function hashOf(id) {
  let h = hashes.get(id);
  if (!h) { h = createHash('md5'); hashes.set(id, h); }
  return h;
}
// Bytes already on disk are read here, into one reused buffer: read on the main thread they
// cost a buffer per 64 KiB (and the garbage collections those bring) and a copy per batch.
function hashFile(m) {
  const h = hashOf(m.id);
  let fd;
  let position = m.start;
  const finish = (error) => {
    if (fd !== undefined) { try { closeSync(fd); } catch {} }
    parentPort.postMessage(error
      ? { id: m.id, file: 'error', message: error.message, code: error.code }
      : { id: m.id, file: 'done' });
  };
  // A slice at a time, so that other uploads' batches are not held up by a whole part.
  const step = () => {
    try {
      // Discarded meanwhile (an aborted upload): stop reading.
      if (hashes.get(m.id) !== h) return finish();
      if (fd === undefined) fd = openSync(m.path, 'r');
      slice ??= Buffer.allocUnsafeSlow(SLICE);
      const stop = Math.min(m.end + 1, position + SLICE);
      while (position < stop) {
        const n = readSync(fd, slice, 0, stop - position, position);
        if (n === 0) throw Object.assign(new Error('The file is shorter than the range.'), { code: 'EOF' });
        h.update(slice.subarray(0, n));
        position += n;
      }
      if (position > m.end) finish();
      else setImmediate(step);
    } catch (error) {
      finish(error);
    }
  };
  step();
}
parentPort.on('message', (m) => {
  if (m.op === 'update') {
    hashOf(m.id).update(new Uint8Array(m.buf, 0, m.length));
    parentPort.postMessage({ id: m.id, ack: m.length, buf: m.buf }, [m.buf]);
  } else if (m.op === 'file') {
    hashFile(m);
  } else if (m.op === 'digest') {
    const h = hashes.get(m.id) ?? createHash('md5');
    hashes.delete(m.id);
    parentPort.postMessage({ id: m.id, digest: h.digest('hex') });
  } else if (m.op === 'drop') {
    hashes.delete(m.id);
  }
});
`;

const BATCH = 1024 * 1024;
// Bytes posted but not hashed yet, per hasher: past the high mark `update` asks its caller to
// wait, so a fast upload cannot pile gigabytes up in the worker's queue.
const HIGH_MARK = 8 * BATCH;

interface WorkerMessage {
  id: number;
  digest?: string;
  ack?: number;
  buf?: ArrayBuffer;
  file?: 'done' | 'error';
  message?: string;
  code?: string;
}

let worker: Worker | undefined;
let nextId = 1;
const waiting = new Map<
  number,
  { resolve: (hex: string) => void; reject: (error: Error) => void }
>();
const acked = new Map<number, (bytes: number) => void>();
const reading = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
// Batch buffers travel to the worker and back: reusing them keeps memory flat, where fresh 1 MiB
// buffers would pile up until both threads' garbage collectors got round to them.
const spare: ArrayBuffer[] = [];
const SPARE_MAX = 32;

function batchBuffer(): Buffer {
  const reused = spare.pop();
  return reused ? Buffer.from(reused) : Buffer.allocUnsafeSlow(BATCH);
}

function theWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER_SOURCE, { eval: true });
  w.unref();
  w.on('message', (m: WorkerMessage) => {
    if (m.buf && spare.length < SPARE_MAX) spare.push(m.buf);
    if (m.ack !== undefined) {
      acked.get(m.id)?.(m.ack);
      return;
    }
    if (m.file !== undefined) {
      const read = reading.get(m.id);
      reading.delete(m.id);
      if (m.file === 'done') read?.resolve();
      else read?.reject(Object.assign(new Error(m.message), { code: m.code }));
      return;
    }
    waiting.get(m.id)?.resolve(m.digest!);
    waiting.delete(m.id);
    acked.delete(m.id);
  });
  const fail = (error: Error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
    for (const { reject } of reading.values()) reject(error);
    reading.clear();
    worker = undefined;
  };
  w.on('error', fail);
  w.on('exit', () => fail(new Error('The MD5 worker stopped.')));
  worker = w;
  return w;
}

/**
 * An MD5 computed on a worker thread: `update` and `updateFromFile` in order, then one `digest`.
 * A file read must have finished (its promise settled) before anything else is asked.
 */
export class Md5 {
  readonly #id = nextId++;
  #batch = batchBuffer();
  #filled = 0;
  #done = false;
  #inFlight = 0;
  #drained: (() => void) | undefined;
  #readingFile = false;

  constructor() {
    acked.set(this.#id, (bytes) => {
      this.#inFlight -= bytes;
      if (this.#inFlight <= HIGH_MARK / 2 && this.#drained) {
        const resume = this.#drained;
        this.#drained = undefined;
        resume();
      }
    });
  }

  /**
   * Adds bytes. Returns a promise when the worker is behind: the caller should await it before
   * updating again (back-pressure), or memory grows with the backlog.
   */
  update(bytes: Uint8Array): Promise<void> | undefined {
    this.#assertIdle();
    let offset = 0;
    while (offset < bytes.length) {
      const n = Math.min(BATCH - this.#filled, bytes.length - offset);
      this.#batch.set(bytes.subarray(offset, offset + n), this.#filled);
      this.#filled += n;
      offset += n;
      if (this.#filled === BATCH) this.#flush();
    }
    if (this.#inFlight <= HIGH_MARK) return undefined;
    return new Promise((resolve) => {
      this.#drained = resolve;
    });
  }

  /**
   * Adds the bytes `start..end` (inclusive) of the file at `path`, which the worker reads itself.
   * Rejects with the read's error (its `code` kept, e.g. ENOENT) or 'EOF' when the file is shorter.
   */
  async updateFromFile(path: string, start: number, end: number): Promise<void> {
    this.#assertIdle();
    if (end < start) return;
    this.#flush();
    this.#readingFile = true;
    try {
      await new Promise<void>((resolve, reject) => {
        reading.set(this.#id, { resolve, reject });
        theWorker().postMessage({ op: 'file', id: this.#id, path, start, end });
      });
    } finally {
      this.#readingFile = false;
    }
  }

  #assertIdle(): void {
    if (this.#done) throw new Error('MD5 already digested.');
    if (this.#readingFile) throw new Error('MD5 is still reading a file.');
  }

  #flush(): void {
    if (this.#filled === 0) return;
    const buf = this.#batch.buffer as ArrayBuffer;
    theWorker().postMessage({ op: 'update', id: this.#id, buf, length: this.#filled }, [buf]);
    this.#inFlight += this.#filled;
    this.#batch = batchBuffer();
    this.#filled = 0;
  }

  /** The hex digest of everything updated so far; the hasher is spent afterwards. */
  digest(): Promise<string> {
    this.#assertIdle();
    this.#done = true;
    this.#flush();
    return new Promise((resolve, reject) => {
      waiting.set(this.#id, { resolve, reject });
      theWorker().postMessage({ op: 'digest', id: this.#id });
    });
  }

  /** Forgets a hash that will never be digested (a failed upload). */
  discard(): void {
    if (this.#done) return;
    this.#done = true;
    acked.delete(this.#id);
    this.#drained?.();
    if (worker) worker.postMessage({ op: 'drop', id: this.#id });
  }
}
