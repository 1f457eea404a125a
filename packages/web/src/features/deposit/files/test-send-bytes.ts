import { errorOfResponse, UploadRequestError, type SendBytes } from './transport';

/**
 * The bytes of an upload over `fetch`, for the tests: there the network is a stubbed `fetch`
 * (src/test/fetch.ts), which answers the byte requests like every other request. Progress is
 * reported once, when the request is done; there is no stall detection.
 */
export const sendBytesWithFetch: SendBytes = async ({ url, headers, body, signal, onProgress }) => {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/octet-stream', ...headers },
      body,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw new UploadRequestError('aborted', 'Upload cancelled.');
    throw new UploadRequestError('network', error instanceof Error ? error.message : 'Failed');
  }
  const text = await response.text();
  if (!response.ok) throw errorOfResponse(response.status, response.statusText, text);
  onProgress(body.size);
  return { etag: response.headers.get('ETag') ?? undefined };
};
