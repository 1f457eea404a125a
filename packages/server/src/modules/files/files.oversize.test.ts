import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilesTestApp, storedFiles, type Caller } from '../../test/files.js';
import type { TestApp } from '../../test/app.js';

/** Sends a PUT whose body never ends on its own, and resolves with the answer the server gives. */
function putEndless(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(url, { method: 'PUT', headers }, (response) => {
      answered = true;
      clearInterval(timer);
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        clearInterval(timer);
        resolve({ status: response.statusCode ?? 0, body });
      });
    });
    // Once the answer has come, the server closing the connection under the rest of the body
    // (EPIPE, ECONNRESET) is expected: that is the point.
    request.on('error', (error) => {
      clearInterval(timer);
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, 1);
    const timer = setInterval(() => {
      if (!request.destroyed) request.write(chunk);
    }, 2);
  });
}

describe('an upload over quota is answered, not cut off', () => {
  let t: TestApp & { storeRoot: string };
  let owner: Caller;
  let base: string;

  beforeAll(async () => {
    t = await createFilesTestApp('sqlite', {
      CAIRN_FILES_MAX_BYTES_PER_RECORD: String(1024 * 1024),
    });
    owner = await t.user();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  async function pendingFile(): Promise<string> {
    const draft = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: owner.headers,
      body: { metadata: { title: 'Quota' } },
    });
    const id = draft.json().id as string;
    await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files`,
      headers: owner.headers,
      body: [{ key: 'big.bin' }],
    });
    return `${base}/api/records/${id}/draft/files/big.bin/content`;
  }

  it('refuses an announced Content-Length past the quota with 400 before reading the body', async () => {
    const url = await pendingFile();
    const answer = await putEndless(url, {
      ...owner.headers,
      'content-type': 'application/octet-stream',
      'content-length': String(10 * 1024 * 1024 * 1024),
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).message).toMatch(/^File size limit exceeded/);
    expect(await storedFiles(t.storeRoot)).toEqual([]);
  });

  it('stops a body of unannounced length at the quota with 400 and keeps nothing', async () => {
    const url = await pendingFile();
    const answer = await putEndless(url, {
      ...owner.headers,
      'content-type': 'application/octet-stream',
      'transfer-encoding': 'chunked',
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).message).toMatch(/^File size limit exceeded/);
    expect(await storedFiles(t.storeRoot)).toEqual([]);
  });
});
