import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectError, expectValidationFailed } from '../../test/assertions.js';
import { addMember, createCommunity, makeDue, requestAs } from '../../test/communities.js';
import type { Caller } from '../../test/files.js';

const SITE = 'https://cairn.test';
const ALREADY = 'A member was already added or invited.';

// Invitations and requests to join, as InvenioRDM's members API has them: each a request that
// its receiver accepts or declines, after which the person is a member (or not).
describe.each(ENGINES)('community invitations and membership requests on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let manager: Caller;
  let curator: Caller;
  let admin: Caller;

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    manager = await t.user();
    curator = await t.user();
    admin = await t.user(undefined, { admin: true });
  });
  afterAll(() => t.close());

  let n = 0;
  /** A community with a manager and a curator besides its owner. */
  async function community(access: Record<string, string> = {}) {
    const id = await createCommunity(t, owner, `members-${++n}`, access);
    await addMember(t, owner, id, manager, 'manager');
    await addMember(t, owner, id, curator, 'curator');
    return id;
  }
  const invite = (c: string, by: Caller, body: object) =>
    requestAs(t, 'POST', `/api/communities/${c}/invitations`, by, body);
  const users = (...callers: Caller[]) => callers.map((c) => ({ type: 'user', id: String(c.id) }));
  const members = async (c: string) =>
    (await requestAs(t, 'GET', `/api/communities/${c}/members?size=100`, owner)).json().hits
      .hits as Array<{ member: { id: string }; role: string; visible: boolean }>;
  const roleOf = async (c: string, who: Caller) =>
    (await members(c)).find((m) => m.member.id === String(who.id))?.role;
  /** The person's open invitation to `c`, as its inbox lists it. */
  async function invitationOf(who: Caller, c: string) {
    const res = await requestAs(
      t,
      'GET',
      `/api/requests?type=community-invitation&is_open=true&community=${c}`,
      who,
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json().hits.hits[0] as Record<string, any> | undefined;
  }
  const act = (id: string, action: string, by: Caller, body?: object) =>
    requestAs(t, 'POST', `/api/requests/${id}/actions/${action}`, by, body);

  it('invites a user, who accepts and becomes a member with the role offered', async () => {
    const c = await community();
    const invitee = await t.user();
    const res = await invite(c, manager, {
      members: users(invitee),
      role: 'curator',
      message: '<p>Join us!</p>',
    });
    expect(res.statusCode, res.body).toBe(204);

    const request = (await invitationOf(invitee, c))!;
    expect(request).toMatchObject({
      type: 'community-invitation',
      status: 'submitted',
      title: 'Invitation to join "members-1"',
      created_by: { community: c },
      receiver: { user: String(invitee.id) },
      topic: { community: c },
      links: { self_html: `${SITE}/me/requests/${request.id}` },
    });
    expect(Object.keys(request.links.actions).sort()).toEqual(['accept', 'decline']);
    // The header counts it as waiting for the invitee.
    const count = await requestAs(t, 'GET', '/api/user/requests/count', invitee);
    expect(count.json()).toEqual({ awaiting: 1 });
    // The message is the conversation's first comment.
    const timeline = await requestAs(t, 'GET', `/api/requests/${request.id}/timeline`, invitee);
    expect(timeline.json().hits.hits[0].payload.content).toBe('<p>Join us!</p>');

    // Pending, it is listed with the role it would give and is no membership yet.
    const listed = await requestAs(t, 'GET', `/api/communities/${c}/invitations`, owner);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().hits.hits).toMatchObject([
      {
        id: request.id,
        member: { type: 'user', id: String(invitee.id) },
        role: 'curator',
        visible: true,
        request: { id: request.id, status: 'submitted', is_open: true },
        permissions: { can_update_role: true, can_cancel: true },
      },
    ]);
    expect(await roleOf(c, invitee)).toBeUndefined();

    // Not the community's to accept: only the invitee may.
    expect((await act(request.id, 'accept', owner)).statusCode).toBe(403);
    const accepted = await act(request.id, 'accept', invitee);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().status).toBe('accepted');
    expect(await roleOf(c, invitee)).toBe('curator');
    const after = await requestAs(
      t,
      'GET',
      `/api/communities/${c}/invitations?is_open=false`,
      owner,
    );
    expect(after.json().hits.hits).toMatchObject([
      { id: request.id, request: { status: 'accepted', is_open: false } },
    ]);
    // Now a member, it can be neither invited nor added again.
    expectError(
      await invite(c, owner, { members: users(invitee), role: 'reader' }),
      400,
      'VALIDATION_FAILED',
      ALREADY,
    );
  });

  it('lets the invitee decline, and the managers change the role offered or cancel', async () => {
    const c = await community();
    const [a, b] = [await t.user(), await t.user()];
    expect((await invite(c, owner, { members: users(a, b), role: 'reader' })).statusCode).toBe(204);
    const ra = (await invitationOf(a, c))!;
    const rb = (await invitationOf(b, c))!;

    const declined = await act(ra.id, 'decline', a);
    expect(declined.json().status).toBe('declined');
    expect(await roleOf(c, a)).toBeUndefined();

    // The role offered to b changes before b answers; a manager may not offer owner.
    const raise = await requestAs(t, 'PUT', `/api/communities/${c}/invitations`, manager, {
      members: users(b),
      role: 'owner',
    });
    expect(raise.statusCode).toBe(403);
    const change = await requestAs(t, 'PUT', `/api/communities/${c}/invitations`, manager, {
      members: users(b),
      role: 'manager',
    });
    expect(change.statusCode, change.body).toBe(204);
    // Any manager cancels the community's invitation, not only its author.
    expect(rb.links.actions.cancel).toBeUndefined();
    const asManager = await requestAs(t, 'GET', `/api/requests/${rb.id}`, manager);
    expect(Object.keys(asManager.json().links.actions)).toEqual(['cancel']);
    const cancelled = await act(rb.id, 'cancel', manager);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await roleOf(c, b)).toBeUndefined();
    // Once closed, neither may be re-offered a role; a new invitation is possible.
    const late = await requestAs(t, 'PUT', `/api/communities/${c}/invitations`, owner, {
      members: users(b),
      role: 'reader',
    });
    expectValidationFailed(late, [
      { field: 'members.0.id', messages: ['No open invitation for this user.'] },
    ]);
    expect((await invite(c, owner, { members: users(b), role: 'reader' })).statusCode).toBe(204);
  });

  it('refuses bad invitations with the contract’s errors and invites no one', async () => {
    const c = await community();
    const stranger = await t.user();
    const x = await t.user();
    const cases: Array<[Caller | undefined, object, number]> = [
      [manager, { members: [{ type: 'user', id: '999999' }], role: 'reader' }, 400],
      // Past the database's integer column: no such user, not a failed query.
      [manager, { members: [{ type: 'user', id: 9007199254740992 }], role: 'reader' }, 400],
      [manager, { members: [{ type: 'user', id: '2147483648' }], role: 'reader' }, 400],
      [manager, { members: users(x), role: 'emperor' }, 400],
      [manager, { members: users(x) }, 400],
      [manager, { members: users(x, x), role: 'reader' }, 400],
      [manager, { members: [], role: 'reader' }, 400],
      [manager, { members: users(x), role: 'reader', message: 7 }, 400],
      // Managers may not make owners; curators, readers and strangers invite no one.
      [manager, { members: users(x), role: 'owner' }, 403],
      [curator, { members: users(x), role: 'reader' }, 403],
      [stranger, { members: users(x), role: 'reader' }, 403],
      [undefined, { members: users(x), role: 'reader' }, 403],
    ];
    for (const [by, body, status] of cases) {
      const res = await invite(c, by!, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
    }
    // One already a member spoils the whole call: the other is not invited either.
    const res = await invite(c, owner, { members: users(x, curator), role: 'reader' });
    expectError(res, 400, 'VALIDATION_FAILED', ALREADY);
    expect(await invitationOf(x, c)).toBeUndefined();
    expect(
      (await invite('no-such-community', owner, { members: users(x), role: 'reader' })).statusCode,
    ).toBe(404);
    // Someone else cannot accept x's invitation.
    expect((await invite(c, owner, { members: users(x), role: 'reader' })).statusCode).toBe(204);
    const request = (await invitationOf(x, c))!;
    expect((await act(request.id, 'accept', stranger)).statusCode).toBe(403);
    expect((await requestAs(t, 'GET', `/api/requests/${request.id}`, stranger)).statusCode).toBe(
      403,
    );
    // Invited twice, and added directly while invited: both refused.
    expectError(
      await invite(c, owner, { members: users(x), role: 'reader' }),
      400,
      'VALIDATION_FAILED',
      ALREADY,
    );
    const add = await requestAs(t, 'POST', `/api/communities/${c}/members`, owner, {
      members: users(x),
      role: 'reader',
    });
    expectError(add, 400, 'VALIDATION_FAILED', ALREADY);
    // The lists are the managers'.
    for (const path of ['invitations', 'membership-requests'])
      for (const who of [curator, stranger])
        expect((await requestAs(t, 'GET', `/api/communities/${c}/${path}`, who)).statusCode).toBe(
          403,
        );
    expect((await requestAs(t, 'GET', `/api/communities/${c}/invitations`, admin)).statusCode).toBe(
      200,
    );
  });

  it('invites once when the same invitation is sent in parallel', async () => {
    const c = await community();
    const x = await t.user();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        invite(c, i % 2 ? owner : manager, { members: users(x), role: 'reader' }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 204)).toHaveLength(1);
    for (const r of results.filter((r) => r.statusCode !== 204))
      expectError(r, 400, 'VALIDATION_FAILED', ALREADY);
    const listed = await requestAs(t, 'GET', `/api/communities/${c}/invitations`, owner);
    expect(listed.json().hits.total).toBe(1);
    // One request was made: the refused ones left none behind.
    const all = await t.services.database.db
      .selectFrom('requests')
      .select('id')
      .where('receiverUserId', '=', x.id)
      .execute();
    expect(all).toHaveLength(1);
  });

  it('takes a request to join an open community, which its managers accept with a role', async () => {
    const c = await community();
    const asker = await t.user();
    const res = await requestAs(t, 'POST', `/api/communities/${c}/membership-requests`, asker, {
      message: 'I work on this.',
    });
    expect(res.statusCode, res.body).toBe(201);
    const request = res.json();
    expect(request).toMatchObject({
      type: 'community-membership-request',
      status: 'submitted',
      created_by: { user: String(asker.id) },
      receiver: { community: c },
      topic: { community: c },
    });
    // A second while it is open.
    expectError(
      await requestAs(t, 'POST', `/api/communities/${c}/membership-requests`, asker, {}),
      400,
      'VALIDATION_FAILED',
      'You already have an open invitation or request to join this community.',
    );
    // The managers decide, not the curators, who neither see it in their inbox.
    const curatorsInbox = await requestAs(t, 'GET', `/api/requests?community=${c}`, curator);
    expect(curatorsInbox.json().hits.total).toBe(0);
    expect((await requestAs(t, 'GET', '/api/user/requests/count', curator)).json()).toEqual({
      awaiting: 0,
    });
    expect((await act(request.id, 'accept', curator)).statusCode).toBe(403);
    const managersInbox = await requestAs(t, 'GET', `/api/requests?community=${c}`, manager);
    expect(managersInbox.json().hits.hits.map((h: { id: string }) => h.id)).toEqual([request.id]);
    expect((await requestAs(t, 'GET', '/api/user/requests/count', manager)).json()).toEqual({
      awaiting: 1,
    });

    const listed = await requestAs(t, 'GET', `/api/communities/${c}/membership-requests`, manager);
    expect(listed.json().hits.hits).toMatchObject([
      {
        member: { id: String(asker.id) },
        role: 'reader',
        permissions: { can_accept: true, can_decline: true, can_update_role: true },
      },
    ]);
    const choose = await requestAs(t, 'PUT', `/api/communities/${c}/membership-requests`, manager, {
      members: users(asker),
      role: 'curator',
    });
    expect(choose.statusCode, choose.body).toBe(204);
    const accepted = await act(request.id, 'accept', manager);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await roleOf(c, asker)).toBe('curator');
    // Now a member: asking again is refused with why.
    expectError(
      await requestAs(t, 'POST', `/api/communities/${c}/membership-requests`, asker, {}),
      400,
      'VALIDATION_FAILED',
      'You are already a member of this community.',
    );
  });

  it('refuses requests to join a closed community, anonymous ones, and counts one of parallel ones', async () => {
    const closed = await community({ member_policy: 'closed' });
    const asker = await t.user();
    expectError(
      await requestAs(t, 'POST', `/api/communities/${closed}/membership-requests`, asker, {}),
      403,
      'PERMISSION_DENIED',
      'This community does not accept membership requests.',
    );
    const open = await community();
    expect(
      (await requestAs(t, 'POST', `/api/communities/${open}/membership-requests`, undefined, {}))
        .statusCode,
    ).toBe(403);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        requestAs(t, 'POST', `/api/communities/${open}/membership-requests`, asker, {}),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400, 400, 400, 400]);
    // Declined, the person may ask again.
    const request = results.find((r) => r.statusCode === 201)!.json();
    expect((await act(request.id, 'decline', owner)).json().status).toBe('declined');
    expect(
      (await requestAs(t, 'POST', `/api/communities/${open}/membership-requests`, asker, {}))
        .statusCode,
    ).toBe(201);
  });

  it('closes an invitation that expires, making no one a member', async () => {
    const c = await community();
    const x = await t.user();
    expect((await invite(c, owner, { members: users(x), role: 'reader' })).statusCode).toBe(204);
    const request = (await invitationOf(x, c))!;
    await makeDue(t, request.id);
    expect(await t.services.requests.expireDue()).toBe(1);
    expect(await roleOf(c, x)).toBeUndefined();
    expect((await invite(c, owner, { members: users(x), role: 'reader' })).statusCode).toBe(204);
  });
});
