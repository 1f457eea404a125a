import type { FileSource } from './file-access';
import { Md5, toHex } from './md5';

/** What is kept of an unfinished multipart upload so a re-picked file can carry on. */
export interface ResumeRecord {
  /** The file's `links.self` on the server (its parts listing is `{self}/parts`). */
  self: string;
  parts: number;
  partSize: number;
  fingerprint: string;
  /** The file's modification time when its upload began (absent in records of older versions). */
  lastModified?: number;
  savedAt: string;
}

/** Where resume records live; the browser's is localStorage, so they outlive a restart. */
export interface ResumeStore {
  get(key: string): ResumeRecord | undefined;
  put(key: string, record: ResumeRecord): void;
  remove(key: string): void;
}

const PREFIX = 'cairn.upload.';

/**
 * A file is matched by draft, name and size, so picking it again resumes its upload; the
 * fingerprint then tells apart two files that share both.
 */
export function resumeKey(draftId: string, name: string, size: number): string {
  return `${PREFIX}${draftId}/${size}/${name.normalize('NFC')}`;
}

export function createLocalResumeStore(storage: Storage = window.localStorage): ResumeStore {
  return {
    get(key) {
      try {
        const text = storage.getItem(key);
        if (!text) return undefined;
        const value = JSON.parse(text) as Partial<ResumeRecord>;
        if (
          typeof value.self !== 'string' ||
          typeof value.parts !== 'number' ||
          typeof value.partSize !== 'number' ||
          typeof value.fingerprint !== 'string'
        )
          return undefined;
        return value as ResumeRecord;
      } catch {
        return undefined;
      }
    },
    put(key, record) {
      try {
        storage.setItem(key, JSON.stringify(record));
      } catch {
        // A full or disabled storage only costs the ability to resume.
      }
    },
    remove(key) {
      storage.removeItem(key);
    },
  };
}

/** A file's kept handle, beside its resume record (under the same key). */
export interface SourceRecord {
  /** The resume record's key (`resumeKey`). */
  id: string;
  draftId: string;
  /** The file's key in the draft. */
  key: string;
  size: number;
  source: FileSource;
}

/**
 * Where handles live: IndexedDB, the one storage that keeps them (they are structured-cloneable,
 * not JSON). Every method resolves quietly where there is none: only the one-click resume is lost.
 */
export interface SourceStore {
  put(record: SourceRecord): Promise<void>;
  /** The draft's kept handles. */
  list(draftId: string): Promise<SourceRecord[]>;
  remove(id: string): Promise<void>;
}

const SOURCES_DB = 'cairn-uploads';
const SOURCES = 'sources';

export function createSourceStore(
  factory: IDBFactory | undefined = globalThis.indexedDB,
): SourceStore {
  let database: Promise<IDBDatabase> | undefined;
  const open = (): Promise<IDBDatabase> =>
    (database ??= new Promise((resolve, reject) => {
      const request = factory.open(SOURCES_DB, 1);
      request.onupgradeneeded = () => {
        const store = request.result.createObjectStore(SOURCES, { keyPath: 'id' });
        store.createIndex('draftId', 'draftId');
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB could not be opened'));
    }));
  async function run<T>(
    mode: IDBTransactionMode,
    action: (store: IDBObjectStore) => IDBRequest<T>,
  ): Promise<T> {
    const transaction = (await open()).transaction(SOURCES, mode);
    const request = action(transaction.objectStore(SOURCES));
    await new Promise<void>((resolve, reject) => {
      transaction.oncomplete = () => resolve();
      transaction.onabort = () =>
        reject(transaction.error ?? new Error('IndexedDB transaction failed'));
    });
    return request.result;
  }
  const quietly = async <T>(action: () => Promise<T>, fallback: T): Promise<T> => {
    if (!factory) return fallback;
    try {
      return await action();
    } catch {
      return fallback;
    }
  };
  return {
    put: (record) =>
      quietly(
        () => run('readwrite', (store) => store.put(record)).then(() => undefined),
        undefined,
      ),
    list: (draftId) =>
      quietly(
        () =>
          run(
            'readonly',
            (store) => store.index('draftId').getAll(draftId) as IDBRequest<SourceRecord[]>,
          ),
        [],
      ),
    remove: (id) => quietly(() => run('readwrite', (store) => store.delete(id)), undefined),
  };
}

const FINGERPRINT_SPAN = 1024 * 1024;

/**
 * MD5 over the size, the first and the last MiB of the file: cheap on a terabyte, and a
 * different file of the same name and size almost surely differs there. The parts the server
 * already has are checked against their own MD5 before they are skipped.
 */
export async function fingerprintOf(file: Blob): Promise<string> {
  const head = file.slice(0, FINGERPRINT_SPAN);
  const tail = file.slice(Math.max(0, file.size - FINGERPRINT_SPAN));
  const hash = new Md5().update(new TextEncoder().encode(String(file.size)));
  for (const span of [head, tail]) hash.update(new Uint8Array(await span.arrayBuffer()));
  return toHex(hash.digest());
}
