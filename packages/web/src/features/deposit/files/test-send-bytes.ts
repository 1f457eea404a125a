import { fingerprintOf, type ResumeRecord } from './resume-store';
import { errorOfResponse, UploadRequestError, type SendBytes } from './transport';

/**
 * The bytes of an upload over `fetch`, for the tests: there the network is a stubbed `fetch`
 * (src/test/fetch.ts), which answers the byte requests like every other request. Progress is
 * reported once, when the request is done; there is no stall detection.
 */
export const sendBytesWithFetch: SendBytes = async ({
  url,
  method,
  headers,
  body,
  signal,
  onProgress,
}) => {
  let response: Response;
  try {
    response = await fetch(url, {
      method: method ?? 'PUT',
      headers:
        body instanceof Blob ? { 'Content-Type': 'application/octet-stream', ...headers } : headers,
      body,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw new UploadRequestError('aborted', 'Upload cancelled.');
    throw new UploadRequestError('network', error instanceof Error ? error.message : 'Failed');
  }
  const text = await response.text();
  if (!response.ok) throw errorOfResponse(response.status, response.statusText, text);
  if (body instanceof Blob) onProgress(body.size);
  return { etag: response.headers.get('ETag') ?? undefined, text };
};

/**
 * `size` bytes of a pattern repeating every 256 bytes, `seed` shifting it so two files differ,
 * built by doubling so a file of several parts is made at once. Parts starting at a multiple
 * of 256 bytes share their first bytes, so a part's MD5 depends only on its size and the seed.
 */
export function patternBytes(size: number, seed = 0): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  for (let i = 0; i < Math.min(size, 256); i++) out[i] = (i * 31 + 7 + seed) & 0xff;
  for (let filled = 256; filled < size; filled *= 2) out.copyWithin(filled, 0, filled);
  return out;
}

/**
 * What the engine remembers of a 17 MiB upload in two parts of 16 MiB and 1 MiB at `self`,
 * begun from `file`: for the resume tests.
 */
export async function twoPartResumeRecord(file: File, self: string): Promise<ResumeRecord> {
  return {
    self,
    parts: 2,
    partSize: 16 * 1024 ** 2,
    fingerprint: await fingerprintOf(file),
    lastModified: file.lastModified,
    savedAt: '2026-01-01T00:00:00Z',
  };
}
