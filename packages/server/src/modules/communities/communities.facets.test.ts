import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectValidationFailed } from '../../test/assertions.js';
import { addMember, requestAs } from '../../test/communities.js';
import { FilesApi, type Caller } from '../../test/files.js';

// Every facet filter and sort of the community searches (`/api/communities`, the caller's own,
// a community's members, a record's communities and suggestions), results checked on both
// engines. Creation times are set by hand so every order is known.

interface Fixture {
  slug: string;
  title: string;
  type: string;
  visibility: 'public' | 'restricted';
}

/** In creation order. */
const COMMUNITIES: Fixture[] = [
  { slug: 'arctic', title: 'Arctic observatory', type: 'organization', visibility: 'public' },
  { slug: 'meeting', title: 'Glacier meeting 2024', type: 'event', visibility: 'public' },
  { slug: 'secret', title: 'Glacier secrets', type: 'topic', visibility: 'restricted' },
  { slug: 'glacier', title: 'Glacier', type: 'project', visibility: 'public' },
  { slug: 'untyped', title: 'Rivers of ice', type: '', visibility: 'public' },
];

describe.each(ENGINES)('community searches: every filter and sort (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let member: Caller;
  let outsider: Caller;
  let admin: Caller;
  const ids: Record<string, string> = {};
  const slugOf = (id: string) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? id;
  let recordId: string;

  async function found(url: string, caller?: Caller) {
    const res = await requestAs(t, 'GET', url, caller);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    const body = res.json();
    return {
      slugs: (body.hits.hits as Array<{ id: string }>).map((h) => slugOf(h.id)),
      total: body.hits.total as number,
      aggregations: body.aggregations as Record<
        string,
        { buckets: Array<{ key: string; doc_count: number }> }
      >,
    };
  }
  const slugs = async (url: string, caller?: Caller) => (await found(url, caller)).slugs;

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user('owner@example.org');
    member = await t.user('member@example.org');
    outsider = await t.user('outsider@example.org');
    admin = await t.user('admin@example.org', { admin: true });
    let day = 1;
    for (const c of COMMUNITIES) {
      const res = await requestAs(t, 'POST', '/api/communities', owner, {
        slug: c.slug,
        metadata: { title: c.title, ...(c.type ? { type: { id: c.type } } : {}) },
        access: { visibility: c.visibility, review_policy: 'open' },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids[c.slug] = res.json().id as string;
      await t.services.database.db
        .updateTable('communities')
        .set({ createdAt: `2024-01-0${day++}T00:00:00.000Z` })
        .where('id', '=', ids[c.slug]!)
        .execute();
    }
    await addMember(t, owner, ids.secret!, member, 'reader');
    await addMember(t, owner, ids.arctic!, member, 'curator');
    await addMember(t, owner, ids.arctic!, outsider, 'reader');
    // The outsider hides from the arctic community's public member list.
    const hide = await requestAs(t, 'PUT', `/api/communities/${ids.arctic}/members`, owner, {
      members: [{ type: 'user', id: String(outsider.id) }],
      visible: false,
    });
    expect(hide.statusCode, hide.body).toBe(204);

    const files = new FilesApi(t, owner);
    recordId = await files.publishedRecord('Ice cores');
    const included = await requestAs(t, 'POST', `/api/records/${recordId}/communities`, owner, {
      communities: [{ id: ids.meeting }, { id: ids.arctic }],
    });
    expect(included.statusCode, included.body).toBe(200);
    expect(included.json().errors).toBeUndefined();
  });
  afterAll(() => t?.close());

  describe('GET /api/communities', () => {
    it('lists what the caller may see, newest first, with type and visibility facets', async () => {
      const anonymous = await found('/api/communities');
      expect(anonymous.slugs).toEqual(['untyped', 'glacier', 'meeting', 'arctic']);
      expect(anonymous.total).toBe(4);
      const buckets = (name: string, f: typeof anonymous) =>
        Object.fromEntries(f.aggregations[name]!.buckets.map((b) => [b.key, b.doc_count]));
      expect(buckets('type', anonymous)).toEqual({ organization: 1, event: 1, project: 1 });
      expect(buckets('visibility', anonymous)).toEqual({ public: 4 });
      // Members see their restricted community; administrators see all.
      expect(await slugs('/api/communities', member)).toEqual([
        'untyped',
        'glacier',
        'secret',
        'meeting',
        'arctic',
      ]);
      expect(await slugs('/api/communities', outsider)).toHaveLength(4);
      expect(buckets('visibility', await found('/api/communities', admin))).toEqual({
        public: 4,
        restricted: 1,
      });
    });

    it('filters by type and visibility, one value or several', async () => {
      expect(await slugs('/api/communities?type=event')).toEqual(['meeting']);
      expect(await slugs('/api/communities?type=event&type=organization')).toEqual([
        'meeting',
        'arctic',
      ]);
      expect(await slugs('/api/communities?type=topic')).toEqual([]);
      expect(await slugs('/api/communities?type=topic', member)).toEqual(['secret']);
      expect(await slugs('/api/communities?type=nonsense')).toEqual([]);
      expect(await slugs('/api/communities?visibility=restricted')).toEqual([]);
      expect(await slugs('/api/communities?visibility=restricted', member)).toEqual(['secret']);
      expect(await slugs('/api/communities?visibility=public&type=project', admin)).toEqual([
        'glacier',
      ]);
    });

    it('sorts by bestmatch, newest and oldest, and pages', async () => {
      // Best match: the exact title, then titles starting with the words, then the newest.
      expect(await slugs('/api/communities?q=glacier', member)).toEqual([
        'glacier',
        'secret',
        'meeting',
      ]);
      expect(await slugs('/api/communities?q=glacier&sort=bestmatch')).toEqual([
        'glacier',
        'meeting',
      ]);
      expect(await slugs('/api/communities?q=glacier&sort=oldest', member)).toEqual([
        'meeting',
        'secret',
        'glacier',
      ]);
      expect(await slugs('/api/communities?q=glacier&sort=newest', member)).toEqual([
        'glacier',
        'secret',
        'meeting',
      ]);
      expect(await slugs('/api/communities?sort=oldest')).toEqual([
        'arctic',
        'meeting',
        'glacier',
        'untyped',
      ]);
      // Without a query, bestmatch is newest.
      expect(await slugs('/api/communities?sort=bestmatch')).toEqual([
        'untyped',
        'glacier',
        'meeting',
        'arctic',
      ]);
      expect(await slugs('/api/communities?q=ice')).toEqual(['untyped']);
      expect(await slugs('/api/communities?q=glac%20meet')).toEqual(['meeting']);
      const page = await found('/api/communities?size=3&page=2');
      expect(page).toMatchObject({ slugs: ['arctic'], total: 4 });
      expectValidationFailed(await requestAs(t, 'GET', '/api/communities?sort=title'), [
        { field: 'sort', messages: ["Invalid sort option 'title'."] },
      ]);
    });
  });

  describe('GET /api/user/communities', () => {
    it("lists the caller's communities with the same filters and sorts", async () => {
      expect(await slugs('/api/user/communities', member)).toEqual(['secret', 'arctic']);
      expect(await slugs('/api/user/communities?sort=oldest', member)).toEqual([
        'arctic',
        'secret',
      ]);
      expect(await slugs('/api/user/communities?visibility=restricted', member)).toEqual([
        'secret',
      ]);
      expect(await slugs('/api/user/communities?type=organization', member)).toEqual(['arctic']);
      expect(await slugs('/api/user/communities?q=glacier', member)).toEqual(['secret']);
      expect(await slugs('/api/user/communities?size=1&page=2', member)).toEqual(['arctic']);
      expect(await slugs('/api/user/communities', owner)).toHaveLength(5);
    });
  });

  describe('GET /api/communities/{id}/members and members/public', () => {
    const names = async (url: string, caller?: Caller) => {
      const res = await requestAs(t, 'GET', url, caller);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      return (res.json().hits.hits as Array<{ member: { id: string } }>).map(
        (h) => [owner, member, outsider].find((u) => String(u.id) === h.member.id)!.email,
      );
    };

    it('filters members by role and by q, sorted by name, and pages', async () => {
      const url = `/api/communities/${ids.arctic}/members`;
      expect(await names(url, owner)).toEqual([
        'member@example.org',
        'outsider@example.org',
        'owner@example.org',
      ]);
      expect(await names(`${url}?role=curator`, owner)).toEqual(['member@example.org']);
      expect(await names(`${url}?role=owner&role=reader`, owner)).toEqual([
        'outsider@example.org',
        'owner@example.org',
      ]);
      expect(await names(`${url}?role=manager`, owner)).toEqual([]);
      expect(await names(`${url}?q=outs`, owner)).toEqual(['outsider@example.org']);
      expect(await names(`${url}?sort=name&size=1&page=2`, owner)).toEqual([
        'outsider@example.org',
      ]);
      // The public list leaves out who chose not to show.
      expect(await names(`${url}/public`)).toEqual(['member@example.org', 'owner@example.org']);
      expect(await names(`${url}/public?q=memb`)).toEqual(['member@example.org']);
      // It names no roles, so it is not filtered by them either.
      expect(await names(`${url}/public?role=curator`)).toEqual([
        'member@example.org',
        'owner@example.org',
      ]);
    });
  });

  describe("a record's communities and suggestions", () => {
    it('searches the communities a record is in, and those it could join', async () => {
      const url = `/api/records/${recordId}/communities`;
      expect(await slugs(url)).toEqual(['meeting', 'arctic']);
      expect(await slugs(`${url}?sort=oldest`)).toEqual(['arctic', 'meeting']);
      expect(await slugs(`${url}?q=glacier`)).toEqual(['meeting']);
      expect(await slugs(`${url}?type=organization`)).toEqual(['arctic']);
      const suggestions = `/api/records/${recordId}/communities-suggestions`;
      expect(await slugs(suggestions, owner)).toEqual(['untyped', 'glacier', 'secret']);
      expect(await slugs(`${suggestions}?q=glacier`, owner)).toEqual(['glacier', 'secret']);
      expect(await slugs(`${suggestions}?visibility=restricted`, owner)).toEqual(['secret']);
      expect(await slugs(`${suggestions}?membership=true&sort=oldest`, owner)).toEqual([
        'secret',
        'glacier',
        'untyped',
      ]);
    });
  });
});
