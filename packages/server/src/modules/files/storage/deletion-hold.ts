import { randomUUID } from 'node:crypto';
import {
  appendFile,
  mkdir,
  readdir,
  readFile,
  rename,
  stat,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';

/** Inside the store's root, beside `.tmp` and `.multipart`: holds and the deletions they defer. */
export const HOLDS_DIR = '.holds';
const HOLD = /^[0-9a-f-]{36}\.hold$/;
const DEFERRED = 'deferred';
const PURGING = /^deferred\.[0-9a-f-]{36}$/;
/** A hold not renewed for this long belongs to a backup that died; it no longer counts. */
export const HOLD_LEASE_MS = 60_000;
const RENEW_MS = 10_000;

export interface Hold {
  release(): Promise<void>;
}

function hasCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === code;
}

/**
 * Holds on the deletion of stored bytes, shared through the store's folder by every process that
 * uses it: the server deletes, `cairn backup` holds. While a hold is live, a deletion only notes
 * the key in `.holds/deferred`; once no hold is left, the noted keys are deleted.
 *
 * Why a backup needs it: the backup copies the database first and the files it refers to after,
 * and the server deletes an object's bytes right after a transaction stops referring to it. A
 * hold taken before the database is copied means no object in that copy can lose its bytes until
 * the files are copied too. The ordering is what makes it safe: the server removes the database
 * row first and asks here second, so either the hold was there when it asked (the deletion
 * waits), or the row was gone before the hold existed, hence before the copy began.
 *
 * A hold is a file renewed every few seconds; a backup that dies leaves one that lapses after
 * HOLD_LEASE_MS, so deletions never wait forever.
 */
export class DeletionHolds {
  readonly #dir: string;

  constructor(root: string) {
    this.#dir = join(root, HOLDS_DIR);
  }

  /** Whether some live hold stands now. */
  async held(): Promise<boolean> {
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch (error) {
      if (hasCode(error, 'ENOENT')) return false;
      throw error;
    }
    const now = Date.now();
    for (const name of names) {
      if (!HOLD.test(name)) continue;
      try {
        if (now - (await stat(join(this.#dir, name))).mtimeMs < HOLD_LEASE_MS) return true;
      } catch (error) {
        if (!hasCode(error, 'ENOENT')) throw error;
      }
    }
    return false;
  }

  /** Notes `key` for deletion once no hold stands. */
  async defer(key: string): Promise<void> {
    await mkdir(this.#dir, { recursive: true });
    // One short append per key: appends of a few bytes land whole, whoever else appends.
    await appendFile(join(this.#dir, DEFERRED), `${key}\n`);
  }

  /** Takes a hold, renewed until released. */
  async acquire(): Promise<Hold> {
    await mkdir(this.#dir, { recursive: true });
    const path = join(this.#dir, `${randomUUID()}.hold`);
    await writeFile(path, `${process.pid}\n`, { flush: true });
    const renew = setInterval(() => {
      const now = new Date();
      utimes(path, now, now).catch(() => {});
    }, RENEW_MS);
    renew.unref();
    return {
      async release() {
        clearInterval(renew);
        await unlink(path).catch((error: unknown) => {
          if (!hasCode(error, 'ENOENT')) throw error;
        });
      },
    };
  }

  /**
   * Deletes what was deferred, unless a hold stands again. The list is renamed away first, so a
   * key deferred meanwhile lands in a new list and waits for the next purge.
   */
  async purge(remove: (key: string) => Promise<void>): Promise<number> {
    if (await this.held()) return 0;
    try {
      await rename(join(this.#dir, DEFERRED), join(this.#dir, `${DEFERRED}.${randomUUID()}`));
    } catch (error) {
      if (!hasCode(error, 'ENOENT')) throw error;
    }
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch (error) {
      if (hasCode(error, 'ENOENT')) return 0;
      throw error;
    }
    let removed = 0;
    // Lists left by a purge that was interrupted are finished too. A hold taken from now on
    // needs none of these bytes: their rows were gone before it began.
    // Two processes may purge at once (the server, a backup that just ended): deleting a key
    // twice is harmless, so a list another purge finished first is simply gone.
    for (const name of names.filter((n) => PURGING.test(n))) {
      const list = join(this.#dir, name);
      let keys: string[];
      try {
        keys = (await readFile(list, 'utf8')).split('\n').filter(Boolean);
      } catch (error) {
        if (hasCode(error, 'ENOENT')) continue;
        throw error;
      }
      for (const key of keys) {
        await remove(key);
        removed++;
      }
      await unlink(list).catch((error: unknown) => {
        if (!hasCode(error, 'ENOENT')) throw error;
      });
    }
    return removed;
  }
}
