import { describe, expect, it } from 'vitest';
import { Md5, md5OfBlob, toBase64, toHex } from './md5';

const patterned = (size: number) =>
  Uint8Array.from({ length: size }, (_, i) => (i * 31 + 7) & 0xff);

describe('Md5', () => {
  it.each([
    ['', 'd41d8cd98f00b204e9800998ecf8427e'],
    ['a', '0cc175b9c0f1b6a831c399e269772661'],
    ['The quick brown fox jumps over the lazy dog', '9e107d9d372bb6826bd81d3542a419d6'],
  ])('hashes %j as RFC 1321 says', (text, hex) => {
    expect(toHex(new Md5().update(new TextEncoder().encode(text)).digest())).toBe(hex);
  });

  // Digests from Python's hashlib, around every padding boundary and over a megabyte.
  it.each([
    [55, 'yeUSYmYYyZgO8hqWWXr5TA=='],
    [56, '7N58qgjp9WV8hj3xB8rGCg=='],
    [57, 'sXsaAY3WpNHt2orKFfF4Rg=='],
    [63, 'LwMBBp4cQK9/bI+EOxsT8g=='],
    [64, 'tr+HwksbwzTiVBOHqSuYGw=='],
    [65, '8Wgkbwi2E01mvSoQND+p8Q=='],
    [119, '1dw9gmTeOqJN7hBZEO4n/g=='],
    [120, 'vME5s4SJI5BIYNHu/W5ZIw=='],
    [1_000_003, 'pksbMlb8/7z36BVZsYDW3Q=='],
  ])('hashes %d patterned bytes to the Content-MD5 %s', (size, base64) => {
    expect(toBase64(new Md5().update(patterned(size)).digest())).toBe(base64);
  });

  it('gives the same digest however the bytes are split', () => {
    const bytes = patterned(1_000_003);
    for (const step of [1, 63, 64, 65, 4096, 333_333]) {
      const hash = new Md5();
      for (let i = 0; i < bytes.length; i += step) hash.update(bytes.subarray(i, i + step));
      expect(toBase64(hash.digest())).toBe('pksbMlb8/7z36BVZsYDW3Q==');
    }
  });
});

describe('md5OfBlob', () => {
  it('hashes a Blob slice by slice, never asking for more than one slice at once', async () => {
    const blob = new Blob([patterned(1_000_003)]);
    const read: number[] = [];
    const slice = blob.slice.bind(blob);
    blob.slice = (start?: number, end?: number) => {
      const piece = slice(start, end);
      read.push(piece.size);
      return piece;
    };
    expect(toBase64(await md5OfBlob(blob, 65_537))).toBe('pksbMlb8/7z36BVZsYDW3Q==');
    expect(read).toHaveLength(Math.ceil(1_000_003 / 65_537));
    expect(Math.max(...read)).toBe(65_537);
  });

  it('hashes a 5 MiB part in 4 MiB slices to the digest Python gives', async () => {
    // The first 5 MiB part of the uploader tests' 6 MiB file (hashlib: bwn3Q5hDjiPRs6IpqVX6yw==).
    expect(toBase64(await md5OfBlob(new Blob([patterned(5 * 1024 * 1024)])))).toBe(
      'bwn3Q5hDjiPRs6IpqVX6yw==',
    );
  });

  it('hashes an empty Blob', async () => {
    expect(toHex(await md5OfBlob(new Blob([])))).toBe('d41d8cd98f00b204e9800998ecf8427e');
  });
});
