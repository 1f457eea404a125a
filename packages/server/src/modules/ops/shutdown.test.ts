import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { PUBLISHABLE_METADATA, md5 } from '../../test/files.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { sampleValue, scrape } from '../../test/prometheus.js';
import {
  callApi,
  createProcessDatabase,
  freePort,
  processUser,
  startServerProcess,
  tempDataDir,
  type ServerProcess,
} from '../../test/server-process.js';
import type { Engine } from '../../database/database.js';

/** Guards against a process that never ends; no test waits this long unless it hangs. */
const EXIT_GUARD_MS = 60_000;

/** An environment for `cairn serve` on `engine`: a data folder of its own, and a database. */
async function serverEnvironment(engine: Engine) {
  const data = await tempDataDir();
  const database = engine === 'postgres' ? await createProcessDatabase() : undefined;
  return {
    env: { CAIRN_DATA_DIR: data.dir, ...(database ? { DATABASE_URL: database.url } : {}) },
    async remove() {
      await database?.drop();
      await data.remove();
    },
  };
}

/** A PUT of `total` bytes whose body the test sends in pieces, when it chooses. */
function slowPut(
  server: ServerProcess,
  path: string,
  headers: Record<string, string>,
  total: number,
) {
  const request = http.request(`${server.url}${path}`, {
    method: 'PUT',
    agent: false,
    headers: {
      ...headers,
      'content-type': 'application/octet-stream',
      'content-length': String(total),
    },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
      res.on('error', reject);
    });
  });
  // Its outcome is awaited by the test, or deliberately not (a cut upload).
  response.catch(() => {});
  return { request, response };
}

/** True once a new connection to `port` is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe.each(ENGINES)('graceful shutdown of cairn serve on %s', (engine) => {
  let environment: Awaited<ReturnType<typeof serverEnvironment>>;
  let owner: { headers: Record<string, string> };
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    environment = await serverEnvironment(engine);
    owner = await processUser(environment.env);
  });
  afterAll(async () => {
    for (const server of servers) await server.kill();
    await environment.remove();
  });

  async function start(env: Record<string, string> = {}) {
    const metricsPort = await freePort();
    const server = await startServerProcess({
      ...environment.env,
      CAIRN_METRICS_PORT: String(metricsPort),
      ...env,
    });
    servers.push(server);
    return { server, metrics: `http://127.0.0.1:${metricsPort}/metrics` };
  }

  /** Waits until the server has received `bytes` of upload bodies in all (counted as they arrive). */
  async function received(metrics: string, kind: 'content' | 'part', bytes: number) {
    await vi.waitFor(
      async () =>
        expect(
          sampleValue(await scrape(metrics), 'cairn_upload_received_bytes_total', { kind }),
        ).toBeGreaterThanOrEqual(bytes),
      { timeout: 20_000, interval: 50 },
    );
  }

  async function draftWithFile(server: ServerProcess, entry: Record<string, unknown>) {
    const draft = await callApi(server.url, 'POST', '/api/records', owner.headers, {
      metadata: PUBLISHABLE_METADATA,
    });
    expect(draft.status, draft.text).toBe(201);
    const id = draft.json().id as string;
    const init = await callApi(
      server.url,
      'POST',
      `/api/records/${id}/draft/files`,
      owner.headers,
      [entry],
    );
    expect(init.status, init.text).toBe(201);
    return id;
  }

  it('lets an upload in flight finish, refuses new connections, exits 0, and loses nothing', async () => {
    const { server, metrics } = await start();
    const bytes = crypto.randomBytes(512 * 1024);
    const id = await draftWithFile(server, { key: 'slow.bin', size: bytes.length });
    const upload = slowPut(
      server,
      `/api/records/${id}/draft/files/slow.bin/content`,
      owner.headers,
      bytes.length,
    );
    const half = bytes.length / 2;
    upload.request.write(bytes.subarray(0, half));
    await received(metrics, 'content', half);

    process.kill(server.pid, 'SIGTERM');
    await vi.waitFor(async () => expect(await refused(server.port)).toBe(true), {
      timeout: 20_000,
      interval: 50,
    });
    upload.request.end(bytes.subarray(half));
    const answer = await upload.response;
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ key: 'slow.bin', size: bytes.length });
    expect(await Promise.race([server.exited, sleep(EXIT_GUARD_MS, 'still running')])).toBe(0);

    // The same data served again: the upload's bytes are there, and the file commits whole.
    const { server: again } = await start();
    const commit = await callApi(
      again.url,
      'POST',
      `/api/records/${id}/draft/files/slow.bin/commit`,
      owner.headers,
    );
    expect(commit.status, commit.text).toBe(200);
    expect(commit.json()).toMatchObject({ status: 'completed', checksum: `md5:${md5(bytes)}` });
    const content = await fetch(`${again.url}/api/records/${id}/draft/files/slow.bin/content`, {
      headers: owner.headers,
    });
    expect(md5(Buffer.from(await content.arrayBuffer()))).toBe(md5(bytes));
    await again.kill('SIGTERM');
  });

  it('cuts an upload still running after its grace, exits 0, and the upload resumes', async () => {
    const { server, metrics } = await start({
      CAIRN_SHUTDOWN_GRACE_SECONDS: '0',
      CAIRN_SHUTDOWN_UPLOAD_GRACE_SECONDS: '1',
    });
    const partSize = 64 * 1024;
    const bytes = crypto.randomBytes(partSize * 3);
    const part = (n: number) => bytes.subarray((n - 1) * partSize, n * partSize);
    const id = await draftWithFile(server, {
      key: 'parts.bin',
      size: bytes.length,
      transfer: { type: 'M', parts: 3, part_size: partSize },
    });
    const files = `/api/records/${id}/draft/files/parts.bin`;
    expect(
      (await callApi(server.url, 'PUT', `${files}/content/1`, owner.headers, part(1))).status,
    ).toBe(200);
    const upload = slowPut(server, `${files}/content/2`, owner.headers, partSize);
    upload.request.write(part(2).subarray(0, 1000));
    await received(metrics, 'part', partSize + 1000);

    process.kill(server.pid, 'SIGTERM');
    // Never finished by the client: the grace ends it.
    await expect(upload.response).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(await Promise.race([server.exited, sleep(EXIT_GUARD_MS, 'still running')])).toBe(0);

    const { server: again } = await start();
    const parts = await callApi(again.url, 'GET', `${files}/parts`, owner.headers);
    expect(parts.status, parts.text).toBe(200);
    expect(parts.json()).toMatchObject({
      received: [{ part: 1, size: partSize, checksum: `md5:${md5(part(1))}` }],
      missing: [2, 3],
    });
    for (const n of [2, 3])
      expect(
        (await callApi(again.url, 'PUT', `${files}/content/${n}`, owner.headers, part(n))).status,
      ).toBe(200);
    const commit = await callApi(again.url, 'POST', `${files}/commit`, owner.headers);
    expect(commit.status, commit.text).toBe(200);
    expect(commit.json()).toMatchObject({ status: 'completed', checksum: `md5:${md5(bytes)}` });
    await again.kill('SIGTERM');
  });
});

function sleep<T>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms).unref());
}

describe.each(ENGINES)('draining on %s', (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(engine);
    t.app.operations.beginDrain(60, 60);
  });
  afterAll(() => t.close());

  it('answers readiness 503 at once, keeps liveness, and refuses other requests with 503', async () => {
    const ready = await t.request({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({
      status: 'shutting down',
      checks: { database: { status: 'ok' }, store: { status: 'ok' } },
    });
    expect(ready.headers.connection).toBe('close');
    const live = await t.request({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    const other = await t.request({ method: 'GET', url: '/api/records' });
    expect(other.statusCode).toBe(503);
    expect(other.json()).toMatchObject({ status: 503, code: 'SHUTTING_DOWN' });
    expect(other.headers.connection).toBe('close');
    expect(other.headers['retry-after']).toBe('5');
  });
});
