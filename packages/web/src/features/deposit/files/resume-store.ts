import { Md5, toHex } from './md5';

/** What is kept of an unfinished multipart upload so a re-picked file can carry on. */
export interface ResumeRecord {
  /** The file's `links.self` on the server (its parts listing is `{self}/parts`). */
  self: string;
  parts: number;
  partSize: number;
  fingerprint: string;
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
