import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOLDS_DIR, HOLD_LEASE_MS, DeletionHolds } from './deletion-hold.js';
import { LocalFileStore } from './local-file-store.js';

describe('deletion holds on the local store', () => {
  let root: string;
  let store: LocalFileStore;

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'cairn-holds-'));
    store = new LocalFileStore({ root });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const put = (key: string) => store.put(key, Readable.from([Buffer.from(key)]), { maxSize: 100 });
  const exists = (key: string) =>
    store.read(key).then(
      (stream) => (stream.destroy(), true),
      () => false,
    );

  it('keeps deleted bytes while a hold stands, and deletes them once it is released', async () => {
    await put('uploads/aa/one');
    await put('uploads/aa/two');
    const hold = await new DeletionHolds(root).acquire();
    await store.delete('uploads/aa/one');
    expect(await exists('uploads/aa/one')).toBe(true);
    await hold.release();
    // Another deletion, with no hold, also deletes what was held back.
    await store.delete('uploads/aa/two');
    expect(await exists('uploads/aa/one')).toBe(false);
    expect(await exists('uploads/aa/two')).toBe(false);
    expect(await readdir(path.join(root, HOLDS_DIR))).toEqual([]);
  });

  it('lets a hold lapse when nobody renews it (a backup that died)', async () => {
    await put('uploads/bb/one');
    await new DeletionHolds(root).acquire();
    const [name] = await readdir(path.join(root, HOLDS_DIR));
    const past = new Date(Date.now() - HOLD_LEASE_MS - 1000);
    await utimes(path.join(root, HOLDS_DIR, name!), past, past);
    await store.delete('uploads/bb/one');
    expect(await exists('uploads/bb/one')).toBe(false);
  });

  it('purges what was deferred without any further deletion', async () => {
    await put('uploads/cc/one');
    const hold = await new DeletionHolds(root).acquire();
    await store.delete('uploads/cc/one');
    expect(await store.purgeDeferred()).toBe(0);
    await hold.release();
    expect(await store.purgeDeferred()).toBe(1);
    expect(await exists('uploads/cc/one')).toBe(false);
  });
});
