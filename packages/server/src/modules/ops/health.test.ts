import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { openDatabase } from '../../database/database.js';
import { createServices } from '../../services.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { ENGINES, createTestDatabase } from '../../test/databases.js';
import { createFilesTestApp } from '../../test/files.js';
import { PROBE_TIMEOUT_MS, describeFailure } from './health.js';

async function ready(t: Pick<TestApp, 'request'>) {
  const res = await t.request({ method: 'GET', url: '/api/health/ready' });
  return { status: res.statusCode, body: res.json() };
}

describe.each(ENGINES)('health on %s', (engine) => {
  let t: TestApp & { storeRoot: string };
  const logged: string[] = [];

  beforeAll(async () => {
    t = await createFilesTestApp(engine);
    // A second app that logs at info, to see what a probe leaves in the log.
    const lines = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(chunk.toString());
        done();
      },
    });
    const loud = await createTestApp(engine, {}, {}, { logger: { level: 'info', stream: lines } });
    for (const url of ['/api/health/live', '/api/health/ready', '/api/health/ready'])
      expect((await loud.request({ method: 'GET', url })).statusCode).toBe(200);
    expect(
      (await loud.request({ method: 'GET', url: '/api/vocabularies/languages' })).statusCode,
    ).toBe(200);
    await loud.close();
  });
  afterAll(() => t.close());

  it('answers live and ready with JSON while the database and the store answer', async () => {
    const live = await t.request({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.headers['content-type']).toMatch(/^application\/json/);
    expect(live.json()).toEqual({ status: 'ok' });
    expect(await ready(t)).toEqual({
      status: 200,
      body: { status: 'ok', checks: { database: { status: 'ok' }, store: { status: 'ok' } } },
    });
  });

  it('is anonymous and tagged as an extension in the OpenAPI document', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/docs/openapi.json' })).json();
    for (const path of ['/api/health/live', '/api/health/ready']) {
      expect(doc.paths[path].get.tags).toEqual(['Cairn extension']);
      expect(doc.paths[path].get.security).toEqual([]);
    }
    expect(Object.keys(doc.paths['/api/health/ready'].get.responses)).toEqual(
      expect.arrayContaining(['200', '503']),
    );
  });

  it('leaves probes out of the info log, unlike other requests', () => {
    const text = logged.join('');
    expect(text).toContain('/api/vocabularies/languages');
    expect(text).not.toContain('/api/health');
  });

  it('answers 503 naming the store when its folder cannot take bytes, and 200 once it can', async () => {
    const aside = `${t.storeRoot}.aside`;
    await mkdir(t.storeRoot, { recursive: true });
    await rename(t.storeRoot, aside);
    // A file where the store's folder belongs: nothing can be written under it.
    await writeFile(t.storeRoot, 'not a folder');
    try {
      const { status, body } = await ready(t);
      expect(status).toBe(503);
      expect(body.status).toBe('unavailable');
      expect(body.checks.database).toEqual({ status: 'ok' });
      expect(body.checks.store.status).toBe('error');
      expect(body.checks.store.error).toMatch(/ENOTDIR|EEXIST/);
    } finally {
      await rm(t.storeRoot, { force: true });
      await rename(aside, t.storeRoot);
    }
    expect((await ready(t)).status).toBe(200);
  });

  it('answers 503 naming the database once it is closed', async () => {
    const own = await createTestApp(engine);
    try {
      expect((await ready(own)).status).toBe(200);
      await own.services.database.close();
      const { status, body } = await ready(own);
      expect(status).toBe(503);
      expect(body.checks.database.status).toBe('error');
      expect(body.checks.database.error).toEqual(expect.any(String));
      expect(body.checks.store).toEqual({ status: 'ok' });
      // Liveness checks nothing but the process.
      expect((await own.request({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      await own.app.close();
    }
  });
});

/**
 * A TCP relay in front of PostgreSQL that can stop relaying (a network that drops packets) or
 * stop listening (a server that is down), as a database becomes unreachable in production.
 */
async function relay(port: number) {
  let mode: 'relay' | 'blackhole' = 'relay';
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (mode === 'blackhole') return;
    const upstream = net.connect(port, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    /** Existing connections die; new ones are accepted and never answered. */
    blackhole() {
      mode = 'blackhole';
      for (const socket of sockets) socket.destroy();
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.runIf(ENGINES.includes('postgres'))('health with PostgreSQL out of reach', () => {
  it('answers 503 when the database stops answering, and when it refuses connections', async () => {
    const database = await createTestDatabase('postgres');
    const base = new URL(process.env.CAIRN_TEST_DATABASE_URL!);
    const proxy = await relay(Number(base.port || 5432));
    const url = new URL(base);
    url.port = String(proxy.port);
    url.password = 'never-shown-secret';
    if (!url.username) url.username = 'postgres';
    const databaseConfig = { ...database.config, url: url.toString() };
    const handle = openDatabase(databaseConfig);
    const config = loadConfig(
      { CAIRN_LOG_LEVEL: 'silent', CAIRN_SITE_URL: 'https://cairn.test' },
      { database: databaseConfig, webDist: undefined },
    );
    const app = await buildApp(await createServices(config, handle), { logger: false });
    try {
      const probe = async () => {
        const res = await app.inject({ method: 'GET', url: '/api/health/ready' });
        return { status: res.statusCode, body: res.json(), text: res.body };
      };
      expect((await probe()).status).toBe(200);

      proxy.blackhole();
      // The pool may hand out its connection that just died before it has noticed: that probe
      // fails at once; the next one waits on a connection that never answers.
      let silent = await probe();
      if (/terminated/.test(silent.text)) silent = await probe();
      expect(silent.status).toBe(503);
      expect(silent.body.checks.database).toEqual({
        status: 'error',
        error: `no answer within ${PROBE_TIMEOUT_MS} ms`,
      });
      expect(silent.body.checks.store).toEqual({ status: 'ok' });

      await proxy.stop();
      const refused = await probe();
      expect(refused.status).toBe(503);
      expect(refused.body.checks.database.status).toBe('error');
      expect(refused.text).not.toContain('never-shown-secret');
    } finally {
      await proxy.stop().catch(() => {});
      await app.close();
      await handle.close().catch(() => {});
      await database.drop();
    }
  });
});

describe('describeFailure', () => {
  it('names the error without credentials or configured secrets', () => {
    const error = Object.assign(
      new Error(
        'connect to postgres://cairn:s3cr3t-pw@db.internal:5432/cairn failed, key wJalrXUtnFEMI',
      ),
      { code: 'ECONNREFUSED' },
    );
    expect(describeFailure(error, ['wJalrXUtnFEMI'])).toBe(
      'ECONNREFUSED: connect to postgres://***@db.internal:5432/cairn failed, key ***',
    );
  });
});
