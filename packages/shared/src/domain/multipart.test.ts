import { describe, expect, it } from 'vitest';
import {
  MULTIPART_CHUNK_SIZES,
  MULTIPART_MAX_UPLOAD,
  chooseChunkSize,
  planTransfer,
} from './multipart.js';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const TiB = 1024 ** 4;

describe('multipart chunk rule', () => {
  it('has five candidates spaced on a log scale from 5 MiB to ≈524.29 MiB', () => {
    expect(MULTIPART_CHUNK_SIZES).toEqual([
      5 * MiB,
      16 * MiB,
      53_687_091,
      171_798_692,
      549_755_814,
    ]);
    const ratios = MULTIPART_CHUNK_SIZES.slice(1).map((s, i) => s / MULTIPART_CHUNK_SIZES[i]!);
    for (const ratio of ratios) expect(ratio).toBeCloseTo(3.2, 5);
  });

  it.each([
    [4 * MiB, 4 * MiB, 1],
    [6 * MiB, 6 * MiB, 1],
    [16 * MiB, 16 * MiB, 1],
    [20 * MiB, 16 * MiB, 2],
    // A 300 MB file is 18 parts, not two of 172 and 128 MB: a reload mid-way keeps most of it.
    [300e6, 16 * MiB, 18],
    [4 * GiB, 16 * MiB, 256],
    [10_000 * 16 * MiB, 16 * MiB, 10_000],
    // Larger parts only where 16 MiB would need more than 10,000 of them.
    [10_000 * 16 * MiB + 1, 53_687_091, 3126],
    [1 * TiB, 171_798_692, 6400],
    [4 * TiB, 549_755_814, 8000],
  ])('a file of %d bytes is sent in parts of %d bytes, %d of them', (size, chunk, parts) => {
    expect(chooseChunkSize(size)).toBe(chunk);
    expect(Math.ceil(size / chunk)).toBe(parts);
  });

  it('never needs more than 10,000 parts, and refuses what does not fit in them', () => {
    expect(Math.ceil(MULTIPART_MAX_UPLOAD / chooseChunkSize(MULTIPART_MAX_UPLOAD)!)).toBe(10_000);
    expect(chooseChunkSize(MULTIPART_MAX_UPLOAD + 1)).toBeUndefined();
  });

  it('gives an empty file a one-byte chunk so it is still one part', () => {
    expect(chooseChunkSize(0)).toBe(1);
    expect(planTransfer(0, true)).toEqual({ type: 'L' });
  });
});

describe('planTransfer', () => {
  it('sends a file that fits one chunk in one request', () => {
    expect(planTransfer(16 * MiB, true)).toEqual({ type: 'L' });
  });

  it('sends a larger file in parts when multipart is enabled', () => {
    expect(planTransfer(20 * MiB, true)).toEqual({ type: 'M', parts: 2, partSize: 16 * MiB });
  });

  it('sends everything in one request when only L is enabled', () => {
    expect(planTransfer(20 * MiB, false)).toEqual({ type: 'L' });
  });

  it('refuses a file larger than the largest multipart upload', () => {
    expect(planTransfer(6 * TiB, true)).toEqual({
      type: 'too-large',
      maxSize: MULTIPART_MAX_UPLOAD,
    });
  });
});
