import { Worker } from 'node:worker_threads';

// MD5 runs at a few hundred MB/s on one core, slower than loopback and a disk: computed on the
// event loop it was what capped an upload (and stalled every other request meanwhile). A worker
// thread hashes instead; the event loop only copies bytes into 1 MiB batches and posts them.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const hashes = new Map();
parentPort.on('message', (m) => {
  if (m.op === 'update') {
    let h = hashes.get(m.id);
    if (!h) { h = createHash('md5'); hashes.set(m.id, h); }
    h.update(new Uint8Array(m.buf, 0, m.length));
    parentPort.postMessage({ id: m.id, ack: m.length, buf: m.buf }, [m.buf]);
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

let worker: Worker | undefined;
let nextId = 1;
const waiting = new Map<
  number,
  { resolve: (hex: string) => void; reject: (error: Error) => void }
>();
const acked = new Map<number, (bytes: number) => void>();
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
  w.on('message', (m: { id: number; digest?: string; ack?: number; buf?: ArrayBuffer }) => {
    if (m.buf && spare.length < SPARE_MAX) spare.push(m.buf);
    if (m.ack !== undefined) {
      acked.get(m.id)?.(m.ack);
      return;
    }
    waiting.get(m.id)?.resolve(m.digest!);
    waiting.delete(m.id);
    acked.delete(m.id);
  });
  const fail = (error: Error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
    worker = undefined;
  };
  w.on('error', fail);
  w.on('exit', () => fail(new Error('The MD5 worker stopped.')));
  worker = w;
  return w;
}

/** An MD5 computed on a worker thread: `update` in order, then one `digest`. */
export class Md5 {
  readonly #id = nextId++;
  #batch = batchBuffer();
  #filled = 0;
  #done = false;
  #inFlight = 0;
  #drained: (() => void) | undefined;

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
    if (this.#done) throw new Error('MD5 already digested.');
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
