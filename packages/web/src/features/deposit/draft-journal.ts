import type { CreatorFormValues, DepositFormValues } from '@cairn/shared';
import { CreatorEntry } from './creators/creator-entry';

/*
 * A local journal of unsaved edits in IndexedDB, so a crash, a reload or an expired session does
 * not lose them: the form writes its values here as they change, forgets them once saved, and
 * offers to restore them when the page opens again with edits the server never got.
 */

const DB_NAME = 'cairn-deposit';
const STORE = 'journal';

export interface JournalEntry {
  /** The draft id, or `new:<user id>` for an upload not saved yet. */
  key: string;
  values: DepositFormValues;
  /** When the edits were written (ISO 8601). */
  writtenAt: string;
  /** The revision the edits were made on; null before the first save. */
  baseRevision: number | null;
}

export interface DraftJournal {
  read(key: string): Promise<JournalEntry | undefined>;
  write(entry: JournalEntry): Promise<void>;
  remove(key: string): Promise<void>;
}

/**
 * What IndexedDB holds for an entry: its values as JSON text, written by `valuesJson`. A string
 * is copied into the store as it is, where an object of 10,000 creators would be cloned
 * property by property on every write. Entries of earlier versions hold `values` instead.
 */
interface StoredEntry extends Omit<JournalEntry, 'values'> {
  json?: string;
  values?: DepositFormValues;
}

const entryJsons = new WeakMap<CreatorEntry, string>();

/** Each list's last JSON, with the entries it was made of (lists change in place). */
const listJsons = new WeakMap<
  readonly CreatorFormValues[],
  { entries: CreatorFormValues[]; json: string }
>();

/**
 * A creator list as JSON; each entry's text is kept, since entries never change, and so is the
 * whole list's while it holds the same entries (typing in the title changes none of them).
 */
function listJson(list: readonly CreatorFormValues[]): string {
  const last = listJsons.get(list);
  if (last?.entries.length === list.length && last.entries.every((entry, i) => entry === list[i])) {
    return last.json;
  }
  const json = joinedListJson(list);
  // Plain values may change in place; only a list of entries alone is kept.
  if (list.every((creator) => creator instanceof CreatorEntry)) {
    listJsons.set(list, { entries: [...list], json });
  }
  return json;
}

function joinedListJson(list: readonly CreatorFormValues[]): string {
  const parts = list.map((creator) => {
    if (!(creator instanceof CreatorEntry)) return JSON.stringify(creator);
    let json = entryJsons.get(creator);
    if (json === undefined) {
      json = JSON.stringify(creator);
      entryJsons.set(creator, json);
    }
    return json;
  });
  return `[${parts.join(',')}]`;
}

/**
 * `values` as JSON, `JSON.parse` giving them back: the two creator lists from the entries' kept
 * texts, so that journaling 10,000 creators after each pause in typing costs a join, not a
 * serialisation.
 */
export function valuesJson(values: DepositFormValues): string {
  const { creators, contributors, ...metadata } = values.metadata;
  const rest = JSON.stringify({ ...values, metadata });
  return `{"creators":${listJson(creators)},"contributors":${listJson(contributors)},"rest":${rest}}`;
}

function parseValuesJson(json: string): DepositFormValues {
  const { creators, contributors, rest } = JSON.parse(json) as {
    creators: CreatorFormValues[];
    contributors: CreatorFormValues[];
    rest: DepositFormValues;
  };
  return { ...rest, metadata: { ...rest.metadata, creators, contributors } };
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

let database: Promise<IDBDatabase> | null = null;

function openDatabase(factory: IDBFactory): Promise<IDBDatabase> {
  database ??= new Promise((resolve, reject) => {
    const open = factory.open(DB_NAME, 1);
    open.onupgradeneeded = () => {
      open.result.createObjectStore(STORE, { keyPath: 'key' });
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error('IndexedDB could not be opened'));
  });
  return database;
}

async function withStore<T>(
  factory: IDBFactory,
  mode: IDBTransactionMode,
  run: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  const db = await openDatabase(factory);
  return request(run(db.transaction(STORE, mode).objectStore(STORE)));
}

/**
 * The journal on the browser's IndexedDB. Where there is none (some private modes), it keeps
 * nothing and says so by resolving quietly: the form still works, only without the safety net.
 */
export function createDraftJournal(
  factory: IDBFactory | undefined = globalThis.indexedDB,
): DraftJournal {
  if (!factory) {
    return {
      read: () => Promise.resolve(undefined),
      write: () => Promise.resolve(),
      remove: () => Promise.resolve(),
    };
  }
  return {
    async read(key) {
      const stored = (await withStore(factory, 'readonly', (store) => store.get(key))) as
        StoredEntry | undefined;
      if (!stored) return undefined;
      const { json, values, ...rest } = stored;
      if (json !== undefined) return { ...rest, values: parseValuesJson(json) };
      return values ? { ...rest, values } : undefined;
    },
    async write({ values, ...rest }) {
      const stored: StoredEntry = { ...rest, json: valuesJson(values) };
      await withStore(factory, 'readwrite', (store) => store.put(stored));
    },
    async remove(key) {
      await withStore(factory, 'readwrite', (store) => store.delete(key));
    },
  };
}
