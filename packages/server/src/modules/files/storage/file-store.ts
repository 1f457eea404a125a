import type { Readable } from 'node:stream';

/** What a store reports for stored bytes: the count and their MD5 (hex). */
export interface StoredBytes {
  size: number;
  md5: string;
}

export interface StoredPart extends StoredBytes {
  part: number;
  /** The store's own identifier of the part (S3 ETag); local stores use the MD5. */
  etag: string;
}

/** What a store says of a part it just took: its MD5 only when it had to compute it anyway. */
export interface PartReceipt {
  part: number;
  size: number;
  md5?: string;
  etag?: string;
}

export interface PresignedPart {
  part: number;
  url: string;
  /** ISO 8601 with offset. */
  expiration: string;
}

export interface ByteRange {
  /** Inclusive first byte. */
  start: number;
  /** Inclusive last byte. */
  end: number;
}

/** Thrown by stores for the caller's mistakes (the files service maps `reason` to the contract). */
export class FileStoreError extends Error {
  constructor(
    readonly reason:
      | 'size-mismatch'
      | 'too-large'
      | 'checksum-mismatch'
      | 'missing-parts'
      | 'not-found'
      | 'aborted',
    message: string,
  ) {
    super(message);
    this.name = 'FileStoreError';
  }
}

/** Which page of a store's objects {@link FileStore.listObjects} lists. */
export interface ObjectListing {
  /** Ends in `/`. */
  prefix: string;
  /** The page starts after this key. */
  after?: string;
  /** Objects looked at, whether old enough or not. */
  limit: number;
  /** Only objects last written before this are listed. */
  olderThan: Date;
}

/**
 * Where file bytes live. Keys are opaque store paths chosen by the files service (never a user's
 * file name). Every write streams: no implementation may hold a whole file or part in memory.
 */
export interface FileStore {
  readonly kind: 'local' | 's3';

  /**
   * Streams `body` to `key`, hashing while it streams. Fails with 'too-large' as soon as more than
   * `maxSize` bytes arrive, with 'size-mismatch' when `expectedSize` is given and not met, and
   * with 'aborted' when the stream errors (a dropped connection). On any failure nothing is left
   * under `key`. The object appears under `key` only once complete (atomic).
   */
  put(
    key: string,
    body: Readable,
    options: { expectedSize?: number; maxSize: number },
  ): Promise<StoredBytes>;

  /** Starts a multipart upload of `size` bytes; returns the upload id. */
  createMultipart(
    key: string,
    options: { size: number; partSize: number; parts: number },
  ): Promise<string>;

  /**
   * Streams one part (1-based). `contentMd5` (base64), when given, is verified: on mismatch the
   * part is discarded and 'checksum-mismatch' thrown. 'size-mismatch' when the byte count is not
   * `expectedSize`. Re-sending a part replaces it. Without `contentMd5` a store may skip hashing
   * the part (its MD5 is then computed when `listParts` is asked).
   */
  putPart(
    key: string,
    uploadId: string,
    part: number,
    body: Readable,
    options: { expectedSize: number; contentMd5?: string },
  ): Promise<PartReceipt>;

  /**
   * Signed URLs through which a client sends parts straight to the store, or undefined when the
   * store has no such thing (local: parts go through the app server).
   */
  presignParts?(
    key: string,
    uploadId: string,
    parts: number[],
    expiresSeconds: number,
  ): Promise<PresignedPart[]>;

  /** The origin of the links `presignParts` makes, which browsers must be allowed to reach. */
  uploadOrigin?(): Promise<string>;

  /** The parts received so far, ascending (what a resuming client must not send again). */
  listParts(key: string, uploadId: string): Promise<StoredPart[]>;

  /**
   * Assembles the parts into the object at `key` and returns its size and whole-file MD5,
   * computed from the stored bytes. 'missing-parts' when any of 1..parts is absent.
   *
   * Sent again after it assembled the object (a commit cut off by a crash, or whose answer was
   * lost), it measures that object instead: the upload's own key holds nothing else. 'not-found'
   * when neither the upload nor the object exists.
   */
  completeMultipart(key: string, uploadId: string, parts: number): Promise<StoredBytes>;

  /** Abandons a multipart upload and frees its bytes; unknown uploads are not an error. */
  abortMultipart(key: string, uploadId: string): Promise<void>;

  /** Streams the object, or the inclusive range of it. 'not-found' when absent. */
  read(key: string, range?: ByteRange): Promise<Readable>;

  /** Removes the object; absent objects are not an error. */
  delete(key: string): Promise<void>;

  /**
   * A cheap check that the store can take and serve bytes now (readiness); throws when it cannot.
   * `signal` ends a probe that hangs.
   */
  probe(signal: AbortSignal): Promise<void>;

  /** Multipart uploads started before `olderThan` (for the sweep that frees abandoned bytes). */
  listStaleMultipart?(olderThan: Date): Promise<Array<{ key: string; uploadId: string }>>;

  /**
   * A page of the keys under `prefix` (ending in `/`), in key order after `after`, of objects
   * last written before `olderThan`; `next` is where the following page starts (absent at the
   * end). For the sweep that frees objects no row refers to (an upload killed between storing
   * and recording them): it lists only the files service's own prefix, never the whole bucket.
   */
  listObjects?(options: ObjectListing): Promise<{ keys: string[]; next?: string }>;

  /**
   * Removes the store's own temporary files last touched before `olderThan` that no write of
   * this process is using (a killed upload's); returns how many.
   */
  sweepTemporary?(olderThan: Date): Promise<number>;
}
