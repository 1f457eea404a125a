/** Why a request of an upload did not succeed; `retryable` says whether trying again may help. */
export type UploadFailureKind = 'http' | 'network' | 'timeout' | 'stalled' | 'aborted';

/** The upload error kinds that have their own locale string. */
export type UploadErrorReason =
  | 'exceedsSize'
  | 'invalidPartNumber'
  | 'signedUrlExpired'
  /** A resume was offered another file than the one whose upload was interrupted. */
  | 'differentFile';

/**
 * A failed upload request. `message` is the server's message when it sent one (the entry shows the
 * response message, else the error message, else 'Upload failed').
 */
export class UploadRequestError extends Error {
  override readonly name = 'UploadRequestError';
  readonly kind: UploadFailureKind;
  readonly status: number;
  readonly hasServerMessage: boolean;
  /** Seconds without progress, for `stalled`. */
  readonly stalledSeconds?: number;
  readonly reason?: UploadErrorReason;

  constructor(
    kind: UploadFailureKind,
    message: string,
    details: {
      status?: number;
      hasServerMessage?: boolean;
      stalledSeconds?: number;
      reason?: UploadErrorReason;
    } = {},
  ) {
    super(message);
    this.kind = kind;
    this.status = details.status ?? 0;
    this.hasServerMessage = details.hasServerMessage ?? false;
    if (details.stalledSeconds !== undefined) this.stalledSeconds = details.stalledSeconds;
    if (details.reason !== undefined) this.reason = details.reason;
  }

  /**
   * Network trouble, time-outs, stalls, server-side failures and an expired link (tried again
   * with fresh links) may pass; a refusal will not.
   */
  get retryable(): boolean {
    if (this.kind === 'aborted') return false;
    if (this.kind !== 'http' || this.reason === 'signedUrlExpired') return true;
    return this.status >= 500 || this.status === 408 || this.status === 429;
  }

  /**
   * What @uppy/aws-s3 reads to decide on another attempt (`source.status`): it gives up when
   * there is none or on a 4xx, backs the whole queue off on 429, and otherwise tries again after
   * the next retry delay. Cairn's rule above decides, so an error worth another attempt shows
   * Uppy "no answer" (0), and one that is not shows nothing.
   */
  get source(): { status: number } | undefined {
    if (!this.retryable) return undefined;
    return { status: this.status === 429 ? 429 : 0 };
  }
}

/** One request of bytes: a part, a whole file, or (POSTed as a form) a batch of small files. */
export interface BytesRequest {
  url: string;
  /** PUT unless said otherwise. */
  method?: 'PUT' | 'POST';
  headers: Record<string, string>;
  /** A form goes with the Content-Type the browser gives it (its boundary). */
  body: Blob | FormData;
  /** The whole request's limit (a signed part URL's `expires` seconds × 1000). */
  timeoutMs?: number;
  /** Give up when no byte has moved for this long. */
  stallMs: number;
  signal?: AbortSignal;
  onProgress: (loaded: number) => void;
}

/** Sends bytes; resolves with the ETag when the answer lets it be read, and the answer's body. */
export type SendBytes = (request: BytesRequest) => Promise<{ etag?: string; text?: string }>;

/** The error for a non-2xx answer, with the server's message when its body carried one. */
export function errorOfResponse(status: number, statusText: string, text: string) {
  let message: string | undefined;
  try {
    const body = JSON.parse(text) as unknown;
    if (typeof body === 'object' && body !== null && 'message' in body) {
      if (typeof body.message === 'string' && body.message !== '') message = body.message;
    }
  } catch {
    // Not JSON: storage answers in XML, proxies in HTML.
  }
  // S3's answer to a part over its size limit, which has a locale string of its own.
  const tooLarge = /<Code>\s*EntityTooLarge\s*<\/Code>/.test(text);
  return new UploadRequestError('http', message ?? (statusText || `HTTP ${status}`), {
    status,
    hasServerMessage: message !== undefined,
    ...(tooLarge ? { reason: 'exceedsSize' as const } : {}),
  });
}

/**
 * The browser's way of sending bytes: XMLHttpRequest, because fetch reports no upload progress.
 * Never with credentials, so no cookie reaches a bucket (InvenioRDM's uploader first leaked them,
 * fixed in its commit bf09b247); Cairn's own URLs are same-origin, and a same-origin request
 * carries the session anyway. A request that moves no byte for `stallMs` is abandoned as stalled.
 */
export const sendBytesWithXhr: SendBytes = (request) =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(request.method ?? 'PUT', request.url);
    xhr.withCredentials = false;
    if (request.body instanceof Blob)
      xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    if (request.timeoutMs !== undefined) xhr.timeout = request.timeoutMs;

    let stallTimer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(stallTimer);
      request.signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const armStall = () => {
      clearTimeout(stallTimer);
      stallTimer = setTimeout(() => {
        xhr.abort();
        const seconds = Math.round(request.stallMs / 1000);
        const error = new UploadRequestError('stalled', `Upload stalled for ${seconds} seconds.`, {
          stalledSeconds: seconds,
        });
        finish(() => reject(error));
      }, request.stallMs);
    };
    const onAbort = () => {
      xhr.abort();
      finish(() => reject(new UploadRequestError('aborted', 'Upload cancelled.')));
    };
    if (request.signal?.aborted) return onAbort();
    request.signal?.addEventListener('abort', onAbort);

    xhr.upload.onprogress = (event) => {
      armStall();
      request.onProgress(event.loaded);
    };
    xhr.onload = () =>
      finish(() => {
        if (xhr.status >= 200 && xhr.status < 300)
          return resolve({
            etag: xhr.getResponseHeader('ETag') ?? undefined,
            text: xhr.responseText,
          });
        reject(errorOfResponse(xhr.status, xhr.statusText, xhr.responseText));
      });
    xhr.onerror = () =>
      finish(() => reject(new UploadRequestError('network', 'The connection failed.')));
    xhr.ontimeout = () =>
      finish(() => reject(new UploadRequestError('timeout', 'The upload request timed out.')));

    armStall();
    xhr.send(request.body);
  });
