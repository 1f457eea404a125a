import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSweeps } from '../../sweeps/scheduler.js';
import { ENGINES } from '../../test/databases.js';
import { createFilesTestApp, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';
import type { TestApp } from '../../test/app.js';
import { sampleValue, scrape, type Sample } from '../../test/prometheus.js';
import { callApi, freePort } from '../../test/server-process.js';

const DURATION = 'cairn_http_request_duration_seconds_count';

describe.each(ENGINES)('metrics on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let base: string;
  let metricsUrl: string;

  beforeAll(async () => {
    const metricsPort = await freePort();
    t = await createFilesTestApp(engine, { CAIRN_METRICS_PORT: String(metricsPort) });
    owner = await t.user();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = address.replace('localhost', '127.0.0.1');
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  });
  afterAll(() => t.close());

  const call = (method: string, path: string, body?: unknown) =>
    callApi(base, method, path, owner.headers, body);

  async function draft(): Promise<string> {
    const res = await call('POST', '/api/records', { metadata: PUBLISHABLE_METADATA });
    expect(res.status, res.text).toBe(201);
    return res.json().id as string;
  }

  it('counts requests by route pattern, method and status class, and errors by status', async () => {
    const before = await scrape(metricsUrl);
    const a = await draft();
    const b = await draft();
    for (const id of [a, b])
      expect((await call('GET', `/api/records/${id}/draft`)).status).toBe(200);
    expect((await call('GET', '/api/records/nothere/draft')).status).toBe(404);
    expect((await call('GET', '/api/no/such/route')).status).toBe(404);
    expect((await call('POST', '/api/records', '{not json')).status).toBe(400);
    const after = await scrape(metricsUrl);

    const delta = (name: string, labels: Record<string, string>) =>
      (sampleValue(after, name, labels) ?? 0) - (sampleValue(before, name, labels) ?? 0);
    const route = '/api/records/:id/draft';
    expect(delta(DURATION, { method: 'GET', route, status_class: '2xx' })).toBe(2);
    expect(delta(DURATION, { method: 'GET', route, status_class: '4xx' })).toBe(1);
    expect(delta(DURATION, { method: 'POST', route: '/api/records', status_class: '2xx' })).toBe(2);
    expect(delta(DURATION, { route: 'unmatched' })).toBe(1);
    // The raw URL never becomes a label value: label sets stay bounded.
    expect(after.some((s) => Object.values(s.labels).some((v) => v.includes(a)))).toBe(false);
    expect(delta('cairn_http_client_errors_total', { status: '404' })).toBe(2);
    expect(delta('cairn_http_client_errors_total', { status: '400' })).toBe(1);
    const buckets = after.filter(
      (s) =>
        s.name === 'cairn_http_request_duration_seconds_bucket' &&
        s.labels.route === route &&
        s.labels.status_class === '2xx',
    );
    expect(buckets.find((s) => s.labels.le === '+Inf')?.value).toBeGreaterThanOrEqual(2);
  });

  it('counts the bytes of file content and of multipart parts as they arrive', async () => {
    const before = await scrape(metricsUrl);
    const id = await draft();
    const files = `/api/records/${id}/draft/files`;
    expect((await call('POST', files, [{ key: 'one.bin' }])).status).toBe(201);
    expect((await call('PUT', `${files}/one.bin/content`, Buffer.alloc(1234, 7))).status).toBe(200);
    expect(
      (
        await call('POST', files, [
          { key: 'many.bin', size: 25, transfer: { type: 'M', parts: 3, part_size: 10 } },
        ])
      ).status,
    ).toBe(201);
    expect((await call('PUT', `${files}/many.bin/content/1`, Buffer.alloc(10, 1))).status).toBe(
      200,
    );
    expect((await call('PUT', `${files}/many.bin/content/3`, Buffer.alloc(5, 3))).status).toBe(200);
    const after = await scrape(metricsUrl);
    const delta = (kind: string) =>
      (sampleValue(after, 'cairn_upload_received_bytes_total', { kind }) ?? 0) -
      (sampleValue(before, 'cairn_upload_received_bytes_total', { kind }) ?? 0);
    expect(delta('content')).toBe(1234);
    expect(delta('part')).toBe(15);
  });

  it('counts sweep runs by sweep and outcome', async () => {
    const runs = (samples: Sample[], sweep: string, outcome: string) =>
      sampleValue(samples, 'cairn_sweep_runs_total', { sweep, outcome }) ?? 0;
    const before = await scrape(metricsUrl);
    // One sweep's table away: that sweep fails, the others run.
    await sql`alter table sessions rename to sessions_away`.execute(t.services.database.db);
    const stop = startSweeps(t.services, t.app.log, t.app.operations.sweepObserver);
    let after: Sample[] = [];
    try {
      await vi.waitFor(
        async () => {
          after = await scrape(metricsUrl);
          expect(runs(after, 'request-expiry', 'done')).toBe(
            runs(before, 'request-expiry', 'done') + 1,
          );
        },
        { timeout: 20_000, interval: 50 },
      );
    } finally {
      await stop();
      await sql`alter table sessions_away rename to sessions`.execute(t.services.database.db);
    }
    for (const sweep of ['embargo-lift', 'doi-registration', 'abandoned-uploads']) {
      expect(runs(after, sweep, 'done') - runs(before, sweep, 'done'), sweep).toBe(1);
    }
    expect(
      runs(after, 'session-cleanup', 'failed') - runs(before, 'session-cleanup', 'failed'),
    ).toBe(1);
    expect(runs(after, 'session-cleanup', 'done')).toBe(runs(before, 'session-cleanup', 'done'));
  });

  it("serves Node's process metrics and the database's figures", async () => {
    const samples = await scrape(metricsUrl);
    expect(sampleValue(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(sampleValue(samples, 'nodejs_eventloop_lag_seconds')).toBeDefined();
    if (engine === 'postgres') {
      expect(sampleValue(samples, 'cairn_db_pool_connections', { state: 'total' })).toBeGreaterThan(
        0,
      );
      expect(sampleValue(samples, 'cairn_db_pool_connections', { state: 'waiting' })).toBe(0);
      expect(sampleValue(samples, 'cairn_db_pool_max_connections')).toBe(10);
    }
    const other = await fetch(metricsUrl.replace('/metrics', '/'));
    expect(other.status).toBe(404);
  });

  it('counts 5xx answers by route', async () => {
    const id = await draft();
    const before = await scrape(metricsUrl);
    // A table gone missing under the app: every read of a draft fails inside the server.
    await sql`alter table drafts rename to drafts_away`.execute(t.services.database.db);
    try {
      expect((await call('GET', `/api/records/${id}/draft`)).status).toBe(500);
    } finally {
      await sql`alter table drafts_away rename to drafts`.execute(t.services.database.db);
    }
    const after = await scrape(metricsUrl);
    const labels = { method: 'GET', route: '/api/records/:id/draft' };
    expect(
      (sampleValue(after, 'cairn_http_server_errors_total', labels) ?? 0) -
        (sampleValue(before, 'cairn_http_server_errors_total', labels) ?? 0),
    ).toBe(1);
    expect(sampleValue(after, DURATION, { ...labels, status_class: '5xx' })).toBe(1);
  });
});

describe('metrics configuration', () => {
  it('has no listener unless CAIRN_METRICS_PORT is set', async () => {
    const t = await createFilesTestApp('sqlite');
    try {
      expect(t.app.operations.metrics).toBeUndefined();
      expect(t.app.operations.sweepObserver).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
