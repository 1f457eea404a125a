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
