import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import type { TestApp } from '../../test/app.js';
import { addMember, createCommunity, requestAs } from '../../test/communities.js';
import type { Caller } from '../../test/files.js';
import { bootstrapOf, createPagesTestApp } from '../../test/pages.js';

// The inbox's pages: `/me/requests` for anyone signed in, a community's requests page for its
// curators, managers and owners (and administrators) only; and every page tells the header how
// many open requests wait for the person, so that its first render asks nothing.
describe.each(ENGINES)('the requests pages (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let curator: Caller;
  let reader: Caller;
  let outsider: Caller;
  let admin: Caller;

  beforeAll(async () => {
    t = await createPagesTestApp(engine);
    [owner, curator, reader, outsider] = [
      await t.user(),
      await t.user(),
      await t.user(),
      await t.user(),
    ];
    admin = await t.user(undefined, { admin: true });
    const community = await createCommunity(t, owner, 'seabirds', {});
    await addMember(t, owner, community, curator, 'curator');
    await addMember(t, owner, community, reader, 'reader');
    const row = await t.services.requests.create({
      type: 'community-inclusion',
      createdBy: outsider.id,
      communityId: community,
      topicRecordId: null,
      title: 'Gannets',
    });
    await t.services.requests.run(row, 'submit', (await t.services.users.findById(outsider.id))!);
  });
  afterAll(() => t?.close());

  const page = (url: string, caller?: Caller) => requestAs(t, 'GET', url, caller);

  it('serves /me/requests to the signed-in, and sends others to log in', async () => {
    const res = await page('/me/requests', outsider);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Requests | ');
    const anonymous = await page('/me/requests?state=closed');
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toBe(
      `/login?next=${encodeURIComponent('/me/requests?state=closed')}`,
    );
  });

  it("serves a community's requests page to those who curate it, the error page to others", async () => {
    const cells: Record<string, number> = {};
    for (const [who, caller] of Object.entries({ owner, curator, reader, outsider, admin })) {
      const res = await page('/communities/seabirds/requests', caller);
      cells[who] = res.statusCode;
      if (res.statusCode === 403) {
        expect(bootstrapOf(res.body)['error']).toEqual({
          status: 403,
          message: 'Permission denied.',
        });
      }
    }
    expect(cells).toEqual({ owner: 200, curator: 200, reader: 403, outsider: 403, admin: 200 });
    expect((await page('/communities/seabirds/requests')).statusCode).toBe(302);
    expect((await page('/communities/nowhere/requests', admin)).statusCode).toBe(404);
  });

  it("serves a community's members page to its members, the error page to others", async () => {
    const cells: Record<string, number> = {};
    for (const [who, caller] of Object.entries({ owner, curator, reader, outsider, admin })) {
      const res = await page('/communities/seabirds/members', caller);
      cells[who] = res.statusCode;
      if (res.statusCode === 200) expect(res.body).toContain('<title>Community members | ');
    }
    expect(cells).toEqual({ owner: 200, curator: 200, reader: 200, outsider: 403, admin: 200 });
    expect((await page('/communities/seabirds/members')).statusCode).toBe(302);
    expect((await page('/communities/nowhere/members', admin)).statusCode).toBe(404);
  });

  it('tells the header how many open requests wait for the person', async () => {
    const counts: Record<string, unknown> = {};
    for (const [who, caller] of Object.entries({ owner, curator, reader, outsider, admin })) {
      counts[who] = bootstrapOf((await page('/communities', caller)).body)['awaitingRequests'];
    }
    expect(counts).toEqual({ owner: 1, curator: 1, reader: 0, outsider: 0, admin: 0 });
    expect(bootstrapOf((await page('/communities')).body)['awaitingRequests']).toBeNull();
  });
});
