import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectValidationFailed } from '../../test/assertions.js';
import { addMember, createCommunity, requestAs } from '../../test/communities.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';

// Every facet filter and sort of the request searches (`/api/requests`, the caller's own, a
// community's, a record's), results checked on both engines. Creation times are set by hand.

describe.each(ENGINES)('request searches: every filter and sort (%s)', (engine) => {
  let t: TestApp;
  let curator: Caller;
  let depositor: Caller;
  let other: Caller;
  let communityId: string;
  let recordId: string;
  const ids: Record<string, string> = {};
  const nameOf = (id: string) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? id;

  async function names(url: string, caller: Caller) {
    const res = await requestAs(t, 'GET', url, caller);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return (res.json().hits.hits as Array<{ id: string }>).map((h) => nameOf(h.id));
  }

  /** A draft of the depositor with a review request to the community, left `created`. */
  async function review(title: string): Promise<{ draft: string; request: string }> {
    const files = new FilesApi(t, depositor);
    const { id } = await files.createDraft({
      metadata: { ...PUBLISHABLE_METADATA, title },
      files: { enabled: false },
    });
    const res = await requestAs(t, 'PUT', `/api/records/${id}/draft/review`, depositor, {
      type: 'community-submission',
      receiver: { community: communityId },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { draft: id, request: res.json().id as string };
  }

  const act = async (request: string, action: string, caller: Caller) => {
    const res = await requestAs(t, 'POST', `/api/requests/${request}/actions/${action}`, caller);
    expect(res.statusCode, res.body).toBe(200);
  };
  const submit = async (draft: string) => {
    const res = await requestAs(
      t,
      'POST',
      `/api/records/${draft}/draft/actions/submit-review`,
      depositor,
    );
    expect(res.statusCode, res.body).toBe(202);
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    const owner = await t.user();
    curator = await t.user();
    depositor = await t.user();
    other = await t.user();
    communityId = await createCommunity(t, owner, 'reviews', { review_policy: 'closed' });
    await addMember(t, owner, communityId, curator, 'curator');

    const pending = await review('Glacier survey, waiting');
    await submit(pending.draft);
    ids.pending = pending.request;
    const declined = await review('Ocean buoys, declined');
    await submit(declined.draft);
    await act(declined.request, 'decline', curator);
    ids.declined = declined.request;
    const cancelled = await review('Glacier melt, withdrawn');
    await submit(cancelled.draft);
    await act(cancelled.request, 'cancel', depositor);
    ids.cancelled = cancelled.request;
    ids.created = (await review('Unsent lake notes')).request;

    // A published record asked into the community, and accepted.
    const files = new FilesApi(t, depositor);
    recordId = await files.publishedRecord('River gauges');
    const inclusion = await requestAs(
      t,
      'POST',
      `/api/records/${recordId}/communities`,
      depositor,
      {
        communities: [{ id: communityId }],
      },
    );
    expect(inclusion.statusCode, inclusion.body).toBe(200);
    ids.accepted = inclusion.json().processed[0].request_id as string;
    await act(ids.accepted, 'accept', curator);

    let day = 1;
    for (const name of ['pending', 'declined', 'cancelled', 'created', 'accepted']) {
      await t.services.database.db
        .updateTable('requests')
        .set({ createdAt: `2024-02-0${day++}T00:00:00.000Z` })
        .where('id', '=', ids[name]!)
        .execute();
    }
  });
  afterAll(() => t?.close());

  it('lists what each caller takes part in, newest first', async () => {
    // A request still `created` is its creator's alone.
    expect(await names('/api/requests', depositor)).toEqual([
      'accepted',
      'created',
      'cancelled',
      'declined',
      'pending',
    ]);
    expect(await names('/api/requests', curator)).toEqual([
      'accepted',
      'cancelled',
      'declined',
      'pending',
    ]);
    expect(await names('/api/requests', other)).toEqual([]);
    expect(await names('/api/user/requests', curator)).toEqual(
      await names('/api/requests', curator),
    );
  });

  it('filters by is_open, status and type, one value or several', async () => {
    for (const url of ['/api/requests', '/api/user/requests']) {
      expect(await names(`${url}?is_open=true`, depositor)).toEqual(['pending']);
      expect(await names(`${url}?is_open=false`, depositor)).toEqual([
        'accepted',
        'cancelled',
        'declined',
      ]);
      expect(await names(`${url}?status=declined`, depositor)).toEqual(['declined']);
      expect(await names(`${url}?status=created&status=cancelled`, depositor)).toEqual([
        'created',
        'cancelled',
      ]);
      expect(await names(`${url}?type=community-inclusion`, depositor)).toEqual(['accepted']);
      expect(await names(`${url}?type=community-submission&is_open=false`, depositor)).toEqual([
        'cancelled',
        'declined',
      ]);
      expect(await names(`${url}?type=nonsense`, depositor)).toEqual([]);
    }
  });

  it('sorts by newest, oldest and bestmatch, matches q in titles, and pages', async () => {
    const url = '/api/requests';
    expect(await names(`${url}?sort=oldest`, curator)).toEqual([
      'pending',
      'declined',
      'cancelled',
      'accepted',
    ]);
    expect(await names(`${url}?sort=newest`, curator)).toEqual([
      'accepted',
      'cancelled',
      'declined',
      'pending',
    ]);
    expect(await names(`${url}?q=glacier`, curator)).toEqual(['cancelled', 'pending']);
    expect(await names(`${url}?q=glacier&sort=bestmatch`, curator)).toEqual([
      'cancelled',
      'pending',
    ]);
    expect(await names(`${url}?q=glacier&sort=oldest`, curator)).toEqual(['pending', 'cancelled']);
    expect(await names(`${url}?q=%25`, curator)).toEqual([]);
    expect(await names(`${url}?size=3&page=2`, curator)).toEqual(['pending']);
    const page = await requestAs(t, 'GET', `${url}?size=3&page=1`, curator);
    expect(page.json().hits.total).toBe(4);
    expect(page.json().links.next).toContain('page=2');
    expectValidationFailed(await requestAs(t, 'GET', `${url}?sort=title`, curator), [
      { field: 'sort', messages: ["Invalid sort option 'title'."] },
    ]);
  });

  it("filters a community's requests and a record's requests the same way", async () => {
    const community = `/api/communities/${communityId}/requests`;
    expect(await names(community, curator)).toEqual([
      'accepted',
      'cancelled',
      'declined',
      'pending',
    ]);
    expect(await names(`${community}?is_open=true`, curator)).toEqual(['pending']);
    expect(await names(`${community}?type=community-inclusion`, curator)).toEqual(['accepted']);
    expect(await names(`${community}?sort=oldest&size=2`, curator)).toEqual([
      'pending',
      'declined',
    ]);
    expect(await names(`${community}?q=ocean`, curator)).toEqual(['declined']);
    const record = `/api/records/${recordId}/requests`;
    expect(await names(record, depositor)).toEqual(['accepted']);
    expect(await names(`${record}?is_open=true`, depositor)).toEqual([]);
    expect(await names(`${record}?status=accepted`, depositor)).toEqual(['accepted']);
  });
});
