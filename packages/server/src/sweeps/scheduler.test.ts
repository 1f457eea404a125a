import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addMember, createCommunity, makeDue, requestAs } from '../test/communities.js';
import { ENGINES } from '../test/databases.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { PUBLISHABLE_METADATA, type Caller } from '../test/files.js';
import { startSweeps } from './scheduler.js';

describe.each(ENGINES)('sweep scheduler on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let curator: Caller;
  let depositor: Caller;

  beforeAll(async () => {
    // No interval: the scheduler's first round, which starts at once, is the one under test.
    t = await createTestApp(engine, { CAIRN_SWEEP_INTERVAL_SECONDS: '0' });
    [owner, curator, depositor] = [await t.user(), await t.user(), await t.user()];
  });
  afterAll(() => t.close());

  /** A draft of the depositor submitted for review to a new community; returns both ids. */
  async function submitted(slug: string): Promise<{ draft: string; request: string }> {
    const community = await createCommunity(t, owner, slug, {});
    await addMember(t, owner, community, curator, 'curator');
    const created = await requestAs(t, 'POST', '/api/records', depositor, {
      metadata: PUBLISHABLE_METADATA,
      files: { enabled: false },
      parent: { review: { type: 'community-submission', receiver: { community } } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const draft = created.json().id as string;
    const submit = await requestAs(
      t,
      'POST',
      `/api/records/${draft}/draft/actions/submit-review`,
      depositor,
    );
    expect(submit.statusCode, submit.body).toBe(202);
    return { draft, request: submit.json().id as string };
  }

  it('expires submitted requests past their date, so their drafts show expired', async () => {
    const due = await submitted('due');
    const fresh = await submitted('fresh');
    await makeDue(t, due.request);

    const stop = startSweeps(t.services, t.app.log);
    try {
      // The round runs every sweep in turn; the request-expiry one is last.
      await vi.waitFor(
        async () => {
          const res = await requestAs(t, 'GET', `/api/requests/${due.request}`, depositor);
          expect(res.json().status).toBe('expired');
        },
        { timeout: 30_000, interval: 50 },
      );
    } finally {
      await stop();
    }

    const request = (await requestAs(t, 'GET', `/api/requests/${due.request}`, depositor)).json();
    expect(request).toMatchObject({ is_open: false, is_closed: true, is_expired: true });
    expect(request.links.actions).toEqual({});
    const timeline = (
      await requestAs(t, 'GET', `/api/requests/${due.request}/timeline`, depositor)
    ).json();
    expect(timeline.hits.hits.at(-1)).toMatchObject({
      type: 'L',
      created_by: { user: 'system' },
      payload: { event: 'expired' },
    });

    const draft = (await requestAs(t, 'GET', `/api/records/${due.draft}/draft`, depositor)).json();
    expect(draft).toMatchObject({
      status: 'expired',
      parent: { review: { id: due.request, status: 'expired' } },
    });
    // The curators' access ended with the review.
    const theirs = await requestAs(t, 'GET', `/api/records/${due.draft}/draft`, curator);
    expect(theirs.statusCode).toBe(403);

    // A request not yet due is left alone.
    expect(
      (await requestAs(t, 'GET', `/api/records/${fresh.draft}/draft`, depositor)).json().status,
    ).toBe('in_review');
  });
});

describe.runIf(ENGINES.includes('postgres'))('sweep rounds on postgres', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp('postgres', { CAIRN_SWEEP_INTERVAL_SECONDS: '1' });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await t.close();
  });

  it('never starts a round while one runs, and stopping waits for the one that runs', async () => {
    const database = t.config.database;
    if (database.kind !== 'postgres') throw new Error('postgres only');
    // Another connection holds the sessions table: the round blocks in session-cleanup.
    const locker = new pg.Client({
      connectionString: database.url,
      options: `-c search_path=${database.schema}`,
    });
    await locker.connect();
    await locker.query('begin');
    await locker.query('lock table sessions in access exclusive mode');
    const runs: string[] = [];
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stop = startSweeps(t.services, t.app.log, (sweep, outcome) =>
      runs.push(`${sweep}:${outcome}`),
    );
    try {
      await vi.waitFor(() => expect(runs).toContain('doi-registration:done'), {
        timeout: 20_000,
        interval: 20,
      });
      // Five periods pass while the round waits for the table.
      vi.advanceTimersByTime(5_000);
    } finally {
      vi.useRealTimers();
      await locker.query('rollback');
      await locker.end();
    }
    await stop();
    expect(runs.filter((r) => r === 'embargo-lift:done')).toHaveLength(1);
    expect(runs).toContain('session-cleanup:done');
  });
});
