/*
 * MD5 (RFC 1321), fed piece by piece. Web Crypto has no MD5, and S3 and Cairn check a part's
 * `Content-MD5`; a part may be hundreds of MiB, so it is hashed in slices rather than read into
 * memory whole. Written here rather than pulled in (hash-wasm needs `wasm-unsafe-eval` in the CSP,
 * as InvenioRDM's uploader found).
 */

const SHIFTS = [
  7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14,
  20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6,
  10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
];

const K = Int32Array.from({ length: 64 }, (_, i) =>
  Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32),
);

/** How much of a Blob is read at once by {@link md5OfBlob}. */
export const MD5_SLICE = 4 * 1024 * 1024;

export class Md5 {
  readonly #state = Int32Array.of(0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476);
  readonly #words = new Int32Array(16);
  /** The bytes of an unfinished 64-byte block, carried to the next update. */
  readonly #pending = new Uint8Array(64);
  #pendingLength = 0;
  #length = 0;

  update(bytes: Uint8Array): this {
    this.#length += bytes.length;
    let offset = 0;
    if (this.#pendingLength > 0) {
      const taken = Math.min(64 - this.#pendingLength, bytes.length);
      this.#pending.set(bytes.subarray(0, taken), this.#pendingLength);
      this.#pendingLength += taken;
      offset = taken;
      if (this.#pendingLength < 64) return this;
      this.#block(new DataView(this.#pending.buffer), 0);
      this.#pendingLength = 0;
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (; offset + 64 <= bytes.length; offset += 64) this.#block(view, offset);
    this.#pending.set(bytes.subarray(offset));
    this.#pendingLength = bytes.length - offset;
    return this;
  }

  /** The 16-byte digest; the hash is finished afterwards. */
  digest(): Uint8Array {
    // A 1 bit, zeros up to 56 mod 64, then the bit length as 64-bit little endian.
    const length = this.#length;
    const padding = new Uint8Array((this.#pendingLength < 56 ? 56 : 120) - this.#pendingLength + 8);
    padding[0] = 0x80;
    const tail = new DataView(padding.buffer);
    tail.setUint32(padding.length - 8, (length * 8) >>> 0, true);
    tail.setUint32(padding.length - 4, Math.floor(length / 0x20000000), true);
    this.update(padding);
    const digest = new Uint8Array(16);
    const out = new DataView(digest.buffer);
    this.#state.forEach((word, i) => out.setInt32(i * 4, word, true));
    return digest;
  }

  #block(view: DataView, offset: number): void {
    const m = this.#words;
    for (let i = 0; i < 16; i++) m[i] = view.getInt32(offset + i * 4, true);
    const state = this.#state;
    let a = state[0]!;
    let b = state[1]!;
    let c = state[2]!;
    let d = state[3]!;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) & 15;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) & 15;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) & 15;
      }
      const sum = (a + f + K[i]! + m[g]!) | 0;
      const s = SHIFTS[i]!;
      a = d;
      d = c;
      c = b;
      b = (b + ((sum << s) | (sum >>> (32 - s)))) | 0;
    }
    state[0] = (state[0]! + a) | 0;
    state[1] = (state[1]! + b) | 0;
    state[2] = (state[2]! + c) | 0;
    state[3] = (state[3]! + d) | 0;
  }
}

/** The MD5 of a Blob, read `sliceSize` bytes at a time. */
export async function md5OfBlob(blob: Blob, sliceSize = MD5_SLICE): Promise<Uint8Array> {
  const hash = new Md5();
  for (let start = 0; start < blob.size; start += sliceSize)
    hash.update(new Uint8Array(await blob.slice(start, start + sliceSize).arrayBuffer()));
  return hash.digest();
}

export function toHex(digest: Uint8Array): string {
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function toBase64(digest: Uint8Array): string {
  return btoa(String.fromCharCode(...digest));
}
