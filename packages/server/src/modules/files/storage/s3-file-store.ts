import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
  type Part,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  FileStoreError,
  type ByteRange,
  type FileStore,
  type ObjectListing,
  type PresignedPart,
  type StoredBytes,
  type PartReceipt,
  type StoredPart,
} from './file-store.js';
import {
  MeteredBody,
  PartReader,
  assertByteRange,
  contentMd5ToHex,
  hexToContentMd5,
  partNumbers,
} from './store-support.js';
import { crashPoint } from '../../../lib/crash-points.js';

const MiB = 1024 * 1024;
/** Part size `put` uses once a body outgrows a single PutObject; also its memory bound. */
const PUT_PART_SIZE = 8 * MiB;
// S3 numbers parts from 1 to 10,000.
const MAX_PARTS = 10_000;
// SigV4 presigned URLs live at most seven days.
const MAX_PRESIGN_SECONDS = 7 * 24 * 60 * 60;

export interface S3FileStoreOptions {
  /** Omit for AWS itself; set for MinIO, Ceph, Garage, R2… */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key`; most non-AWS stores need it. */
  forcePathStyle?: boolean;
  /** The endpoint browsers reach, when it differs from the one the server uses (presigned URLs). */
  publicEndpoint?: string;
  /** Where the SDK's warnings go (the app's logger); the SDK writes some to the console otherwise. */
  logger?: S3ClientConfig['logger'];
}

/** The SDK's settings for the store's bucket, reached at `endpoint`. */
export function s3ClientConfig(
  options: S3FileStoreOptions,
  endpoint: string | undefined,
): S3ClientConfig {
  return {
    region: options.region,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    forcePathStyle: options.forcePathStyle ?? false,
    // Otherwise the SDK adds CRC32 checksums that presigned browser uploads cannot satisfy and
    // that several S3-compatible stores reject; integrity comes from Content-MD5 instead.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  };
}

/**
 * File bytes in an S3-compatible bucket, one object per key.
 *
 * `put` streams: bodies up to 8 MiB go up in one PutObject, larger ones as a multipart upload of
 * 8 MiB parts, so memory holds about one part per upload. Clients send multipart uploads either
 * straight to the bucket through presigned part URLs or through the app (`putPart`). S3's own
 * ETag of a multipart object is not an MD5, so completing an upload reads the object back once
 * to compute the whole-file MD5 the API promises.
 *
 * Whatever the app sends carries a Content-MD5 for S3 to verify. Uploads abandoned by a crash
 * stay invisible, never completed; `listStaleMultipart` finds them for the sweep (an
 * AbortIncompleteMultipartUpload lifecycle rule on the bucket is a good second net).
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3';
  readonly #bucket: string;
  // The SDK retries requests whose body is in memory, never streamed ones (`putPart`).
  readonly #client: S3Client;
  /** Signs URLs for the endpoint browsers reach. */
  readonly #presignClient: S3Client;

  constructor(options: S3FileStoreOptions) {
    this.#bucket = options.bucket;
    this.#client = new S3Client(s3ClientConfig(options, options.endpoint));
    this.#presignClient = new S3Client(
      s3ClientConfig(options, options.publicEndpoint ?? options.endpoint),
    );
  }

  async probe(signal: AbortSignal): Promise<void> {
    await this.#client.send(new HeadBucketCommand({ Bucket: this.#bucket }), {
      abortSignal: signal,
    });
  }

  /** Releases the clients' sockets (on shutdown). */
  close(): void {
    this.#client.destroy();
    this.#presignClient.destroy();
  }

  async put(
    key: string,
    body: Readable,
    options: { expectedSize?: number; maxSize: number },
  ): Promise<StoredBytes> {
    const metered = new MeteredBody(body, options);
    const chunks = metered[Symbol.asyncIterator]();
    const reader = new PartReader(chunks, PUT_PART_SIZE);
    let part = await reader.next();
    if (part.last) {
      await this.#client.send(
        new PutObjectCommand({
          Bucket: this.#bucket,
          Key: key,
          Body: part.bytes,
          ContentLength: part.bytes.length,
          ContentMD5: hexToContentMd5(await metered.md5()),
        }),
      );
      return { size: metered.size, md5: await metered.md5() };
    }

    const uploadId = await this.#createUpload(key);
    try {
      const completed: CompletedPart[] = [];
      for (let number = 1; ; number++) {
        const { ETag } = await this.#client.send(
          new UploadPartCommand({
            Bucket: this.#bucket,
            Key: key,
            UploadId: uploadId,
            PartNumber: number,
            Body: part.bytes,
            ContentLength: part.bytes.length,
            ContentMD5: createHash('md5').update(part.bytes).digest('base64'),
          }),
        );
        completed.push({ PartNumber: number, ETag });
        if (part.last) break;
        part = await reader.next();
      }
      await this.#client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.#bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: completed },
        }),
      );
    } catch (error) {
      // Stops reading the body (when S3 failed rather than the body) and frees the parts.
      await chunks.return();
      await this.#abortQuietly(key, uploadId);
      throw error;
    }
    return { size: metered.size, md5: await metered.md5() };
  }

  async createMultipart(
    key: string,
    // S3 itself enforces its part rules (at least 5 MiB but the last) when the upload completes;
    // the files service refuses layouts that break them before any byte is sent.
    _options: { size: number; partSize: number; parts: number },
  ): Promise<string> {
    return this.#createUpload(key);
  }

  async presignParts(
    key: string,
    uploadId: string,
    parts: number[],
    expiresSeconds: number,
  ): Promise<PresignedPart[]> {
    const expiresIn = Math.max(1, Math.min(Math.floor(expiresSeconds), MAX_PRESIGN_SECONDS));
    // SigV4 dates have whole seconds; signing at one makes the reported expiration exact.
    const signingDate = new Date(Math.floor(Date.now() / 1000) * 1000);
    const expiration = new Date(signingDate.getTime() + expiresIn * 1000)
      .toISOString()
      .replace('.000Z', '+00:00');
    return Promise.all(
      parts.map(async (part) => {
        assertPartNumber(part);
        const command = new UploadPartCommand({
          Bucket: this.#bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber: part,
        });
        const url = await getSignedUrl(this.#presignClient, command, { expiresIn, signingDate });
        return { part, url, expiration };
      }),
    );
  }

  /**
   * Where browsers send the parts: the origin of a part link, signed as `presignParts` signs
   * them (signing is local; nothing is sent). The pages' Content-Security-Policy allows it.
   */
  async uploadOrigin(): Promise<string> {
    const [signed] = await this.presignParts('origin-probe', 'origin-probe', [1], 60);
    return new URL(signed!.url).origin;
  }

  async putPart(
    key: string,
    uploadId: string,
    part: number,
    body: Readable,
    options: { expectedSize: number; contentMd5?: string },
  ): Promise<PartReceipt> {
    assertPartNumber(part);
    const { expectedSize, contentMd5 } = options;
    const metered = new MeteredBody(body, { maxSize: expectedSize, expectedSize });
    const source = Readable.from(metered, { objectMode: false });
    // The SDK pipes the body into the request, and a pipe does not carry errors: without this,
    // a short or failed body would leave the request waiting for bytes that never come.
    const abort = new AbortController();
    let failure: Error | undefined;
    source.once('error', (error: Error) => {
      failure = error;
      abort.abort(error);
    });
    let etag: string | undefined;
    try {
      const output = await this.#client.send(
        new UploadPartCommand({
          Bucket: this.#bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber: part,
          Body: source,
          ContentLength: expectedSize,
          ...(contentMd5 === undefined ? {} : { ContentMD5: contentMd5 }),
        }),
        { abortSignal: abort.signal },
      );
      etag = output.ETag;
    } catch (error) {
      if (failure !== undefined) throw failure;
      source.destroy();
      throw translate(error, key, uploadId);
    }
    const md5 = await metered.md5();
    // S3 has already refused a mismatch (BadDigest); this catches stores that ignore Content-MD5.
    if (contentMd5 !== undefined && contentMd5ToHex(contentMd5) !== md5) {
      throw new FileStoreError('checksum-mismatch', `Part ${part} does not match its Content-MD5.`);
    }
    return { part, size: metered.size, md5, etag: unquote(etag ?? md5) };
  }

  async listParts(key: string, uploadId: string): Promise<StoredPart[]> {
    const parts = await this.#listRawParts(key, uploadId);
    return parts.map((p) => {
      const etag = unquote(p.ETag ?? '');
      // For uploads without SSE-KMS / SSE-C, a part's ETag is the MD5 of its bytes.
      return { part: p.PartNumber ?? 0, size: p.Size ?? 0, md5: etag, etag };
    });
  }

  async completeMultipart(key: string, uploadId: string, parts: number): Promise<StoredBytes> {
    if (!Number.isSafeInteger(parts) || parts < 1)
      throw new RangeError(`Invalid part count ${parts}.`);
    let raw: Part[];
    try {
      raw = await this.#listRawParts(key, uploadId);
    } catch (error) {
      // Gone because it was completed (a commit cut off while measuring, or whose answer was
      // lost): the object under the upload's own key is what it made.
      if (!(error instanceof FileStoreError && error.reason === 'not-found')) throw error;
      return this.#measure(key).catch((missing: unknown) => {
        throw missing instanceof FileStoreError && missing.reason === 'not-found' ? error : missing;
      });
    }
    const listed = new Map(raw.map((p) => [p.PartNumber, p]));
    const missing = partNumbers(parts).filter((n) => !listed.has(n));
    if (missing.length > 0) {
      throw new FileStoreError('missing-parts', `Parts not received yet: ${missing.join(', ')}.`);
    }
    try {
      await this.#client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.#bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: {
            Parts: partNumbers(parts).map((n) => ({ PartNumber: n, ETag: listed.get(n)?.ETag })),
          },
        }),
      );
    } catch (error) {
      throw translate(error, key, uploadId);
    }
    crashPoint('store:moved-into-place');
    return this.#measure(key);
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    try {
      await this.#client.send(
        new AbortMultipartUploadCommand({ Bucket: this.#bucket, Key: key, UploadId: uploadId }),
      );
    } catch (error) {
      if (errorName(error) !== 'NoSuchUpload') throw error;
    }
  }

  async read(key: string, byteRange?: ByteRange): Promise<Readable> {
    if (byteRange) assertByteRange(byteRange);
    try {
      const output = await this.#client.send(
        new GetObjectCommand({
          Bucket: this.#bucket,
          Key: key,
          ...(byteRange ? { Range: `bytes=${byteRange.start}-${byteRange.end}` } : {}),
        }),
      );
      if (!(output.Body instanceof Readable)) throw new Error('GetObject returned no Node stream.');
      return output.Body;
    } catch (error) {
      throw translate(error, key);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: key }));
    } catch (error) {
      if (errorName(error) !== 'NoSuchKey') throw error;
    }
  }

  async listStaleMultipart(olderThan: Date): Promise<Array<{ key: string; uploadId: string }>> {
    const stale: Array<{ key: string; uploadId: string }> = [];
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      const page = await this.#client.send(
        new ListMultipartUploadsCommand({
          Bucket: this.#bucket,
          KeyMarker: keyMarker,
          UploadIdMarker: uploadIdMarker,
        }),
      );
      for (const upload of page.Uploads ?? []) {
        if (upload.Key && upload.UploadId && upload.Initiated && upload.Initiated < olderThan) {
          stale.push({ key: upload.Key, uploadId: upload.UploadId });
        }
      }
      if (!page.IsTruncated || (!page.NextKeyMarker && !page.NextUploadIdMarker)) return stale;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  async listObjects(options: ObjectListing): Promise<{ keys: string[]; next?: string }> {
    const page = await this.#client.send(
      new ListObjectsV2Command({
        Bucket: this.#bucket,
        Prefix: options.prefix,
        MaxKeys: Math.max(1, Math.min(options.limit, 1000)),
        ...(options.after ? { StartAfter: options.after } : {}),
      }),
    );
    const contents = page.Contents ?? [];
    const keys = contents.flatMap((o) =>
      o.Key && o.LastModified && o.LastModified < options.olderThan ? [o.Key] : [],
    );
    const last = contents[contents.length - 1]?.Key;
    return page.IsTruncated && last ? { keys, next: last } : { keys };
  }

  async #createUpload(key: string): Promise<string> {
    const { UploadId } = await this.#client.send(
      new CreateMultipartUploadCommand({ Bucket: this.#bucket, Key: key }),
    );
    if (!UploadId) throw new Error('CreateMultipartUpload returned no UploadId.');
    return UploadId;
  }

  /** Every part of the upload, ascending, ETags as S3 gave them (CompleteMultipartUpload wants them so). */
  async #listRawParts(key: string, uploadId: string): Promise<Part[]> {
    const parts: Part[] = [];
    let marker: string | undefined;
    for (;;) {
      let page;
      try {
        page = await this.#client.send(
          new ListPartsCommand({
            Bucket: this.#bucket,
            Key: key,
            UploadId: uploadId,
            PartNumberMarker: marker,
          }),
        );
      } catch (error) {
        throw translate(error, key, uploadId);
      }
      parts.push(...(page.Parts ?? []));
      if (!page.IsTruncated || !page.NextPartNumberMarker) break;
      marker = page.NextPartNumberMarker;
    }
    return parts.sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0));
  }

  /** Size and MD5 of the stored object, read back once. */
  async #measure(key: string): Promise<StoredBytes> {
    const hash = createHash('md5');
    let size = 0;
    for await (const chunk of await this.read(key)) {
      const bytes = chunk as Buffer;
      hash.update(bytes);
      size += bytes.length;
    }
    return { size, md5: hash.digest('hex') };
  }

  /**
   * Best effort: the upload was never completed, so nothing is visible under the key either way;
   * if this fails the stale-upload sweep frees the parts later.
   */
  async #abortQuietly(key: string, uploadId: string): Promise<void> {
    try {
      await this.abortMultipart(key, uploadId);
    } catch {
      // The caller's error is the one worth reporting.
    }
  }
}

/** The SDK's error name (S3's error code), if any. */
function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

/** S3's answers that are the caller's doing, as the store's own reasons; anything else as is. */
function translate(error: unknown, key: string, uploadId?: string): unknown {
  switch (errorName(error)) {
    case 'NoSuchKey':
    case 'NotFound':
      return new FileStoreError('not-found', `No object under ${key}.`);
    case 'NoSuchUpload':
      return new FileStoreError('not-found', `No multipart upload ${uploadId ?? ''} for this key.`);
    case 'BadDigest':
    case 'InvalidDigest':
      return new FileStoreError('checksum-mismatch', 'The bytes do not match their Content-MD5.');
    default:
      return error;
  }
}

function assertPartNumber(part: number): void {
  if (!Number.isSafeInteger(part) || part < 1 || part > MAX_PARTS) {
    throw new RangeError(`S3 part numbers run from 1 to ${MAX_PARTS}, not ${part}.`);
  }
}

function unquote(etag: string): string {
  return etag.replace(/"/g, '');
}
