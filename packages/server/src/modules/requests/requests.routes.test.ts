import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { makeDue } from '../../test/communities.js';
import { expectError, expectValidationFailed } from '../../test/assertions.js';
import { PUBLISHABLE_METADATA } from '../../test/files.js';

const SITE = 'https://cairn.test';
type Caller = { id: number; email: string; headers: Record<string, string> };

describe.each(ENGINES)('requests API on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let curator: Caller;
  let reader: Caller;
  let depositor: Caller;
  let other: Caller;
  let admin: Caller;
  let communityId: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    [owner, curator, reader, depositor, other] = [
      await t.user(),
      await t.user(),
      await t.user(),
      await t.user(),
      await t.user(),
    ];
    admin = await t.user(undefined, { admin: true });
    const c = await t.request({
      method: 'POST',
      url: '/api/communities',
      headers: owner.headers,
      body: { slug: 'reviewers', metadata: { title: 'Reviewers' } },
    });
    communityId = c.json().id as string;
    for (const [u, role] of [
      [curator, 'curator'],
      [reader, 'reader'],
    ] as const) {
      await t.request({
        method: 'POST',
        url: `/api/communities/${communityId}/members`,
        headers: owner.headers,
        body: { members: [{ type: 'user', id: String(u.id) }], role },
      });
    }
  });
  afterAll(() => t.close());

  /**
   * Requests are born in records; here straight from the service, as inclusions, so that the
   * generic state machine is under test. An inclusion that is to be accepted needs a published
   * record as its topic (accepting puts the record into the community).
   */
  const newRequest = async (title = 'A dataset', topicRecordId: string | null = null) =>
    (
      await t.services.requests.create({
        type: 'community-inclusion',
        createdBy: depositor.id,
        communityId,
        topicRecordId,
        title,
      })
    ).id;
  const publishedRecord = async () => {
    const draft = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: depositor.headers,
      body: { metadata: PUBLISHABLE_METADATA, files: { enabled: false } },
    });
    const id = draft.json().id as string;
    const published = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/actions/publish`,
      headers: depositor.headers,
    });
    expect(published.statusCode, published.body).toBe(202);
    return id;
  };
  const get = (id: string, caller?: Caller) =>
    t.request({ method: 'GET', url: `/api/requests/${id}`, headers: caller?.headers ?? {} });
  const act = (id: string, action: string, caller?: Caller, body?: unknown) =>
    t.request({
      method: 'POST',
      url: `/api/requests/${id}/actions/${action}`,
      headers: caller?.headers ?? {},
      ...(body === undefined ? {} : { body: body as object }),
    });
  const comment = (id: string, caller: Caller | undefined, body: unknown) =>
    t.request({
      method: 'POST',
      url: `/api/requests/${id}/comments`,
      headers: caller?.headers ?? {},
      body: body as object,
    });
  const timeline = async (id: string, caller: Caller) => {
    const res = await t.request({
      method: 'GET',
      url: `/api/requests/${id}/timeline`,
      headers: caller.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Record<string, any>>();
  };
  const payload = (content: string) => ({ payload: { content, format: 'html' } });

  it('shows a created request to its creator alone (and admins), with the actions each may run', async () => {
    const id = await newRequest();
    const mine = await get(id, depositor);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.headers.etag).toBe('"1"');
    expect(mine.json()).toMatchObject({
      id,
      number: expect.stringMatching(/^\d+$/),
      title: 'A dataset',
      type: 'community-inclusion',
      status: 'created',
      is_open: false,
      is_closed: false,
      is_expired: false,
      expires_at: null,
      created_by: { user: String(depositor.id) },
      receiver: { community: communityId },
      topic: null,
      links: {
        self: `${SITE}/api/requests/${id}`,
        self_html: `${SITE}/me/requests/${id}`,
        comments: `${SITE}/api/requests/${id}/comments`,
        timeline: `${SITE}/api/requests/${id}/timeline`,
        actions: { submit: `${SITE}/api/requests/${id}/actions/submit` },
      },
    });
    // invenio-requests' can_read: a request not yet submitted is its creator's alone.
    const admins = await get(id, admin);
    expect(admins.statusCode).toBe(200);
    expect(admins.json().links.actions).toEqual({
      submit: `${SITE}/api/requests/${id}/actions/submit`,
    });
    for (const caller of [curator, reader, other, undefined]) {
      expectError(await get(id, caller), 403, 'PERMISSION_DENIED', 'Permission denied.');
    }
    expectError(
      await get('00000000-0000-4000-8000-000000000000', admin),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
    expectError(
      await get('not-a-uuid', admin),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
    // While created, only the creator talks.
    expectError(
      await comment(id, curator, payload('Hello?')),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expect((await comment(id, depositor, payload('Note to self'))).statusCode).toBe(201);
  });

  it('runs submit, then accept, with comments in the timeline in order', async () => {
    const id = await newRequest('A dataset', await publishedRecord());
    expectError(
      await act(id, 'accept', curator),
      400,
      'VALIDATION_FAILED',
      'Cannot accept a request that is created.',
    );
    const submitted = await act(
      id,
      'submit',
      depositor,
      payload('<p>Please review</p><script>x</script>'),
    );
    expect(submitted.statusCode, submitted.body).toBe(200);
    const body = submitted.json();
    expect(body).toMatchObject({
      status: 'submitted',
      is_open: true,
      is_closed: false,
      revision_id: 2,
    });
    expect(body.links.actions).toEqual({ cancel: `${SITE}/api/requests/${id}/actions/cancel` });
    const days = (Date.parse(body.expires_at as string) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect((await get(id, curator)).json().links.actions).toEqual({
      accept: `${SITE}/api/requests/${id}/actions/accept`,
      decline: `${SITE}/api/requests/${id}/actions/decline`,
    });
    expect((await get(id, admin)).json().links.actions).toEqual({
      accept: `${SITE}/api/requests/${id}/actions/accept`,
      decline: `${SITE}/api/requests/${id}/actions/decline`,
      cancel: `${SITE}/api/requests/${id}/actions/cancel`,
    });

    // Who may not: the creator accepting, readers, strangers, anyone expiring.
    expectError(await act(id, 'accept', depositor), 403, 'PERMISSION_DENIED', 'Permission denied.');
    expectError(await act(id, 'accept', reader), 403, 'PERMISSION_DENIED', 'Permission denied.');
    expectError(await act(id, 'decline'), 403, 'PERMISSION_DENIED', 'Permission denied.');
    expectError(await act(id, 'cancel', curator), 403, 'PERMISSION_DENIED', 'Permission denied.');
    expectError(await act(id, 'expire', admin), 403, 'PERMISSION_DENIED', 'Permission denied.');
    expectError(
      await act(id, 'approve', curator),
      400,
      'VALIDATION_FAILED',
      "Unknown action 'approve'.",
    );
    expectValidationFailed(await act(id, 'accept', curator, payload('  ')), [
      { field: 'payload.content', messages: ['Shorter than minimum length 1.'] },
    ]);
    expect((await get(id, curator)).json()).toMatchObject({ status: 'submitted', revision_id: 2 });

    const accepted = await act(id, 'accept', curator, payload('Welcome'));
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({
      status: 'accepted',
      is_open: false,
      is_closed: true,
      links: { actions: {} },
    });
    expectError(
      await act(id, 'decline', curator),
      400,
      'VALIDATION_FAILED',
      'Cannot decline a request that is accepted.',
    );

    const events = await timeline(id, depositor);
    expect(events.sortBy).toBe('oldest');
    expect(events.links.self).toBe(
      `${SITE}/api/requests/${id}/timeline?page=1&size=25&sort=oldest`,
    );
    expect(
      events.hits.hits.map((e: { type: string; payload: Record<string, string> }) => [
        e.type,
        e.payload.content ?? e.payload.event,
      ]),
    ).toEqual([
      ['C', '<p>Please review</p>'],
      ['L', 'accepted'],
      ['C', 'Welcome'],
    ]);
    expect(events.hits.hits[1].created_by).toEqual({ user: String(curator.id) });
  });

  it('declines and cancels, each only from submitted', async () => {
    const declined = await newRequest();
    await act(declined, 'submit', depositor);
    expect((await act(declined, 'decline', owner)).json()).toMatchObject({
      status: 'declined',
      is_closed: true,
    });
    const cancelled = await newRequest();
    expectError(
      await act(cancelled, 'cancel', depositor),
      400,
      'VALIDATION_FAILED',
      'Cannot cancel a request that is created.',
    );
    await act(cancelled, 'submit', depositor);
    const res = await act(cancelled, 'cancel', depositor, payload('Never mind'));
    expect(res.json()).toMatchObject({
      status: 'cancelled',
      is_closed: true,
      links: { actions: {} },
    });
    expect(
      (await timeline(cancelled, curator)).hits.hits.map((e: { type: string }) => e.type),
    ).toEqual(['L', 'C']);
  });

  it('edits and deletes comments by their author only, with If-Match and revisions', async () => {
    const id = await newRequest();
    await act(id, 'submit', depositor);
    const created = await comment(id, curator, payload('First thought'));
    expect(created.statusCode, created.body).toBe(201);
    const c = created.json();
    expect(c).toMatchObject({
      type: 'C',
      payload: { content: 'First thought', format: 'html' },
      created_by: { user: String(curator.id) },
      revision_id: 1,
      parent_id: null,
      // No reply route exists (comments are not threaded here), so no client is offered one.
      permissions: { can_update_comment: true, can_delete_comment: true, can_reply_comment: false },
      links: {
        self: `${SITE}/api/requests/${id}/comments/${c.id}`,
        self_html: `${SITE}/me/requests/${id}`,
      },
    });
    const url = `/api/requests/${id}/comments/${c.id}`;
    const read = await t.request({ method: 'GET', url, headers: depositor.headers });
    expect(read.json()).toMatchObject({ id: c.id, permissions: { can_update_comment: false } });
    expectError(
      await t.request({ method: 'GET', url, headers: other.headers }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expectError(
      await t.request({ method: 'PUT', url, headers: depositor.headers, body: payload('Hijack') }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expectError(
      await t.request({
        method: 'PUT',
        url,
        headers: { ...curator.headers, 'if-match': '5' },
        body: payload('Second'),
      }),
      412,
      'REVISION_MISMATCH',
      "Revision id provided(5) doesn't match record's one(1)",
    );
    expectValidationFailed(
      await t.request({ method: 'PUT', url, headers: curator.headers, body: payload('') }),
      [{ field: 'payload.content', messages: ['Shorter than minimum length 1.'] }],
    );
    const edited = await t.request({
      method: 'PUT',
      url,
      headers: { ...curator.headers, 'if-match': '1' },
      body: payload('Second thought'),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ revision_id: 2, payload: { content: 'Second thought' } });

    expectError(
      await t.request({ method: 'DELETE', url, headers: depositor.headers }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    const deleted = await t.request({ method: 'DELETE', url, headers: curator.headers });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    const events = (await timeline(id, depositor)).hits.hits;
    expect(events).toEqual([
      expect.objectContaining({
        id: c.id,
        type: 'L',
        payload: { event: 'comment_deleted', content: 'comment was deleted', format: 'html' },
      }),
    ]);
    // A log event is no comment: it cannot be edited or deleted again.
    expectError(
      await t.request({ method: 'DELETE', url, headers: curator.headers }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expectError(
      await t.request({
        method: 'GET',
        url: `/api/requests/${id}/comments/00000000-0000-4000-8000-000000000000`,
        headers: curator.headers,
      }),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
  });

  it('refuses empty, missing and oversize comments with the contract errors', async () => {
    const id = await newRequest();
    await act(id, 'submit', depositor);
    expectValidationFailed(await comment(id, depositor, {}), [
      { field: 'payload', messages: ['Missing data for required field.'] },
    ]);
    expectValidationFailed(await comment(id, depositor, payload('')), [
      { field: 'payload.content', messages: ['Shorter than minimum length 1.'] },
    ]);
    expectValidationFailed(await comment(id, depositor, payload('x'.repeat(100_001))), [
      { field: 'payload.content', messages: ['Longer than maximum length 100000.'] },
    ]);
    expectValidationFailed(
      await comment(id, depositor, { payload: { content: 'Hi', format: 'markdown' } }),
      [{ field: 'payload.format', messages: ['Must be one of: html.'] }],
    );
    for (const body of [[1], { payload: 'Hi' }, { payload: { content: 7, format: null } }])
      expectValidationFailed(
        await comment(id, depositor, body),
        Array.isArray(body)
          ? [{ field: 'payload', messages: ['Missing data for required field.'] }]
          : typeof body.payload === 'string'
            ? [{ field: 'payload', messages: ['Invalid input type.'] }]
            : [
                { field: 'payload.content', messages: ['Not a valid string.'] },
                { field: 'payload.format', messages: ['Must be one of: html.'] },
              ],
      );
    // Who may comment is decided before the body is read: a bad body does not change the 403.
    for (const body of [payload('Hi'), {}])
      expectError(
        await comment(id, undefined, body),
        403,
        'PERMISSION_DENIED',
        'Permission denied.',
      );
    expectError(
      await act(id, 'accept', depositor, { payload: 7 }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expect((await timeline(id, depositor)).hits.total).toBe(0);
  });

  it('lists the caller’s requests, a community’s for its curators, and refuses POST', async () => {
    const s = await createTestApp(engine);
    try {
      const o = await s.user();
      const d = await s.user();
      const x = await s.user();
      const c = (
        await s.request({
          method: 'POST',
          url: '/api/communities',
          headers: o.headers,
          body: { slug: 'solo', metadata: { title: 'Solo' } },
        })
      ).json();
      const open = await s.services.requests.create({
        type: 'community-inclusion',
        createdBy: d.id,
        communityId: c.id,
        topicRecordId: null,
        title: 'Open one',
      });
      await s.services.requests.run(open, 'submit', {
        id: d.id,
        email: '',
        name: '',
        isAdmin: false,
      });
      await s.services.requests.create({
        type: 'community-inclusion',
        createdBy: d.id,
        communityId: c.id,
        topicRecordId: null,
        title: 'Draft one',
      });
      const list = async (url: string, caller?: { headers: Record<string, string> }) =>
        s.request({ method: 'GET', url, headers: caller?.headers ?? {} });

      const mine = await list('/api/user/requests', d);
      expect(mine.statusCode, mine.body).toBe(200);
      expect(mine.json().hits.total).toBe(2);
      expect(mine.json().sortBy).toBe('newest');
      expect(
        (await list('/api/user/requests?is_open=true', d))
          .json()
          .hits.hits.map((h: { title: string }) => h.title),
      ).toEqual(['Open one']);
      expect(
        (await list('/api/user/requests?q=draft', d))
          .json()
          .hits.hits.map((h: { title: string }) => h.title),
      ).toEqual(['Draft one']);
      // The receiving curators see the submitted one: the created one is its creator's alone.
      expect(
        (await list('/api/user/requests', o))
          .json()
          .hits.hits.map((h: { title: string }) => h.title),
      ).toEqual(['Open one']);
      expect((await list('/api/user/requests', x)).json().hits.total).toBe(0);
      expectError(await list('/api/user/requests'), 403, 'PERMISSION_DENIED', 'Permission denied.');
      expect((await list('/api/requests/', d)).json().hits.total).toBe(2);
      // Searching requests is for signed-in users (invenio-requests' can_search).
      expectError(await list('/api/requests'), 403, 'PERMISSION_DENIED', 'Permission denied.');

      const community = await list(`/api/communities/${c.id}/requests`, o);
      expect(community.statusCode).toBe(200);
      expect(community.json().hits.total).toBe(1);
      expect(community.json().links.self).toBe(
        `${SITE}/api/communities/${c.id}/requests?page=1&size=25&sort=newest`,
      );
      expectError(
        await list(`/api/communities/${c.id}/requests`, d),
        403,
        'PERMISSION_DENIED',
        'Permission denied.',
      );
      expectError(
        await list(`/api/communities/${c.id}/requests`),
        403,
        'PERMISSION_DENIED',
        'Permission denied.',
      );
      expectError(
        await list('/api/communities/unknown/requests', o),
        404,
        'PID_DOES_NOT_EXIST',
        'The persistent identifier does not exist.',
      );

      const post = await s.request({
        method: 'POST',
        url: '/api/requests',
        headers: d.headers,
        body: {},
      });
      expect(post.statusCode).toBe(405);
    } finally {
      await s.close();
    }
  });

  it('expires submitted requests past their date in the sweep, as the system', async () => {
    const id = await newRequest('Old submission');
    await act(id, 'submit', depositor);
    const fresh = await newRequest('Fresh submission');
    await act(fresh, 'submit', depositor);
    await makeDue(t, id);
    expect(await t.services.requests.expireDue()).toBe(1);
    expect((await get(id, depositor)).json()).toMatchObject({
      status: 'expired',
      is_expired: true,
      is_closed: true,
      links: { actions: {} },
    });
    expect((await get(fresh, depositor)).json().status).toBe('submitted');
    const events = (await timeline(id, depositor)).hits.hits;
    expect(events).toEqual([
      expect.objectContaining({
        type: 'L',
        payload: { event: 'expired' },
        created_by: { user: 'system' },
      }),
    ]);
    expect(await t.services.requests.expireDue()).toBe(0);
  });
  it('expands the creator, the receiving community and comment authors on expand=1, without e-mail addresses', async () => {
    const id = await newRequest('Expanded');
    expect((await act(id, 'submit', depositor)).statusCode).toBe(200);
    expect((await comment(id, curator, payload('<p>Looks fine</p>'))).statusCode).toBe(201);
    const plain = await get(id, curator);
    expect(plain.json()).not.toHaveProperty('expanded');

    const res = await t.request({
      method: 'GET',
      url: `/api/requests/${id}?expand=1`,
      headers: curator.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().expanded).toEqual({
      created_by: {
        id: String(depositor.id),
        username: null,
        profile: { full_name: depositor.email.split('@')[0] },
      },
      receiver: expect.objectContaining({
        id: communityId,
        slug: 'reviewers',
        metadata: { title: 'Reviewers' },
        links: expect.objectContaining({ self_html: `${SITE}/communities/reviewers` }),
      }),
    });
    expect(res.body).not.toContain(depositor.email);

    const events = await t.request({
      method: 'GET',
      url: `/api/requests/${id}/timeline?expand=1`,
      headers: depositor.headers,
    });
    expect(events.statusCode, events.body).toBe(200);
    expect(events.json().hits.hits.map((e: { expanded: unknown }) => e.expanded)).toEqual([
      {
        created_by: expect.objectContaining({
          profile: { full_name: curator.email.split('@')[0] },
        }),
      },
    ]);
    expect(events.body).not.toContain(curator.email);
  });
});
