import { createHash, randomBytes } from 'node:crypto';
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
});
