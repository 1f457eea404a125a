import { createHash, randomBytes } from 'node:crypto';

export const CHUNK_BYTES = 2 ** 20;

/**
 * The bytes of the uploads, made on the fly so that the client never holds a file on disk or in
 * memory: one random MiB, repeated, with the number of each MiB written into its first 8 bytes.
 * Every MiB thus differs from every other, so that parts stored at the wrong place, twice or not
 * at all change the MD5 of the whole.
 */
export class Payload {
  #seed = randomBytes(CHUNK_BYTES);

  /**
   * The MiB number `index`: a fresh Buffer, since the socket may still hold the previous ones.
   * @param {number} index
   */
  chunk(index) {
    const chunk = Buffer.from(this.#seed);
    chunk.writeBigUInt64LE(BigInt(index), 0);
    return chunk;
  }

  /**
   * The bytes from `start` (inclusive) to `end` (exclusive) of the endless stream, in chunks of at
   * most a MiB.
   * @param {number} start
   * @param {number} end
   * @returns {Generator<Buffer>}
   */
  *bytes(start, end) {
    for (let offset = start; offset < end;) {
      const index = Math.floor(offset / CHUNK_BYTES);
      const from = offset - index * CHUNK_BYTES;
      const to = Math.min(CHUNK_BYTES, end - index * CHUNK_BYTES);
      const chunk = this.chunk(index);
      yield from === 0 && to === CHUNK_BYTES ? chunk : chunk.subarray(from, to);
      offset += to - from;
    }
  }

  /**
   * MD5 (hex) of the first `length` bytes, for each of `lengths`, in one pass over the longest.
   * @param {number[]} lengths
   * @returns {Map<number, string>}
   */
  md5s(lengths) {
    const sorted = [...new Set(lengths)].sort((a, b) => a - b);
    const hash = createHash('md5');
    /** @type {Map<number, string>} */
    const digests = new Map();
    let offset = 0;
    for (const length of sorted) {
      for (const chunk of this.bytes(offset, length)) hash.update(chunk);
      offset = length;
      digests.set(length, hash.copy().digest('hex'));
    }
    return digests;
  }
}
