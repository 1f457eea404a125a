import crypto from 'node:crypto';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../test/databases.js';
import { createFilesTestApp, FilesApi, md5, storedFiles, type Caller } from '../test/files.js';
import type { TestApp } from '../test/app.js';

// Request bodies that stop arriving are cut off with a 408 once no byte came for the configured
// idle time, whatever reads them (the JSON parser, a file's content, a multipart part); bodies
// that keep moving, however slowly, are never cut. Driven over real TCP, as a client would.

const IDLE_SECONDS = 2;
/** Guard against a hang only: far beyond the idle time, never a measure of speed. */
const GUARD_MS = 25_000;

interface RawAnswer {
  status: number;
  headers: string;
  body: string;
  /** The server closed the connection. */
  closed: boolean;
}

/**
 * Sends `head` and the body chunks (each after `gapMs`) over a raw TCP connection, then keeps the
 * connection open without sending more; resolves with the answer once the server has answered
 * and closed, or when the guard time runs out.
 */
function rawRequest(port: number, head: string, chunks: Buffer[], gapMs = 0): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let closed = false;
    const guard = setTimeout(() => {
      socket.destroy();
      finish();
    }, GUARD_MS);
    function finish() {
      clearTimeout(guard);
      const text = Buffer.concat(received).toString('utf8');
      const [headers = '', body = ''] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(headers)?.[1] ?? 0);
      resolve({ status, headers, body: decodeChunked(headers, body), closed });
    }
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
    socket.on('close', () => {
      closed = true;
      finish();
    });
    async function send() {
      socket.write(head);
      for (const chunk of chunks) {
        if (gapMs > 0) await sleep(gapMs);
        if (socket.destroyed) return;
        socket.write(chunk);
      }
    }
    socket.on('connect', () => void send());
  });
}

function decodeChunked(headers: string, body: string): string {
  if (!/transfer-encoding: chunked/i.test(headers)) return body;
  let out = '';
  let rest = body;
  for (;;) {
    const line = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, line), 16);
    if (!size) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}

function head(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = Object.entries({ host: '127.0.0.1', ...headers }).map(([k, v]) => `${k}: ${v}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

const TIMED_OUT = {
  status: 408,
  code: 'REQUEST_TIMEOUT',
  message: `The request body stopped arriving: no byte came for ${IDLE_SECONDS} seconds.`,
};

describe.each(ENGINES)('a request body that stalls (%s)', (engine) => {
  let t: TestApp & { storeRoot: string };
  let owner: Caller;
  let api: FilesApi;
  let port: number;

  beforeAll(async () => {
    t = await createFilesTestApp(engine, { CAIRN_BODY_IDLE_TIMEOUT_SECONDS: String(IDLE_SECONDS) });
    owner = await t.user();
    api = new FilesApi(t, owner);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  async function uploads(): Promise<number> {
    return (await api.get('/api/user/records')).json().hits.total as number;
  }

  it('is answered 408 with the error body and its connection closed, and nothing is created', async () => {
    const before = await uploads();
    const answer = await rawRequest(
      port,
      head('POST', '/api/records', {
        ...owner.headers,
        'content-type': 'application/json',
        'content-length': 100,
      }),
      [Buffer.from('{"meta')],
    );
    expect(answer.status, answer.headers).toBe(408);
    expect(JSON.parse(answer.body)).toEqual(TIMED_OUT);
    expect(answer.closed).toBe(true);
    expect(await uploads()).toBe(before);
    // The server answers as before.
    expect((await api.get('/api/user/records')).statusCode).toBe(200);
  });

  it('cuts a stalled anonymous body too, and one that never started', async () => {
    for (const chunks of [[Buffer.from('{"email"')], []]) {
      const answer = await rawRequest(
        port,
        head('POST', '/api/auth/login', {
          'content-type': 'application/json',
          'content-length': 80,
          cookie: 'csrftoken=stalled',
          'x-csrftoken': 'stalled',
        }),
        chunks,
      );
      expect(answer.status, answer.headers).toBe(408);
      expect(JSON.parse(answer.body)).toEqual(TIMED_OUT);
      expect(answer.closed).toBe(true);
    }
  });

  it('never cuts a body that keeps moving, however long it takes in all', async () => {
    const body = Buffer.from(
      JSON.stringify({ metadata: { title: 'Trickled, one byte at a time, slowly' } }),
    );
    // Each byte comes well within the idle time; all of them take several idle times.
    const chunks = [...body].map((byte) => Buffer.from([byte]));
    const gapMs = Math.ceil((IDLE_SECONDS * 1000 * 6) / chunks.length);
    expect(gapMs * chunks.length).toBeGreaterThan(IDLE_SECONDS * 1000 * 5);
    expect(gapMs).toBeLessThan((IDLE_SECONDS * 1000) / 4);
    const answer = await rawRequest(
      port,
      head('POST', '/api/records', {
        ...owner.headers,
        'content-type': 'application/json',
        'content-length': body.length,
        connection: 'close',
      }),
      chunks,
      gapMs,
    );
    expect(answer.status, answer.body).toBe(201);
    expect(JSON.parse(answer.body).metadata.title).toBe('Trickled, one byte at a time, slowly');
  });

  it('leaves a file whose content stalled pending, with nothing stored, and resumable', async () => {
    const { id } = await api.createDraft();
    const bytes = crypto.randomBytes(100);
    expect((await api.init(id, [{ key: 'stalled.bin', size: 100 }])).statusCode).toBe(201);
    const before = await storedFiles(t.storeRoot);
    const answer = await rawRequest(
      port,
      head('PUT', `/api/records/${id}/draft/files/stalled.bin/content`, {
        ...owner.headers,
        'content-type': 'application/octet-stream',
        'content-length': 100,
      }),
      [bytes.subarray(0, 10)],
    );
    expect(answer.status, answer.headers).toBe(408);
    expect(JSON.parse(answer.body)).toEqual(TIMED_OUT);
    expect(answer.closed).toBe(true);
    expect(await storedFiles(t.storeRoot)).toEqual(before);
    const file = (await api.get(`/api/records/${id}/draft/files/stalled.bin`)).json();
    expect(file.status).toBe('pending');
    // The upload starts again and completes.
    const put = await api.put(id, 'stalled.bin', bytes);
    expect(put.statusCode, put.body).toBe(200);
    const committed = await api.commit(id, 'stalled.bin');
    expect(committed.json()).toMatchObject({ status: 'completed', checksum: `md5:${md5(bytes)}` });
  });

  it('keeps a content upload that trickles, and a stalled multipart part counts as missing', async () => {
    const { id } = await api.createDraft();
    const slow = crypto.randomBytes(24);
    expect((await api.init(id, [{ key: 'slow.bin', size: 24 }])).statusCode).toBe(201);
    const trickled = await rawRequest(
      port,
      head('PUT', `/api/records/${id}/draft/files/slow.bin/content`, {
        ...owner.headers,
        'content-type': 'application/octet-stream',
        'content-length': 24,
        connection: 'close',
      }),
      Array.from({ length: 12 }, (_, i) => slow.subarray(i * 2, i * 2 + 2)),
      Math.ceil((IDLE_SECONDS * 1000) / 4),
    );
    expect(trickled.status, trickled.body).toBe(200);
    expect((await api.commit(id, 'slow.bin')).json().checksum).toBe(`md5:${md5(slow)}`);

    // Two parts of 10 and 5 bytes: the first stalls half way.
    const partSize = 10;
    const whole = crypto.randomBytes(partSize + 5);
    const init = await api.init(id, [
      {
        key: 'parts.bin',
        size: whole.length,
        transfer: { type: 'M', parts: 2, part_size: partSize },
      },
    ]);
    expect(init.statusCode, init.body).toBe(201);
    expect((await api.putPart(id, 'parts.bin', 2, whole.subarray(partSize))).statusCode).toBe(200);
    const stalled = await rawRequest(
      port,
      head('PUT', `/api/records/${id}/draft/files/parts.bin/content/1`, {
        ...owner.headers,
        'content-type': 'application/octet-stream',
        'content-length': partSize,
      }),
      [whole.subarray(0, partSize / 2)],
    );
    expect(stalled.status, stalled.headers).toBe(408);
    expect(JSON.parse(stalled.body)).toEqual(TIMED_OUT);
    const parts = (await api.get(`/api/records/${id}/draft/files/parts.bin/parts`)).json();
    expect(parts.missing).toEqual([1]);
    expect((await api.putPart(id, 'parts.bin', 1, whole.subarray(0, partSize))).statusCode).toBe(
      200,
    );
    const committed = await api.commit(id, 'parts.bin');
    expect(committed.json()).toMatchObject({ status: 'completed', checksum: `md5:${md5(whole)}` });
  });
});
