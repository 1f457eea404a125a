import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Md5 } from './md5.js';

const reference = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

describe('Md5 on a worker thread', () => {
  it('matches node:crypto for empty, small, batch-sized and odd-sized input fed in odd pieces', async () => {
    for (const size of [0, 1, 1000, 1024 * 1024, 3 * 1024 * 1024 + 17]) {
      const bytes = randomBytes(size);
      const md5 = new Md5();
      for (let offset = 0; offset < size; offset += 65_537) {
        await md5.update(bytes.subarray(offset, offset + 65_537));
      }
      expect(await md5.digest(), `size ${size}`).toBe(reference(bytes));
    }
  });

  it('keeps many hashes apart', async () => {
    const inputs = Array.from({ length: 8 }, () => randomBytes(300_000));
    const hashers = inputs.map(() => new Md5());
    for (let offset = 0; offset < 300_000; offset += 50_000) {
      hashers.forEach((h, i) => void h.update(inputs[i]!.subarray(offset, offset + 50_000)));
    }
    expect(await Promise.all(hashers.map((h) => h.digest()))).toEqual(inputs.map(reference));
  });

  it('asks its caller to wait once the worker is behind, and lets it go on when it caught up', async () => {
    const md5 = new Md5();
    const chunk = randomBytes(1024 * 1024);
    let waited = 0;
    for (let i = 0; i < 64; i++) {
      const behind = md5.update(chunk);
      if (behind) {
        waited++;
        await behind;
      }
    }
    expect(waited).toBeGreaterThan(0);
    expect(await md5.digest()).toBe(
      reference(Buffer.concat(Array.from({ length: 64 }, () => chunk))),
    );
  });

  it('refuses a second digest and forgets a discarded hash', async () => {
    const md5 = new Md5();
    await md5.update(Buffer.from('abc'));
    expect(await md5.digest()).toBe(reference(Buffer.from('abc')));
    expect(() => md5.digest()).toThrow('MD5 already digested.');
    const dropped = new Md5();
    void dropped.update(randomBytes(2 * 1024 * 1024));
    dropped.discard();
    expect(await new Md5().digest()).toBe(reference(Buffer.alloc(0)));
  });

  it('hashes byte ranges of a file read by the worker, in order with bytes passed in', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-md5-'));
    try {
      // Larger than the worker's 4 MiB slice, and not a multiple of it.
      const file = randomBytes(9 * 1024 * 1024 + 5);
      const path = join(dir, 'data');
      await writeFile(path, file);
      const head = randomBytes(1000);

      const md5 = new Md5();
      await md5.update(head);
      await md5.updateFromFile(path, 7, file.length - 1);
      await md5.update(head);
      await md5.updateFromFile(path, 0, 0);
      // An empty range adds nothing.
      await md5.updateFromFile(path, 10, 9);

      expect(await md5.digest()).toBe(
        reference(Buffer.concat([head, file.subarray(7), head, file.subarray(0, 1)])),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails a file read with its error, and refuses other work on the hash meanwhile', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-md5-'));
    try {
      const path = join(dir, 'data');
      await writeFile(path, randomBytes(100));

      await expect(new Md5().updateFromFile(join(dir, 'absent'), 0, 9)).rejects.toMatchObject({
        code: 'ENOENT',
      });
      await expect(new Md5().updateFromFile(path, 50, 199)).rejects.toMatchObject({
        code: 'EOF',
      });
      const busy = new Md5();
      const reading = busy.updateFromFile(path, 0, 99);
      expect(() => busy.update(Buffer.from('x'))).toThrow('MD5 is still reading a file.');
      expect(() => busy.digest()).toThrow('MD5 is still reading a file.');
      await reading;
      expect(await busy.digest()).toHaveLength(32);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stops reading a file for a hash discarded meanwhile', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-md5-'));
    try {
      const path = join(dir, 'data');
      await writeFile(path, randomBytes(32 * 1024 * 1024));
      const md5 = new Md5();

      const reading = md5.updateFromFile(path, 0, 32 * 1024 * 1024 - 1);
      md5.discard();

      await expect(reading).resolves.toBeUndefined();
      // The worker goes on serving other hashes.
      expect(await new Md5().digest()).toBe(reference(Buffer.alloc(0)));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
