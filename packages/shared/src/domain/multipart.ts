import {
  MULTIPART_CHUNK_CANDIDATES,
  MULTIPART_MAX_FILE_SIZE,
  MULTIPART_MAX_PART,
  MULTIPART_MAX_PARTS,
  MULTIPART_MIN_CHUNK,
  MULTIPART_PREFERRED_CHUNK,
} from '../limits.js';

/** How one file is sent: one request (`L`) or `parts` requests of `partSize` bytes (`M`). */
export type TransferPlan =
  | { type: 'L' }
  | { type: 'M'; parts: number; partSize: number }
  | { type: 'too-large'; maxSize: number };

/**
 * The largest part that still lets the biggest file fit in MULTIPART_MAX_PARTS parts: S3's 5 TiB
 * object over 10,000 parts, under S3's 5 GiB part limit (≈524.29 MiB).
 */
const LARGEST_CHUNK = Math.min(
  MULTIPART_MAX_PART,
  Math.ceil(MULTIPART_MAX_FILE_SIZE / MULTIPART_MAX_PARTS),
);

/**
 * The candidate part sizes: MULTIPART_CHUNK_CANDIDATES sizes evenly spaced on a log scale from
 * MULTIPART_MIN_CHUNK to the largest useful part (5 MiB, 16 MiB, ≈51.2 MiB, ≈163.84 MiB, ≈524.29
 * MiB), smallest first. Few sizes keep part counts predictable for resumption.
 */
export const MULTIPART_CHUNK_SIZES: readonly number[] = Object.freeze(
  Array.from({ length: MULTIPART_CHUNK_CANDIDATES }, (_, i) =>
    Math.round(
      MULTIPART_MIN_CHUNK *
        (LARGEST_CHUNK / MULTIPART_MIN_CHUNK) ** (i / (MULTIPART_CHUNK_CANDIDATES - 1)),
    ),
  ),
);

/** The largest file a multipart upload can carry with the largest part. */
export const MULTIPART_MAX_UPLOAD = LARGEST_CHUNK * MULTIPART_MAX_PARTS;

/**
 * The part size for a file of `size` bytes: the smallest candidate of at least
 * MULTIPART_PREFERRED_CHUNK that needs at most MULTIPART_MAX_PARTS parts, so a reload or a lost
 * connection costs at most the parts in flight, not a third of a large file. A file of at most
 * MULTIPART_PREFERRED_CHUNK is one part of its own size. Undefined when no candidate fits (the
 * file is larger than MULTIPART_MAX_UPLOAD).
 */
export function chooseChunkSize(size: number): number | undefined {
  if (size > MULTIPART_MAX_UPLOAD) return undefined;
  if (size <= MULTIPART_PREFERRED_CHUNK) return Math.max(size, 1);
  return MULTIPART_CHUNK_SIZES.find(
    (candidate) =>
      candidate >= MULTIPART_PREFERRED_CHUNK && Math.ceil(size / candidate) <= MULTIPART_MAX_PARTS,
  );
}

/**
 * How to send a file: one request when it fits one chunk or multipart is not enabled, else
 * multipart with {@link chooseChunkSize}'s parts. A file beyond what either can carry is
 * `too-large` (with the limit to tell the person).
 */
export function planTransfer(size: number, multipartEnabled: boolean): TransferPlan {
  const chunk = chooseChunkSize(size);
  if (chunk === undefined) {
    return multipartEnabled ? { type: 'too-large', maxSize: MULTIPART_MAX_UPLOAD } : { type: 'L' };
  }
  const parts = Math.max(1, Math.ceil(size / chunk));
  if (!multipartEnabled || parts === 1) return { type: 'L' };
  return { type: 'M', parts, partSize: chunk };
}
