import { MULTIPART_MAX_PART, FilesUploadResultSchema } from '@cairn/shared';
import AwsS3, { type AwsS3Part, type AwsS3UploadParameters } from '@uppy/aws-s3';
import Uppy, { type Body, type Meta, type UppyFile } from '@uppy/core';
import { ApiError, readCookie, toRequestPath } from '../../../api/client';
import {
  deleteFile,
  FileItemSchema,
  ReceivedPartsSchema,
  type FileItem,
  type PartLink,
} from './files-api';
import { md5OfBlob, toBase64, toHex } from './md5';
import { fingerprintOf, resumeKey } from './resume-store';
import { UploadRequestError } from './transport';
import type { EngineSettings, UploadEngine, UploadJob } from './upload-contract';

interface Upload {
  job: UploadJob;
  /** Uppy's id of the file, once it was handed over. */
  fileId?: string;
  /** The entry on the server with its links, once announced or found again. */
  item?: FileItem;
  committed?: FileItem;
  /** The URL of the content PUT that commits it too, while that may be sent. */
  committingUrl?: string;
  /** Content-MD5 of each part, computed once however often the part is tried. */
  digests: Map<number, string>;
  fingerprint?: Promise<string>;
  /** Size of each part the server holds whole, by part number. */
  safe: Map<number, number>;
  refreshing?: Promise<void>;
  /** Files given to Uppy together, announced in one init when the first of them starts. */
  group?: InitGroup;
  /** Announced by a batch (see sendBatch): Uppy, if it gets the file, must not announce it. */
  announcedByBatch?: boolean;
  /** Order of arrival, so that batches and Uppy take the files in turn as they came. */
  arrival: number;
  /** The deletion of the entry the server holds for it, once asked for (once only). */
  discarding?: Promise<void>;
  cancelled: boolean;
  settled: boolean;
  resolve: (item: FileItem) => void;
  reject: (error: unknown) => void;
}

interface InitGroup {
  uploads: Upload[];
  /** The entries the server created, by normalised key; undefined when it refused the batch. */
  announced?: Promise<Map<string, FileItem> | undefined>;
}

/** A commit the server says is in progress is sent again every 3 s, for up to two minutes. */
const COMMIT_WAIT_MS = 3000;
const COMMIT_ATTEMPTS = 40;

const quietLogger = { debug: () => undefined, warn: () => undefined, error: () => undefined };

const cancelled = () => new UploadRequestError('aborted', 'Upload cancelled.');

/**
 * The deposit form's uploads: Uppy core with @uppy/aws-s3 5, its callbacks speaking Cairn's
 * files API (InvenioRDM's: init with transfer `L` or `M`, part links, commit). Every file takes
 * the plugin's multipart path, so even a one-chunk file is init, one PUT of its content, commit.
 * Uppy queues all requests under one limit, tries parts again after the retry delays, re-signs
 * each attempt and resumes from `s3Multipart` through `listParts`; the callbacks add Content-MD5
 * per part, fresh links from the file's self link when a link expired or a storage refused it,
 * the CSRF token on Cairn's own origin only, and the resume store.
 */
export function createUploadEngine(settings: EngineSettings): UploadEngine {
  const { api } = settings;
  const now = settings.now ?? Date.now;
  const active = new Set<Upload>();
  /** The active uploads by Uppy's id of their file: Uppy's events name the file by its id. */
  const byFileId = new Map<string, Upload>();
  /** Uploads ready for Uppy, in the order they became ready (see {@link handOver}). */
  let ready: Array<{ upload: Upload; data: Blob; resumeFrom: string | undefined }> = [];
  const windowSize = uppyWindow(settings.concurrency);
  let refillQueued = false;
  /** Uppy's id of each file it was given, by the Blob it was given. */
  const fileIds = new WeakMap<object, string>();
  /** Files given to Uppy as they are, once each (see start). */
  const givenWhole = new WeakSet<File>();
  /** Multipart files' part size, by the Blob Uppy was given; the rest go in one piece. */
  const partSizes = new WeakMap<object, number>();
  /** Uploads whose content PUT commits them too (`?commit=true`), by the URL it goes to. */
  const committingPuts = new Map<string, Upload>();
  /** Storage URLs that answered 403: the next attempt asks for fresh links. */
  const refused = new Set<string>();
  let sequence = 0;
  let arrivals = 0;
  /** Small files waiting for a batch (see sendBatch), in the order they became ready. */
  let small: Upload[] = [];
  let batchesInFlight = 0;
  /** Ends the batches' requests when the engine stops. */
  const batchesAbort = new AbortController();

  const uppy = new Uppy<Meta, Body>({
    logger: quietLogger,
    // Uppy's own id lower-cases the name; Cairn's keys are case-sensitive.
    onBeforeFileAdded: (file) => {
      const id = `${file.id}-${++sequence}`;
      if (file.data) fileIds.set(file.data, id);
      return { ...file, id };
    },
  });

  function find(fileId: string): Upload | undefined {
    return byFileId.get(fileId);
  }

  function drop(upload: Upload) {
    active.delete(upload);
    if (upload.fileId !== undefined) byFileId.delete(upload.fileId);
    // The same key uploaded again has the same URL: only this upload's own mapping goes.
    const url = upload.committingUrl;
    if (url !== undefined && committingPuts.get(url) === upload) committingPuts.delete(url);
  }

  function uploadOf(file: { id: string }): Upload {
    const upload = find(file.id);
    if (!upload) throw new Error(`No upload for ${file.id}.`);
    return upload;
  }

  function settle(upload: Upload, outcome: () => void) {
    if (upload.settled) return;
    upload.settled = true;
    if (!upload.cancelled) drop(upload);
    outcome();
  }

  /**
   * Takes the file out of Uppy: a finished or failed one so that a later upload() does not take
   * it up again; a cancelled one so that Uppy aborts its requests and calls abortMultipartUpload.
   */
  function release(upload: Upload) {
    if (upload.fileId !== undefined && uppy.getFile(upload.fileId)) uppy.removeFile(upload.fileId);
  }

  const storeKeyOf = ({ job }: Upload) => resumeKey(job.draftId, job.key, job.file.size);
  const fingerprint = (upload: Upload) => (upload.fingerprint ??= fingerprintOf(upload.job.file));

  function partBlob({ job }: Upload, part: number): Blob {
    const size = job.plan.type === 'M' ? job.plan.partSize : job.file.size;
    return job.file.slice((part - 1) * size, Math.min(part * size, job.file.size));
  }

  async function readItem(url: string): Promise<FileItem> {
    return FileItemSchema.parse(await api.get(url));
  }

  /**
   * A cancelled upload leaves no pending file behind to block publishing (unlike InvenioRDM).
   * Once per upload: a cancel and the announcement it raced may both ask.
   */
  function discard(upload: Upload, self: string): Promise<void> {
    upload.discarding ??= (async () => {
      try {
        await deleteFile(api, self);
        upload.job.onDeleted?.();
      } catch (error) {
        console.error(error);
      } finally {
        drop(upload);
      }
    })();
    return upload.discarding;
  }

  const initEntryOf = ({ job }: Upload) => ({
    key: job.key,
    size: job.file.size,
    transfer:
      job.plan.type === 'L'
        ? { type: 'L' }
        : { type: 'M', parts: job.plan.parts, part_size: job.plan.partSize },
  });

  /**
   * The group's entries, announced in one POST by whichever of its files Uppy starts first: one
   * init per file would be a third of the requests of a folder of small files, each answered
   * with the whole listing while the draft holds up to a thousand. A batch the server refuses
   * (one name taken, the quota) leaves each file to announce itself and hear its own reason.
   */
  function announceGroup(group: InitGroup): Promise<Map<string, FileItem> | undefined> {
    group.announced ??= (async () => {
      const uploads = group.uploads.filter((upload) => !upload.settled);
      if (uploads.length === 0) return undefined;
      try {
        const body = await api.post(uploads[0]!.job.filesLink, uploads.map(initEntryOf));
        const entries = entriesByKey(body);
        const items = new Map<string, FileItem>();
        for (const upload of uploads) {
          const item = entryNamed(entries, upload.job.key);
          items.set(upload.job.key.normalize('NFC'), item);
          // Cancelled while the batch was on its way: its entry must not stay behind.
          if (upload.cancelled && item.links.self) void discard(upload, item.links.self);
        }
        return items;
      } catch {
        return undefined;
      }
    })();
    return group.announced;
  }

  // ---- @uppy/aws-s3's callbacks

  async function createMultipartUpload(upload: Upload) {
    const { job } = upload;
    if (job.plan.type === 'M' && job.plan.partSize > MULTIPART_MAX_PART)
      throw new UploadRequestError('http', 'Part too large.', { reason: 'exceedsSize' });
    // An interrupted upload that cannot be resumed starts again from nothing.
    const stale = job.existing?.links.self;
    if (stale) await deleteFile(api, stale);
    const announced = upload.group && (await announceGroup(upload.group));
    const item =
      (upload.announcedByBatch ? upload.item : undefined) ??
      announced?.get(job.key.normalize('NFC')) ??
      entryNamed(entriesByKey(await api.post(job.filesLink, [initEntryOf(upload)])), job.key);
    const self = item.links.self;
    if (!self) throw new UploadRequestError('http', 'Upload failed');
    upload.item = item;
    // Cancelled while the server was creating it: Uppy has let go of the file by now.
    if (upload.cancelled) {
      await discard(upload, self);
      throw cancelled();
    }
    job.onCreated(item);
    if (job.plan.type === 'M') {
      settings.resumeStore.put(storeKeyOf(upload), {
        self,
        parts: job.plan.parts,
        partSize: job.plan.partSize,
        fingerprint: await fingerprint(upload),
        lastModified: job.file.lastModified,
        savedAt: new Date(now()).toISOString(),
      });
    }
    return { uploadId: self, key: job.key };
  }

  /** Cairn's parts listing: only parts whose size and MD5 match the local bytes count. */
  async function listParts(upload: Upload, self: string): Promise<AwsS3Part[]> {
    const listing = ReceivedPartsSchema.parse(await api.get(`${self}/parts`));
    const kept: AwsS3Part[] = [];
    for (const part of listing.received) {
      const local = partBlob(upload, part.part);
      if (part.size !== local.size) continue;
      if (toHex(await md5OfBlob(local)) !== part.checksum.replace(/^md5:/, '')) continue;
      kept.push({ PartNumber: part.part, Size: part.size, ETag: part.checksum });
      upload.safe.set(part.part, part.size);
    }
    upload.job.onResumed?.(kept.length);
    upload.job.onProgress(percentOf(safeBytes(upload), upload.job.file.size));
    upload.job.onSafe?.(safeBytes(upload));
    return kept;
  }

  async function refreshLinks(upload: Upload): Promise<void> {
    const self = upload.item?.links.self;
    if (!self) return;
    upload.refreshing ??= readItem(self)
      .then((fresh) => {
        upload.item = fresh;
      })
      .finally(() => {
        upload.refreshing = undefined;
      });
    await upload.refreshing;
  }

  async function linkOf(upload: Upload, part: number): Promise<string> {
    if (upload.job.plan.type === 'L') {
      const content = upload.item?.links.content;
      if (!content) throw new UploadRequestError('http', 'Upload failed');
      return content;
    }
    const find = () => upload.item?.links.parts?.find((p) => p.part === part);
    let link = find();
    // An expired signed URL is replaced by re-reading the file's self link.
    if (!link || isExpired(link, now()) || refused.has(link.url)) {
      await refreshLinks(upload);
      link = find();
    }
    if (!link)
      throw new UploadRequestError('http', `No link for part ${part}.`, {
        reason: 'invalidPartNumber',
      });
    return link.url;
  }

  /** What a request to Cairn's own origin carries (never a storage's): JSON, the CSRF token. */
  function ownOriginHeaders(headers: Record<string, string>): Record<string, string> {
    headers.Accept = 'application/json';
    const token = readCookie(settings.csrf.csrfCookieName);
    if (token !== undefined) headers[settings.csrf.csrfHeaderName] = token;
    return headers;
  }

  /** Called before every attempt of a part, so each attempt gets a link that is still good. */
  async function signPart(upload: Upload, part: number, body: Blob) {
    const url = await linkOf(upload, part);
    const headers: Record<string, string> = {};
    if (upload.job.plan.type === 'M') {
      let digest = upload.digests.get(part);
      if (digest === undefined) {
        digest = toBase64(await md5OfBlob(body));
        upload.digests.set(part, digest);
      }
      headers['Content-MD5'] = digest;
    }
    const origin = new URL(upload.job.filesLink, window.location.href).origin;
    if (new URL(url, window.location.href).origin !== origin) {
      const expires = expiresOf(url);
      return {
        method: 'PUT',
        url,
        headers,
        ...(expires === undefined ? {} : { expires }),
      } as const;
    }
    ownOriginHeaders(headers);
    if (upload.job.plan.type === 'M')
      return { method: 'PUT', url: toRequestPath(url), headers } as const;
    // A file in one piece is committed by the PUT of its content (a Cairn extension): one
    // request a file instead of two, which is half the cost of a folder of small files.
    const path = toRequestPath(url);
    const committing = `${path}${path.includes('?') ? '&' : '?'}commit=true`;
    committingPuts.set(committing, upload);
    upload.committingUrl = committing;
    return { method: 'PUT', url: committing, headers } as const;
  }

  /** Takes the committed entry a content PUT with `?commit=true` answered, when it did. */
  function takeCommitted(url: string, text: string | undefined) {
    const upload = committingPuts.get(url);
    if (!upload) return;
    committingPuts.delete(url);
    try {
      const item = FileItemSchema.parse(JSON.parse(text ?? ''));
      if (item.status === 'completed') upload.committed = item;
    } catch {
      // No entry in the answer: the commit that follows asks for it.
    }
  }

  /**
   * Whether a content PUT with `?commit=true` that failed still leaves the upload done or nearly:
   * an attempt whose answer was lost may have committed the file (the next is then refused), or
   * be committing it still (409), which the contract's commit then waits for.
   */
  async function settledDespite(url: string, failure: unknown): Promise<boolean> {
    const upload = committingPuts.get(url);
    if (!upload || !(failure instanceof UploadRequestError) || failure.kind !== 'http')
      return false;
    if (failure.status === 409) {
      committingPuts.delete(url);
      return true;
    }
    const self = upload.item?.links.self;
    const current = self ? await readItem(self).catch(() => undefined) : undefined;
    if (current?.status !== 'completed') return false;
    committingPuts.delete(url);
    upload.committed = current;
    return true;
  }

  async function uploadPartBytes(
    signature: AwsS3UploadParameters,
    body: Blob,
    onProgress: (event: { loaded: number; lengthComputable: true }) => void,
    onComplete: (etag: string | undefined) => void,
    signal: AbortSignal | undefined,
  ) {
    try {
      const { etag, text } = await settings.sendBytes({
        url: signature.url,
        headers: signature.headers ?? {},
        body,
        stallMs: settings.stallMs,
        ...(signature.expires === undefined ? {} : { timeoutMs: signature.expires * 1000 }),
        ...(signal ? { signal } : {}),
        onProgress: (loaded) => onProgress({ loaded, lengthComputable: true }),
      });
      takeCommitted(signature.url, text);
      onProgress({ loaded: body.size, lengthComputable: true });
      onComplete(etag);
      return { ETag: etag ?? '' };
    } catch (error) {
      if (await settledDespite(signature.url, error)) {
        onProgress({ loaded: body.size, lengthComputable: true });
        onComplete(undefined);
        return { ETag: '' };
      }
      // A storage URL refused with 403 has most likely expired: the next attempt re-signs.
      const foreign =
        new URL(signature.url, window.location.href).origin !== window.location.origin;
      if (error instanceof UploadRequestError && error.status === 403 && foreign) {
        refused.add(signature.url);
        throw new UploadRequestError('http', error.message, {
          status: 403,
          reason: 'signedUrlExpired',
        });
      }
      throw error;
    }
  }

  /**
   * Sends the commit, and again while another commit of the file holds it (409): one cut off by
   * a crash is taken over once its lease runs out, a running one ends by itself.
   */
  async function commitOnceFree(link: string): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await api.post(link);
      } catch (error) {
        const busy = error instanceof ApiError && error.code === 'CONFLICT';
        if (!busy || attempt >= COMMIT_ATTEMPTS) throw error;
        await new Promise((resolve) =>
          setTimeout(resolve, settings.commitWaitMs ?? COMMIT_WAIT_MS),
        );
      }
    }
  }

  async function completeMultipartUpload(upload: Upload) {
    // Committed by its content PUT already.
    if (upload.committed) return {};
    const link = upload.item?.links.commit;
    const self = upload.item?.links.self;
    if (!link) throw new UploadRequestError('http', 'Upload failed');
    try {
      upload.committed = FileItemSchema.parse(await commitOnceFree(link));
    } catch (error) {
      // A commit whose answer was lost may still have happened.
      const current = self ? await readItem(self).catch(() => undefined) : undefined;
      if (current?.status !== 'completed') throw error;
      upload.committed = current;
    }
    settings.resumeStore.remove(storeKeyOf(upload));
    return {};
  }

  uppy.use(AwsS3<Meta, Body>, {
    limit: settings.concurrency,
    retryDelays: [...settings.retryDelaysMs],
    shouldUseMultipart: true,
    getChunkSize: (data) => partSizes.get(data) ?? data.size,
    createMultipartUpload: (file) => createMultipartUpload(uploadOf(file)),
    listParts: (file, { uploadId }) => listParts(uploadOf(file), uploadId!),
    signPart: (file, { partNumber, body }) => signPart(uploadOf(file), partNumber, body),
    uploadPartBytes: ({ signature, body, onProgress, onComplete, signal }) =>
      uploadPartBytes(
        signature,
        body as Blob,
        onProgress as (event: { loaded: number; lengthComputable: true }) => void,
        onComplete as (etag: string | undefined) => void,
        signal,
      ),
    completeMultipartUpload: (file) => completeMultipartUpload(uploadOf(file)),
    // Uppy calls this when a file is removed (and after a failure); only a cancel deletes.
    abortMultipartUpload: async (file, { uploadId }) => {
      const upload = find(file.id);
      if (upload?.cancelled && uploadId) await discard(upload, uploadId);
    },
  });

  uppy.on('upload-progress', (file, progress) => {
    const upload = file && find(file.id);
    if (!upload || upload.settled) return;
    const loaded = progress.bytesUploaded || 0;
    upload.job.onProgress(percentOf(loaded, progress.bytesTotal ?? upload.job.file.size));
  });
  uppy.on('s3-multipart:part-uploaded', (file, part) => {
    const upload = file && find(file.id);
    if (!upload || upload.settled || upload.job.plan.type !== 'M') return;
    upload.safe.set(part.PartNumber, partBlob(upload, part.PartNumber).size);
    upload.job.onSafe?.(safeBytes(upload));
  });
  uppy.on('upload-success', (file) => {
    const upload = file && find(file.id);
    if (!upload) return;
    settle(upload, () =>
      upload.committed
        ? upload.resolve(upload.committed)
        : upload.reject(new UploadRequestError('http', 'Upload failed')),
    );
    release(upload);
  });
  uppy.on('upload-error', (file, error) => {
    const upload = file && find(file.id);
    if (!upload) return;
    settle(upload, () => upload.reject(error));
    release(upload);
  });
  uppy.on('file-removed', (file) => {
    const upload = find(file.id);
    if (upload) settle(upload, () => upload.reject(cancelled()));
    refillSoon();
  });

  /**
   * Finds a remembered multipart upload of this file that the server still holds. A file of the
   * same name and size that is not the one whose upload was interrupted (another modification
   * time, other bytes where the fingerprint looks) is refused: its parts would be mixed with
   * the other file's.
   */
  async function resumable(upload: Upload): Promise<string | undefined> {
    const { job } = upload;
    if (job.plan.type !== 'M') return undefined;
    const key = storeKeyOf(upload);
    const saved = settings.resumeStore.get(key);
    if (!saved || saved.parts !== job.plan.parts || saved.partSize !== job.plan.partSize)
      return undefined;
    const same =
      (saved.lastModified === undefined || saved.lastModified === job.file.lastModified) &&
      saved.fingerprint === (await fingerprint(upload));
    let item: FileItem | undefined;
    try {
      item = await readItem(saved.self);
    } catch {
      item = undefined;
    }
    if (!item || item.status === 'completed') {
      // The upload is gone (deleted, committed, swept): begin again.
      settings.resumeStore.remove(key);
      return undefined;
    }
    if (!same)
      throw new UploadRequestError('http', 'Not the file whose upload was interrupted.', {
        reason: 'differentFile',
      });
    upload.item = item;
    return saved.self;
  }

  async function start(upload: Upload): Promise<void> {
    const { job } = upload;
    const resumeFrom = await resumable(upload);
    if (upload.settled) {
      if (upload.cancelled && upload.item?.links.self)
        await discard(upload, upload.item.links.self);
      return;
    }
    if (upload.item) job.onCreated(upload.item);
    if (batchable(upload, resumeFrom)) {
      small.push(upload);
      refillSoon();
      return;
    }
    toUppy(upload, resumeFrom);
  }

  function toUppy(upload: Upload, resumeFrom?: string) {
    const { job } = upload;
    // Uppy keeps what it learnt of an upload by the Blob it was given, for good: each upload
    // needs a Blob no other upload had. A file in one piece goes as the File itself the first
    // time, since Chromium sends a File at about half the cost of a slice of it (a folder of
    // small files pays that per file); a multipart file's Blob also tells Uppy its part size.
    let data: Blob = job.file;
    if (job.plan.type === 'M' || givenWhole.has(job.file)) {
      data = job.file.slice(0, job.file.size, job.file.type);
      if (job.plan.type === 'M') partSizes.set(data, job.plan.partSize);
    } else givenWhole.add(job.file);
    handOver({ upload, data, resumeFrom });
  }

  /**
   * Uppy is given a window of files at a time, each window in one `addFiles` and one `upload()`,
   * once the microtasks that made files ready have run (the uploader starts every file of a
   * choice in the same task); once half the window is done, the next half goes. Uppy copies its whole
   * table of files on every change to one file's state, and each `upload()` looks at every file
   * it holds: ten thousand files given at once, or one call per file, cost hours.
   */
  function handOver(entry: (typeof ready)[number]) {
    ready.push(entry);
    refillSoon();
  }

  function refillSoon() {
    if (refillQueued || (ready.length === 0 && small.length === 0)) return;
    refillQueued = true;
    queueMicrotask(refill);
  }

  function refill() {
    refillQueued = false;
    // Batches and Uppy take turns, in the order the files came, so that together they keep to
    // the concurrency: Uppy's own limit knows nothing of the batches' requests.
    small = small.filter((upload) => !upload.settled);
    // A small file on its own gains nothing from a form: it goes as InvenioRDM's clients send it.
    if (batchesInFlight === 0 && small.length === 1) toUppy(small.shift()!);
    const batchFirst =
      small.length > 0 && (ready.length === 0 || small[0]!.arrival < ready[0]!.upload.arrival);
    if (batchesInFlight > 0 || batchFirst) {
      if (uppy.getFiles().length === 0) startBatches();
      return;
    }
    const room = windowSize - uppy.getFiles().length;
    // Half a window at a time, so that its files are announced together (see announceGroup).
    if (room <= 0 || room < Math.min(windowSize / 2, ready.length)) return;
    const batch: typeof ready = [];
    let taken = 0;
    for (; taken < ready.length && batch.length < room; taken++) {
      const entry = ready[taken]!;
      const { upload } = entry;
      if (!upload.settled) batch.push(entry);
      // Cancelled while waiting for its turn: a resumed upload's entry is deleted, as in start().
      else if (upload.cancelled && upload.item?.links.self)
        void discard(upload, upload.item.links.self);
    }
    ready = ready.slice(taken);
    if (batch.length === 0) return;
    const group: InitGroup = {
      uploads: batch
        .map(({ upload }) => upload)
        .filter((upload) => !upload.item && !upload.job.existing),
    };
    if (group.uploads.length > 1) for (const upload of group.uploads) upload.group = group;
    uppy.addFiles(
      batch.map(({ upload, data }) => ({ name: upload.job.key, type: upload.job.file.type, data })),
    );
    for (const { upload, data, resumeFrom } of batch) {
      const fileId = fileIds.get(data);
      if (fileId === undefined) continue;
      upload.fileId = fileId;
      byFileId.set(fileId, upload);
      if (resumeFrom) {
        // @uppy/aws-s3 resumes a file that carries its upload id: listParts, then the rest.
        const restored = { s3Multipart: { uploadId: resumeFrom, key: upload.job.key } };
        uppy.setFileState(fileId, restored as Partial<UppyFile<Meta, Body>>);
      }
    }
    uppy.upload().catch((error: unknown) => {
      for (const { upload } of batch) {
        settle(upload, () => upload.reject(error));
        release(upload);
      }
    });
  }

  // ---- batches of small files

  function batchable(upload: Upload, resumeFrom: string | undefined): boolean {
    const limits = settings.batch;
    const { job } = upload;
    return (
      limits !== undefined &&
      job.plan.type === 'L' &&
      job.file.size <= limits.fileBytes &&
      resumeFrom === undefined &&
      !job.existing &&
      !upload.item
    );
  }

  /** Sends batches of the small files waiting, up to the concurrency. */
  function startBatches() {
    const limits = settings.batch!;
    while (batchesInFlight < settings.concurrency && small.length > 0) {
      const batch: Upload[] = [];
      let bytes = 0;
      while (small.length > 0 && batch.length < limits.files) {
        const next = small[0]!;
        if (batch.length > 0 && bytes + next.job.file.size > limits.bytes) break;
        small.shift();
        if (next.settled) continue;
        batch.push(next);
        bytes += next.job.file.size;
      }
      if (batch.length === 0) continue;
      batchesInFlight++;
      void sendBatch(batch).finally(() => {
        batchesInFlight--;
        refillSoon();
      });
    }
  }

  /** Files a batch did not settle go to Uppy one by one, which tries again and tells each why. */
  function alone(uploads: Upload[]) {
    for (const upload of uploads) if (!upload.settled) toUppy(upload);
  }

  /**
   * A batch of small files: announced in one init, then their contents in one form POSTed to
   * `…/draft/files-upload` (a Cairn extension), which stores and commits each and answers which
   * were committed and why the others were not. A folder of small files through Uppy costs a
   * request a file, and a browser spends more time on each request than on its few bytes: it
   * held uploads to about 60 files a second. Whatever the batch does not settle (the request
   * failed, a file was busy) goes through Uppy's path alone, which reads back a file whose
   * commit happened before the answer was lost.
   */
  async function sendBatch(uploads: Upload[]): Promise<void> {
    const live = uploads.filter((upload) => !upload.settled);
    if (live.length === 0) return;
    const filesLink = live[0]!.job.filesLink;
    let entries: Map<string, unknown>;
    try {
      entries = entriesByKey(await api.post(filesLink, live.map(initEntryOf)));
    } catch {
      // A name taken, the quota: each file announces itself and hears its own reason.
      return alone(live);
    }
    const sending: Upload[] = [];
    for (const upload of live) {
      const raw = entries.get(upload.job.key.normalize('NFC'));
      const item = raw ? FileItemSchema.safeParse(raw).data : undefined;
      if (!item?.links.self) {
        alone([upload]);
        continue;
      }
      upload.item = item;
      upload.announcedByBatch = true;
      if (upload.cancelled) {
        void discard(upload, item.links.self);
        continue;
      }
      upload.job.onCreated(item);
      sending.push(upload);
    }
    if (sending.length === 0) return;
    const form = new FormData();
    form.append(
      'files',
      JSON.stringify(sending.map(({ job }) => ({ key: job.key, size: job.file.size }))),
    );
    for (const { job } of sending) form.append('content', job.file);
    const headers = ownOriginHeaders({});
    const ends: number[] = [];
    let total = 0;
    for (const { job } of sending) ends.push((total += job.file.size));
    let shown = 0;
    try {
      const { text } = await settings.sendBytes({
        url: `${toRequestPath(filesLink).replace(/\?.*$/, '')}-upload`,
        method: 'POST',
        headers,
        body: form,
        stallMs: settings.stallMs,
        signal: batchesAbort.signal,
        // The form's own lines make the count run a little ahead of the files' bytes; a file
        // shows 100 % only once committed.
        onProgress: (loaded) => {
          for (; shown < sending.length && ends[shown]! <= loaded; shown++)
            if (!sending[shown]!.settled) sending[shown]!.job.onProgress(99);
        },
      });
      const result = FilesUploadResultSchema.parse(JSON.parse(text ?? ''));
      const byKey = new Map(sending.map((upload) => [upload.job.key.normalize('NFC'), upload]));
      for (const item of result.entries) {
        const upload = byKey.get(item.key.normalize('NFC'));
        if (!upload) continue;
        byKey.delete(item.key.normalize('NFC'));
        if (upload.cancelled) {
          if (item.links.self) void discard(upload, item.links.self);
          continue;
        }
        settle(upload, () => upload.resolve(item));
      }
      for (const error of result.errors) {
        const upload = byKey.get(error.key.normalize('NFC'));
        // Busy being committed by another request, or refused by a server in trouble: alone,
        // the file waits for that commit or tries again.
        if (!upload || error.status === 409 || error.status >= 500) continue;
        byKey.delete(error.key.normalize('NFC'));
        const failure = new UploadRequestError('http', error.message, {
          status: error.status,
          hasServerMessage: true,
        });
        settle(upload, () => upload.reject(failure));
      }
      alone([...byKey.values()]);
    } catch (error) {
      if (batchesAbort.signal.aborted) return;
      console.error(error);
      alone(sending);
    }
  }

  return {
    upload(job) {
      return new Promise<FileItem>((resolve, reject) => {
        const upload: Upload = {
          job,
          arrival: ++arrivals,
          digests: new Map(),
          safe: new Map(),
          cancelled: false,
          settled: false,
          resolve,
          reject,
        };
        active.add(upload);
        start(upload).catch((error: unknown) => {
          settle(upload, () => upload.reject(error));
          release(upload);
        });
      });
    },

    cancel(key) {
      for (const upload of [...active]) {
        if (upload.settled || !sameName(upload.job.key, key)) continue;
        upload.cancelled = true;
        settle(upload, () => upload.reject(cancelled()));
        release(upload);
      }
    },

    destroy() {
      for (const upload of [...active]) settle(upload, () => upload.reject(cancelled()));
      batchesAbort.abort();
      uppy.destroy();
    },
  };
}

/** Files Uppy holds at once: enough to keep every request slot busy, few enough to copy. */
export function uppyWindow(concurrency: number): number {
  return Math.max(32, concurrency * 8);
}

function sameName(a: string, b: string): boolean {
  return a.normalize('NFC') === b.normalize('NFC');
}

/** The entries of an init answer (`{ entries: [...] }`) by normalised key, unparsed. */
function entriesByKey(body: unknown): Map<string, unknown> {
  const entries = (body as { entries?: unknown[] } | undefined)?.entries ?? [];
  const byKey = new Map<string, unknown>();
  for (const entry of entries) {
    if (typeof entry === 'object' && entry !== null)
      byKey.set(String((entry as { key?: unknown }).key).normalize('NFC'), entry);
  }
  return byKey;
}

/** The entry of `key` among an init answer's entries. */
function entryNamed(entries: Map<string, unknown>, key: string): FileItem {
  const raw = entries.get(key.normalize('NFC'));
  if (!raw) throw new UploadRequestError('http', 'Upload failed');
  return FileItemSchema.parse(raw);
}

function isExpired(link: PartLink, now: number): boolean {
  return link.expiration !== undefined && Date.parse(link.expiration) <= now;
}

/** A presigned URL's own lifetime in seconds (`X-Amz-Expires`), when it states one. */
export function expiresOf(url: string): number | undefined {
  const expires = new URL(url, window.location.href).searchParams.get('X-Amz-Expires');
  return expires && /^\d+$/.test(expires) ? Number(expires) : undefined;
}

function safeBytes(upload: Upload): number {
  let bytes = 0;
  for (const size of upload.safe.values()) bytes += size;
  return bytes;
}

export function percentOf(loaded: number, total: number): number {
  if (total <= 0) return 100;
  return Math.min(100, Math.floor((loaded / total) * 100));
}
