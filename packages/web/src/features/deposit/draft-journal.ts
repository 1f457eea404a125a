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
 * What IndexedDB holds for an entry: its values but the creator lists as JSON text (`rest`), and
 * for each list the id of a record of its own holding its JSON (`lists`). Typing in the title
 * then rewrites a few KB, not the 2 MB of 10,000 creators, which IndexedDB copies on the main
 * thread for tens of milliseconds at every write; a list is written again only when it changed.
 * Entries of earlier versions hold all the values as JSON (`json`) or as they were (`values`).
 */
interface StoredEntry extends Omit<JournalEntry, 'values'> {
  rest?: string;
  lists?: Record<ListName, string>;
  json?: string;
  values?: DepositFormValues;
}

/** A creator list's record: its JSON, under `listKey`. */
interface StoredList {
  key: string;
  json: string;
}

const LIST_NAMES = ['creators', 'contributors'] as const;
type ListName = (typeof LIST_NAMES)[number];

/** NUL, which no draft id holds, keeps the lists' keys apart from the entries'. */
function listKey(key: string, list: ListName, id: string): string {
  return `${key}\u0000${list}\u0000${id}`;
}

/** Every record of one list of an entry, whatever its id. */
function listRange(key: string, list: ListName): IDBKeyRange {
  return IDBKeyRange.bound(`${key}\u0000${list}\u0000`, `${key}\u0000${list}\u0001`, false, true);
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
 * `values` as JSON in three parts, the two creator lists and everything else: each list from its
 * entries' kept texts, so that journaling 10,000 creators costs a join, not a serialisation.
 */
function valuesParts(values: DepositFormValues): Record<ListName | 'rest', string> {
  const { creators, contributors, ...metadata } = values.metadata;
  return {
    creators: listJson(creators),
    contributors: listJson(contributors),
    rest: JSON.stringify({ ...values, metadata }),
  };
}

function joinValues(rest: DepositFormValues, lists: Record<ListName, CreatorFormValues[]>) {
  return { ...rest, metadata: { ...rest.metadata, ...lists } };
}

function parseValuesJson(json: string): DepositFormValues {
  const { creators, contributors, rest } = JSON.parse(json) as {
    creators: CreatorFormValues[];
    contributors: CreatorFormValues[];
    rest: DepositFormValues;
  };
  return joinValues(rest, { creators, contributors });
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

/** Runs `run` in one transaction; resolves once it has committed. */
async function inTransaction<T>(
  factory: IDBFactory,
  mode: IDBTransactionMode,
  run: (store: IDBObjectStore) => T,
): Promise<T> {
  const db = await openDatabase(factory);
  const transaction = db.transaction(STORE, mode);
  const result = run(transaction.objectStore(STORE));
  await new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onabort = () =>
      reject(transaction.error ?? new Error('IndexedDB transaction failed'));
  });
  return result;
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
  /** Per entry, each list as last written: its JSON, and the id of its record. */
  const written = new Map<string, Partial<Record<ListName, { json: string; id: string }>>>();
  let nextId = 0;
  // Another tab may write the same entry: ids of its own keep its lists apart from this one's.
  const tab = Math.random().toString(36).slice(2);
  return {
    async read(key) {
      const found = await inTransaction(factory, 'readonly', (store) => {
        const lists: Partial<Record<ListName, StoredList | undefined>> = {};
        let stored: StoredEntry | undefined;
        store.get(key).onsuccess = (event) => {
          stored = (event.target as IDBRequest<StoredEntry | undefined>).result;
          for (const list of LIST_NAMES) {
            const id = stored?.lists?.[list];
            if (id === undefined) continue;
            store.get(listKey(key, list, id)).onsuccess = (listEvent) => {
              lists[list] = (listEvent.target as IDBRequest<StoredList | undefined>).result;
            };
          }
        };
        return () => ({ stored, lists });
      });
      const { stored, lists } = found();
      if (!stored) return undefined;
      const { rest, lists: ids, json, values, ...fields } = stored;
      if (rest !== undefined && ids) {
        const creators = lists.creators;
        const contributors = lists.contributors;
        // A list another tab removed with the entry: nothing whole to offer.
        if (!creators || !contributors) return undefined;
        const parsed = {
          creators: JSON.parse(creators.json) as CreatorFormValues[],
          contributors: JSON.parse(contributors.json) as CreatorFormValues[],
        };
        return { ...fields, values: joinValues(JSON.parse(rest) as DepositFormValues, parsed) };
      }
      if (json !== undefined) return { ...fields, values: parseValuesJson(json) };
      return values ? { ...fields, values } : undefined;
    },
    async write({ values, ...fields }) {
      const parts = valuesParts(values);
      const last = written.get(fields.key) ?? {};
      const next: Record<ListName, { json: string; id: string }> = {
        creators: { json: parts.creators, id: '' },
        contributors: { json: parts.contributors, id: '' },
      };
      await inTransaction(factory, 'readwrite', (store) => {
        for (const list of LIST_NAMES) {
          const json = parts[list];
          const previous = last[list];
          if (previous?.json === json) {
            next[list].id = previous.id;
            // Kept unless another tab's write of this entry replaced it meanwhile.
            const record: StoredList = { key: listKey(fields.key, list, previous.id), json };
            store.getKey(record.key).onsuccess = (event) => {
              if ((event.target as IDBRequest).result === undefined) store.put(record);
            };
          } else {
            nextId += 1;
            next[list].id = `${tab}.${nextId}`;
            store.delete(listRange(fields.key, list));
            store.put({ key: listKey(fields.key, list, next[list].id), json } satisfies StoredList);
          }
        }
        const stored: StoredEntry = {
          ...fields,
          rest: parts.rest,
          lists: { creators: next.creators.id, contributors: next.contributors.id },
        };
        store.put(stored);
      });
      written.set(fields.key, next);
    },
    async remove(key) {
      written.delete(key);
      await inTransaction(factory, 'readwrite', (store) => {
        store.delete(key);
        for (const list of LIST_NAMES) store.delete(listRange(key, list));
      });
    },
  };
}
