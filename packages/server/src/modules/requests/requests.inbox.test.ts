import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { addMember, createCommunity, requestAs } from '../../test/communities.js';
import { PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';
import type { User } from '../users/users.service.js';

const SITE = 'https://cairn.test';
const CALLERS = ['anonymous', 'depositor', 'otherCurator', 'curator', 'admin'] as const;
type Who = (typeof CALLERS)[number];

// The curators' inbox (the web app's /me/requests and a community's requests page) reads the
// requests search with Cairn's own parameters: `created_by=me`, `community`, `sort=updated`, the
// comment count of each hit, and the header's count. Each is checked here for each kind of caller:
// who finds which requests, and who is refused.
describe.each(ENGINES)('the requests inbox on %s', (engine) => {
  let t: TestApp;
  const callers = {} as Record<Exclude<Who, 'anonymous'>, Caller>;
  let alpha: string;
  let beta: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    const ownerA = await t.user();
    const ownerB = await t.user();
    callers.depositor = await t.user();
    callers.curator = await t.user();
    callers.otherCurator = await t.user();
    callers.admin = await t.user(undefined, { admin: true });
    alpha = await createCommunity(t, ownerA, 'alpha', {});
    beta = await createCommunity(t, ownerB, 'beta', {});
    await addMember(t, ownerA, alpha, callers.curator, 'curator');
    await addMember(t, ownerB, beta, callers.otherCurator, 'curator');

    const user = async (c: Caller): Promise<User> => (await t.services.users.findById(c.id))!;
    // Inclusions straight from the service (no record needed); the submission as a depositor
    // makes one, through its draft.
    const submitted = async (by: Caller, communityId: string, title: string) => {
      const row = await t.services.requests.create({
        type: 'community-inclusion',
        createdBy: by.id,
        communityId,
        topicRecordId: null,
        title,
      });
      return (await t.services.requests.run(row, 'submit', await user(by))).row;
    };
    const closed = await submitted(callers.depositor, alpha, 'Alpha closed');
    await t.services.requests.run(closed, 'decline', await user(callers.curator));
    await submitted(callers.depositor, beta, 'Beta open');
    const draft = await requestAs(t, 'POST', '/api/records', callers.depositor, {
      metadata: { ...PUBLISHABLE_METADATA, title: 'Gamma submission' },
      files: { enabled: false },
    });
    const draftId = draft.json().id as string;
    const review = await requestAs(
      t,
      'PUT',
      `/api/records/${draftId}/draft/review`,
      callers.depositor,
      { type: 'community-submission', receiver: { community: alpha } },
    );
    expect(review.statusCode, review.body).toBe(200);
    const sent = await requestAs(
      t,
      'POST',
      `/api/records/${draftId}/draft/actions/submit-review`,
      callers.depositor,
    );
    expect(sent.statusCode, sent.body).toBe(202);
    await submitted(callers.curator, beta, 'Curator’s own');
    const open = await submitted(callers.depositor, alpha, 'Alpha open');
    for (const by of [callers.depositor, callers.curator]) {
      const res = await requestAs(t, 'POST', `/api/requests/${open.id}/comments`, by, {
        payload: { content: '<p>A word</p>', format: 'html' },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(() => t?.close());

  /** What each caller finds at `url`: the titles in order, or the refusal's status. */
  async function seen(url: string): Promise<Record<Who, string[] | number>> {
    const out = {} as Record<Who, string[] | number>;
    for (const who of CALLERS) {
      const res = await requestAs(t, 'GET', url, who === 'anonymous' ? undefined : callers[who]);
      out[who] =
        res.statusCode === 200
          ? res.json<{ hits: { hits: Array<{ title: string }> } }>().hits.hits.map((h) => h.title)
          : res.statusCode;
    }
    return out;
  }

  it('lists what each takes part in, newest first', async () => {
    expect(await seen('/api/user/requests')).toEqual({
      anonymous: 403,
      depositor: ['Alpha open', 'Gamma submission', 'Beta open', 'Alpha closed'],
      otherCurator: ['Curator’s own', 'Beta open'],
      curator: ['Alpha open', 'Curator’s own', 'Gamma submission', 'Alpha closed'],
      // Its own inbox: administrators act on every request, but are members of none here.
      admin: [],
    });
  });

  it('narrows to what the caller created with created_by=me', async () => {
    const mine = {
      anonymous: 403,
      depositor: ['Alpha open', 'Gamma submission', 'Beta open', 'Alpha closed'],
      otherCurator: [],
      curator: ['Curator’s own'],
      admin: [],
    };
    expect(await seen('/api/user/requests?created_by=me')).toEqual(mine);
    expect(await seen('/api/requests?created_by=me')).toEqual(mine);
    // Only `me` can match, as an unknown facet value matches nothing.
    expect(await seen('/api/user/requests?created_by=someone')).toEqual({
      anonymous: 403,
      depositor: [],
      otherCurator: [],
      curator: [],
      admin: [],
    });
  });

  it('narrows to one community with community=, only among what the caller may see', async () => {
    expect(await seen(`/api/requests?community=${alpha}`)).toEqual({
      anonymous: 403,
      depositor: ['Alpha open', 'Gamma submission', 'Alpha closed'],
      otherCurator: [],
      curator: ['Alpha open', 'Gamma submission', 'Alpha closed'],
      admin: ['Alpha open', 'Gamma submission', 'Alpha closed'],
    });
    expect(await seen(`/api/user/requests?community=${beta}&is_open=true`)).toEqual({
      anonymous: 403,
      depositor: ['Beta open'],
      otherCurator: ['Curator’s own', 'Beta open'],
      curator: ['Curator’s own'],
      admin: [],
    });
    // Several communities are OR-ed; one that is no uuid matches nothing.
    expect(
      (await seen(`/api/user/requests?community=${alpha}&community=${beta}&is_open=false`))
        .depositor,
    ).toEqual(['Alpha closed']);
    expect((await seen('/api/user/requests?community=alpha')).curator).toEqual([]);
  });

  it('sorts by the latest activity with sort=updated, and filters by type', async () => {
    expect(
      await seen(`/api/communities/${alpha}/requests?sort=updated&type=community-inclusion`),
    ).toEqual({
      anonymous: 403,
      depositor: 403,
      otherCurator: 403,
      curator: ['Alpha open', 'Alpha closed'],
      admin: ['Alpha open', 'Alpha closed'],
    });
    // The comments made "Alpha open" the latest; the oldest activity first with oldest is not it.
    expect((await seen('/api/user/requests?sort=updated')).curator).toEqual([
      'Alpha open',
      'Curator’s own',
      'Gamma submission',
      'Alpha closed',
    ]);
    const res = await requestAs(
      t,
      'GET',
      `/api/user/requests?sort=updated&created_by=me&community=${alpha}&size=2`,
      callers.depositor,
    );
    expect(res.json().sortBy).toBe('updated');
    expect(res.json().links.next).toBe(
      `${SITE}/api/user/requests?page=2&size=2&sort=updated&community=${alpha}&created_by=me`,
    );
    const refused = await requestAs(
      t,
      'GET',
      '/api/user/requests?sort=activity',
      callers.depositor,
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain("Invalid sort option 'activity'.");
  });

  it('counts the comments of each hit and names its creator and community on expand=1', async () => {
    const res = await requestAs(
      t,
      'GET',
      `/api/user/requests?community=${alpha}&expand=1`,
      callers.curator,
    );
    expect(res.statusCode, res.body).toBe(200);
    type Hit = { id: string; title: string; comment_count: number; expanded?: unknown } & {
      links: { self_html: string };
    };
    const hits = res.json<{ hits: { hits: Hit[] } }>().hits.hits;
    expect(hits.map((h) => [h.title, h.comment_count])).toEqual([
      ['Alpha open', 2],
      ['Gamma submission', 0],
      ['Alpha closed', 0],
    ]);
    expect(hits[0]!.expanded).toMatchObject({
      created_by: { id: String(callers.depositor.id), profile: { full_name: expect.any(String) } },
      receiver: { id: alpha, slug: 'alpha', metadata: { title: 'alpha' } },
    });
    expect(JSON.stringify(hits[0]!.expanded)).not.toContain(callers.depositor.email);
    expect(hits[0]!.links.self_html).toBe(`${SITE}/me/requests/${hits[0]!.id}`);
    // Without expand=1, no names.
    const plain = await requestAs(t, 'GET', '/api/user/requests', callers.curator);
    expect(plain.json().hits.hits[0].expanded).toBeUndefined();
    expect(plain.json().hits.hits[0].comment_count).toBe(2);
  });

  it('counts the open requests waiting for each one’s decision', async () => {
    const counts = {} as Record<Who, unknown>;
    for (const who of CALLERS) {
      const res = await requestAs(
        t,
        'GET',
        '/api/user/requests/count',
        who === 'anonymous' ? undefined : callers[who],
      );
      counts[who] = res.statusCode === 200 ? res.json() : res.statusCode;
    }
    expect(counts).toEqual({
      anonymous: 403,
      depositor: { awaiting: 0 },
      otherCurator: { awaiting: 2 },
      curator: { awaiting: 2 },
      admin: { awaiting: 0 },
    });
  });

  // Last: it comments, which moves the latest activity the tests above sort by.
  it('marks as unread what changed since the person last opened it, and opening it marks it seen', async () => {
    const unread = async (who: Exclude<Who, 'anonymous'>) =>
      Object.fromEntries(
        (await requestAs(t, 'GET', '/api/user/requests?is_open=true', callers[who]))
          .json<{ hits: { hits: Array<{ title: string; is_unread: boolean }> } }>()
          .hits.hits.map((h) => [h.title, h.is_unread]),
      );
    // Its own submission, its own comment, its own decision are no news; the rest was never opened.
    expect(await unread('curator')).toEqual({
      'Alpha open': false,
      'Curator’s own': false,
      'Gamma submission': true,
    });
    expect(await unread('depositor')).toEqual({
      'Alpha open': true,
      'Gamma submission': false,
      'Beta open': false,
    });
    const gamma = (await requestAs(t, 'GET', '/api/user/requests?q=gamma', callers.curator)).json<{
      hits: { hits: Array<{ id: string }> };
    }>().hits.hits[0]!.id;
    const seen = (caller?: Caller) => requestAs(t, 'PUT', `/api/requests/${gamma}/seen`, caller);

    // Who may mark it: those who may read it.
    const cells: Record<string, number> = {};
    for (const who of CALLERS) {
      cells[who] = (await seen(who === 'anonymous' ? undefined : callers[who])).statusCode;
    }
    expect(cells).toEqual({
      anonymous: 403,
      depositor: 204,
      otherCurator: 403,
      curator: 204,
      admin: 204,
    });
    expect(
      (
        await requestAs(
          t,
          'PUT',
          '/api/requests/00000000-0000-4000-8000-000000000000/seen',
          callers.admin,
        )
      ).statusCode,
    ).toBe(404);
    expect((await unread('curator'))['Gamma submission']).toBe(false);

    // A comment by someone else makes it news again, until the curator opens it.
    const said = await requestAs(t, 'POST', `/api/requests/${gamma}/comments`, callers.depositor, {
      payload: { content: '<p>Any news?</p>', format: 'html' },
    });
    expect(said.statusCode, said.body).toBe(201);
    expect((await unread('curator'))['Gamma submission']).toBe(true);
    expect((await unread('depositor'))['Gamma submission']).toBe(false);

    // Opened in several tabs at once: every mark succeeds, one row is kept.
    const marks = await Promise.all(Array.from({ length: 8 }, () => seen(callers.curator)));
    expect(marks.map((m) => m.statusCode)).toEqual(Array(8).fill(204));
    expect((await unread('curator'))['Gamma submission']).toBe(false);
    const rows = await t.services.database.db
      .selectFrom('requestReads')
      .select('seenAt')
      .where('requestId', '=', gamma)
      .where('userId', '=', callers.curator.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('counts as seen what had no activity since the database began keeping read marks', async () => {
    // As after an upgrade: the marks begin now, after every request so far. Only activity from
    // now on is news; before, every earlier request read as new to everyone.
    const since = new Date(Date.now() + 1000).toISOString();
    await sql`update kysely_migration set timestamp = ${since} where name = '0023_requests_inbox'`.execute(
      t.services.database.db,
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const unread = async () =>
        Object.fromEntries(
          (await requestAs(t, 'GET', '/api/user/requests?is_open=true', callers.curator))
            .json<{ hits: { hits: Array<{ title: string; is_unread: boolean }> } }>()
            .hits.hits.map((h) => [h.title, h.is_unread]),
        );
      expect(await unread()).toEqual({
        'Alpha open': false,
        'Curator’s own': false,
        'Gamma submission': false,
      });
      const alphaOpen = (
        await requestAs(t, 'GET', '/api/user/requests?is_open=true', callers.curator)
      )
        .json<{ hits: { hits: Array<{ id: string; title: string }> } }>()
        .hits.hits.find((h) => h.title === 'Alpha open')!.id;
      const said = await requestAs(
        t,
        'POST',
        `/api/requests/${alphaOpen}/comments`,
        callers.depositor,
        {
          payload: { content: '<p>Still there?</p>', format: 'html' },
        },
      );
      expect(said.statusCode, said.body).toBe(201);
      expect(await unread()).toEqual({
        'Alpha open': true,
        'Curator’s own': false,
        'Gamma submission': false,
      });
    } finally {
      await sql`update kysely_migration set timestamp = ${new Date(0).toISOString()} where name = '0023_requests_inbox'`.execute(
        t.services.database.db,
      );
    }
  });

  it('tells the total of a title search on every page, past the last and without a match', async () => {
    // The search counts its matches beside its page; past the last page it counts them alone.
    const page = async (query: string) => {
      const res = await requestAs(t, 'GET', `/api/user/requests?${query}`, callers.depositor);
      expect(res.statusCode, res.body).toBe(200);
      const { hits } = res.json<{ hits: { hits: Array<{ title: string }>; total: number } }>();
      return { total: hits.total, titles: hits.hits.map((h) => h.title) };
    };
    const first = await page('q=OPEN&size=1');
    const second = await page('q=open&size=1&page=2');
    expect([first.total, second.total]).toEqual([2, 2]);
    expect([...first.titles, ...second.titles].sort()).toEqual(['Alpha open', 'Beta open']);
    expect(await page('q=open&size=1&page=3')).toEqual({ total: 2, titles: [] });
    expect(await page('q=nowhere')).toEqual({ total: 0, titles: [] });
  });
});
