/**
 * The upload engine's contract with the uploader: what it is given (settings, one job per file)
 * and what it offers. Separate from upload-engine.ts, which the uploader loads only on its first
 * upload (it brings Uppy): the form and its tests depend on this file alone, which imports no
 * Uppy code.
 */
import type { TransferPlan } from '@cairn/shared';
import type { ApiClient } from '../../../api/client';
import type { FileItem } from './files-api';
import type { ResumeStore } from './resume-store';
import type { SendBytes } from './transport';

export interface EngineSettings {
  /** Cairn's JSON calls: init, parts listing, the file's self link, commit, delete. */
  api: ApiClient;
  /** Carries the bytes (XMLHttpRequest in the browser). */
  sendBytes: SendBytes;
  /** The CSRF token goes on byte requests to Cairn's own origin, never to a storage. */
  csrf: { csrfCookieName: string; csrfHeaderName: string };
  /** Requests at once, across files (config `fileUploadConcurrency`, 3 by default). */
  concurrency: number;
  /** Waits before the second, third… attempt of a part (by default 0, 1, 3, 5 s). */
  retryDelaysMs: readonly number[];
  /** A byte request with no progress for this long is abandoned (and tried again). */
  stallMs: number;
  /**
   * Wait before committing again while the server answers that the file is being committed
   * (409): a commit cut off by a server's crash holds the file until its lease runs out.
   */
  commitWaitMs?: number;
  resumeStore: ResumeStore;
  now?: () => number;
  /**
   * Files in one piece of at most `fileBytes` go many a request when set (`POST
   * …/draft/files-upload`, a Cairn extension): at most `files` files and `bytes` bytes each.
   */
  batch?: { files: number; bytes: number; fileBytes: number };
}

export interface UploadJob {
  file: File;
  /** The file's name: its key on the server. */
  key: string;
  draftId: string;
  /** The draft's `links.files`. */
  filesLink: string;
  plan: Extract<TransferPlan, { type: 'L' | 'M' }>;
  /** A pending entry of the same name already on the server (an interrupted upload). */
  existing?: { links: { self?: string | undefined } };
  /** Whole percent, from the bytes the server has over the file's size. */
  onProgress: (percent: number) => void;
  /** The entry exists on the server from now on. */
  onCreated: (item: FileItem) => void;
  /** Bytes of a multipart upload the server holds whole (its parts listed, then each part sent). */
  onSafe?: (bytes: number) => void;
  /** How many parts the server already held when a multipart upload was resumed. */
  onResumed?: (receivedParts: number) => void;
  /** A cancelled upload's pending entry is gone from the server. */
  onDeleted?: () => void;
}

export interface UploadEngine {
  /**
   * Sends one file and resolves with its committed entry; rejects with the failure (an
   * `UploadRequestError`, an `ApiError`), or with an `aborted` UploadRequestError when
   * it was cancelled or the engine stopped.
   */
  upload(job: UploadJob): Promise<FileItem>;
  /** Stops the file's upload and deletes its pending entry on the server. */
  cancel(key: string): void;
  /** Stops every upload; what reached the server stays there for a resume. */
  destroy(): void;
}
