import { parentPort, workerData } from 'node:worker_threads';
import type { IndexedType } from '../kinds.js';
import { packItems, preparedBatches, type PipelineOptions } from './pipeline.js';
import { KNOWN_NAMES_MAX, type FromWorker, type ToWorker } from './worker-protocol.js';

/**
 * The import's second thread: reads the dump's bytes as the main thread passes them on, and
 * posts back batches of rows ready to insert (pipeline.ts). The main thread meanwhile writes
 * the previous batches, and answers the reference lookups, since only it holds the database.
 */

const port = parentPort!;
const options = workerData as PipelineOptions;
const post = (message: FromWorker) => port.postMessage(message);

const chunks: Array<Uint8Array | string | null> = [];
let wakeReader: (() => void) | undefined;
const lookups = new Map<number, (entries: Array<[string, string]>) => void>();
let nextLookup = 0;
let acknowledged = 0;
let wakeWriter: (() => void) | undefined;

port.on('message', (message: ToWorker) => {
  if (message.op === 'bytes' || message.op === 'end') {
    chunks.push(message.op === 'bytes' ? message.chunk : null);
    wakeReader?.();
  } else if (message.op === 'known') {
    known.set(message.type, new Map<string, Known>(message.entries));
    complete.add(message.type);
  } else if (message.op === 'names') {
    lookups.get(message.id)?.(message.entries);
    lookups.delete(message.id);
  } else {
    acknowledged++;
    wakeWriter?.();
  }
});

async function* bytes(): AsyncGenerator<Buffer | string> {
  for (;;) {
    while (chunks.length === 0) await new Promise<void>((resolve) => (wakeReader = resolve));
    const chunk = chunks.shift()!;
    if (chunk === null) return;
    post({ op: 'more' });
    yield typeof chunk === 'string'
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
}

// Names already looked up (null: no such item; a promise: being looked up), or every name of a
// vocabulary sent whole. Most dumps name the same few thousand organisations again and again;
// the bound keeps a pathological one from growing the cache for ever.
type Known = string | null | Promise<string | null>;
const known = new Map<IndexedType, Map<string, Known>>();
const complete = new Set<IndexedType>();

function ask(type: IndexedType, ids: string[]): Promise<Map<string, string>> {
  const id = nextLookup++;
  return new Promise((resolve) => {
    lookups.set(id, (entries) => resolve(new Map(entries)));
    post({ op: 'lookup', id, type, ids });
  });
}

async function namesOf(type: IndexedType, ids: readonly string[]): Promise<Map<string, string>> {
  let cache = known.get(type);
  if (!cache) known.set(type, (cache = new Map<string, Known>()));
  const wanted = new Map<string, Known>();
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const name = cache.get(id);
    if (name !== undefined) wanted.set(id, name);
    else if (!complete.has(type)) missing.push(id);
  }
  if (missing.length > 0) {
    const answer = ask(type, missing);
    if (cache.size + missing.length > KNOWN_NAMES_MAX) cache.clear();
    for (const id of missing) {
      const name = answer.then((found) => found.get(id) ?? null);
      cache.set(id, name);
      wanted.set(id, name);
      // Batches read meanwhile wait for the same answer rather than ask again.
      void name.then((value) => {
        if (cache.get(id) === name) cache.set(id, value);
      });
    }
  }
  const names = new Map<string, string>();
  for (const [id, known] of wanted) {
    const name = known instanceof Promise ? await known : known;
    if (name !== null) names.set(id, name);
  }
  return names;
}

// Batches posted and not yet written: past this the main thread is the slower one, and reading
// further would only pile rows up in memory.
const MAX_UNWRITTEN = 3;
let posted = 0;
for await (const batch of preparedBatches(options, bytes(), namesOf)) {
  while (posted - acknowledged >= MAX_UNWRITTEN) {
    await new Promise<void>((resolve) => (wakeWriter = resolve));
  }
  post({
    op: 'batch',
    rows: packItems(batch.items),
    problems: batch.problems,
    records: batch.records,
  });
  posted++;
}
post({ op: 'done' });
