import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createCommunity, requestAs, type Method } from '../../test/communities.js';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectError, expectValidationFailed } from '../../test/assertions.js';
import { PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';

const SITE = 'https://cairn.test';

describe.each(ENGINES)('a record’s communities on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let depositor: Caller;
  let curator: Caller;
  let other: Caller;
  const c = {} as Record<'home' | 'review' | 'direct' | 'closed' | 'hidden', string>;

  const req = (method: Method, url: string, caller?: Caller, body?: object) =>
    requestAs(t, method, url, caller, body);

  const newCommunity = (slug: string, access: Record<string, string>) =>
    createCommunity(t, owner, slug, access);
  const join = (communityId: string, member: Caller, role: string) =>
    addMember(t, owner, communityId, member, role);

  /** A published record of the depositor, in `home` when asked (directly: it curates home). */
  async function publish(inHome: boolean, access = 'public') {
    const created = await req('POST', '/api/records', depositor, {
      metadata: PUBLISHABLE_METADATA,
      files: { enabled: false },
      access: { record: access, files: access },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    if (!inHome) {
      expect(
        (await req('POST', `/api/records/${id}/draft/actions/publish`, depositor)).statusCode,
      ).toBe(202);
      return id;
    }
    await req('PUT', `/api/records/${id}/draft/review`, depositor, {
      type: 'community-submission',
      receiver: { community: c.home },
    });
    const submitted = await req(
      'POST',
      `/api/records/${id}/draft/actions/submit-review`,
      depositor,
    );
    expect(submitted.json().status).toBe('accepted');
    return id;
  }

  const communitiesOf = async (id: string) =>
    (await req('GET', `/api/records/${id}`, depositor)).json().parent.communities as Record<
      string,
      unknown
    >;
  const include = (id: string, caller: Caller | undefined, communities: object[]) =>
    req('POST', `/api/records/${id}/communities`, caller, { communities });
  const remove = (id: string, caller: Caller | undefined, ids: string[]) =>
    req('DELETE', `/api/records/${id}/communities`, caller, {
      communities: ids.map((x) => ({ id: x })),
    });

  beforeAll(async () => {
    t = await createTestApp(engine);
    [owner, depositor, curator, other] = [
      await t.user(),
      await t.user(),
      await t.user(),
      await t.user(),
    ];
    c.home = await newCommunity('home', { review_policy: 'open' });
    await join(c.home, depositor, 'curator');
    c.review = await newCommunity('review', { review_policy: 'closed' });
    await join(c.review, curator, 'curator');
    c.direct = await newCommunity('direct', { review_policy: 'open' });
    await join(c.direct, depositor, 'curator');
    c.closed = await newCommunity('closed', { record_submission_policy: 'closed' });
    c.hidden = await newCommunity('hidden', { visibility: 'restricted' });
    await join(c.hidden, depositor, 'reader');
  });
  afterAll(() => t.close());

  it('lists the record’s communities in the search envelope', async () => {
    const id = await publish(true);
    const res = await req('GET', `/api/records/${id}/communities`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().hits.total).toBe(1);
    expect(res.json().hits.hits[0]).toMatchObject({ id: c.home, slug: 'home' });
    expect(res.json().links).toEqual({
      self: `${SITE}/api/records/${id}/communities?page=1&size=25&sort=newest`,
    });
    expect(res.json().aggregations.visibility.buckets).toEqual([
      expect.objectContaining({ key: 'public', doc_count: 1 }),
    ]);
  });

  it('includes a record into further communities: reviewed ones by request, direct ones at once', async () => {
    const id = await publish(true);
    const res = await include(id, depositor, [
      { id: 'review', comment: { payload: { content: 'Fits your scope', format: 'html' } } },
      { id: c.direct },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.errors).toBeUndefined();
    expect(body.processed).toHaveLength(2);
    const [reviewed, direct] = body.processed;
    expect(reviewed).toMatchObject({
      community_id: 'review',
      request: {
        type: 'community-inclusion',
        status: 'submitted',
        is_open: true,
        receiver: { community: c.review },
        topic: { record: id },
        created_by: { user: String(depositor.id) },
      },
    });
    expect(reviewed.request_id).toBe(reviewed.request.id);
    expect(reviewed.request.links.self_html).toBe(`${SITE}/me/requests/${reviewed.request_id}`);
    expect(Object.keys(reviewed.request.links.actions)).toEqual(['cancel']);
    expect(direct).toMatchObject({
      community_id: c.direct,
      request: { status: 'accepted', is_open: false },
    });
    expect(await communitiesOf(id)).toEqual({ ids: [c.home, c.direct], default: c.home });
    const timeline = await req('GET', `/api/requests/${reviewed.request_id}/timeline`, depositor);
    expect(timeline.json().hits.hits[0].payload.content).toBe('Fits your scope');

    // The curator of the reviewing community accepts: the record joins it and shows there.
    const accepted = await req(
      'POST',
      `/api/requests/${reviewed.request_id}/actions/accept`,
      curator,
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await communitiesOf(id)).toEqual({ ids: [c.home, c.direct, c.review], default: c.home });
    const listed = await req('GET', '/api/communities/review/records');
    expect(listed.json().hits.hits.map((h: { id: string }) => h.id)).toEqual([id]);
    expect((await req('GET', `/api/records/${id}/communities`)).json().hits.total).toBe(3);
  });

  it('a first inclusion into a record without communities becomes its default', async () => {
    const id = await publish(false);
    expect(await communitiesOf(id)).toEqual({});
    expect((await include(id, depositor, [{ id: 'direct' }])).statusCode).toBe(200);
    expect(await communitiesOf(id)).toEqual({ ids: [c.direct], default: c.direct });
  });

  it('keeps both of two inclusions made at the same moment', async () => {
    const id = await publish(false);
    const parentId = (await req('GET', `/api/records/${id}`, depositor)).json().parent.id as string;
    // Straight to the service, at once: each reads the parent's communities and writes them back.
    await Promise.all([
      t.services.recordStore.changeCommunities(parentId, { add: c.direct }),
      t.services.recordStore.changeCommunities(parentId, { add: c.home }),
    ]);
    expect(((await communitiesOf(id)).ids as string[]).sort()).toEqual([c.direct, c.home].sort());
  });

  it('asks for a review when require_review is true, even of those who may include directly', async () => {
    const id = await publish(false);
    const res = await include(id, depositor, [{ id: c.direct, require_review: true }]);
    expect(res.json().processed[0].request.status).toBe('submitted');
    expect(await communitiesOf(id)).toEqual({});
  });

  it('refuses, community by community, what cannot be included, and changes nothing then', async () => {
    const id = await publish(true);
    expect((await include(id, depositor, [{ id: c.review }])).statusCode).toBe(200);
    const res = await include(id, depositor, [
      { id: c.home },
      { id: c.review },
      { id: 'no-such-community' },
      { id: c.closed },
      { id: c.hidden },
    ]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({
      errors: [
        { community_id: c.home, message: 'Community already included.' },
        {
          community_id: c.review,
          message: 'There is already an open inclusion request for this community.',
        },
        { community_id: 'no-such-community', message: 'Community not found.' },
        {
          community_id: c.closed,
          message: 'Submission to this community is only allowed to community members.',
        },
        {
          community_id: c.hidden,
          message: 'A public record cannot be included in a restricted community.',
        },
      ],
    });
    expect(await communitiesOf(id)).toEqual({ ids: [c.home], default: c.home });
    const mine = await req('GET', '/api/user/requests?type=community-inclusion', depositor);
    expect(
      mine.json().hits.hits.filter((h: { topic: { record: string } }) => h.topic.record === id),
    ).toHaveLength(1);

    // A mix answers 200 with what was processed and what was not.
    const mixed = await include(id, depositor, [{ id: c.direct }, { id: c.home }]);
    expect(mixed.statusCode).toBe(200);
    expect(mixed.json().processed).toHaveLength(1);
    expect(mixed.json().errors).toEqual([
      { community_id: c.home, message: 'Community already included.' },
    ]);
  });

  it('validates the body like InvenioRDM’s schema', async () => {
    const id = await publish(false);
    const bad = (body: unknown) =>
      req('POST', `/api/records/${id}/communities`, depositor, body as object);
    expectValidationFailed(await bad({}), [
      { field: 'communities', messages: ['Missing data for required field.'] },
    ]);
    expectValidationFailed(await bad({ communities: [] }), [
      { field: 'communities', messages: ['Shorter than minimum length 1.'] },
    ]);
    expectValidationFailed(
      await bad({ communities: Array.from({ length: 11 }, (_, i) => ({ id: `c${i}` })) }),
      [{ field: 'communities', messages: ['Too many communities passed, 10 max allowed.'] }],
    );
    expectValidationFailed(await bad({ communities: [{ id: c.direct }, { id: c.direct }] }), [
      { field: 'communities', messages: [`Duplicated communities {'${c.direct}'}.`] },
    ]);
    expectValidationFailed(
      await bad({
        communities: [
          {},
          { id: c.direct, require_review: 'yes' },
          { id: c.review, comment: { payload: { content: ' ' } } },
        ],
      }),
      [
        { field: 'communities.0.id', messages: ['Missing data for required field.'] },
        { field: 'communities.1.require_review', messages: ['Not a valid boolean.'] },
        {
          field: 'communities.2.comment.payload.content',
          messages: ['Shorter than minimum length 1.'],
        },
      ],
    );
    // The list's own problem comes alone; an entry's id before its options; duplicates after
    // the entries' problems, counting the entries whose id is sound.
    expectValidationFailed(await bad({ communities: [...Array.from({ length: 11 }, () => 7)] }), [
      { field: 'communities', messages: ['Too many communities passed, 10 max allowed.'] },
    ]);
    expectValidationFailed(await bad({ communities: 'x' }), [
      { field: 'communities', messages: ['Not a valid list.'] },
    ]);
    expectValidationFailed(await bad([1]), [
      { field: 'communities', messages: ['Missing data for required field.'] },
    ]);
    expectValidationFailed(
      await bad({
        communities: [
          null,
          { id: '', require_review: 'yes' },
          { id: c.direct, require_review: 'yes' },
          { id: c.direct },
        ],
      }),
      [
        { field: 'communities.0', messages: ['Invalid input type.'] },
        { field: 'communities.1.id', messages: ['Not a valid string.'] },
        { field: 'communities.2.require_review', messages: ['Not a valid boolean.'] },
        { field: 'communities', messages: [`Duplicated communities {'${c.direct}'}.`] },
      ],
    );
    expect(await communitiesOf(id)).toEqual({});
  });

  it('answers 404 for unknown records and drafts, 403 to those who may not manage the record', async () => {
    const body = [{ id: c.direct }];
    expectError(
      await include('abcde-12345', depositor, body),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
    const draft = (
      await req('POST', '/api/records', depositor, { metadata: PUBLISHABLE_METADATA })
    ).json().id as string;
    expectError(
      await include(draft, depositor, body),
      404,
      'PID_NOT_REGISTERED',
      'The persistent identifier is not registered.',
    );
    const id = await publish(false);
    expectError(await include(id, other, body), 403, 'PERMISSION_DENIED', 'Permission denied.');
    expectError(await include(id, undefined, body), 403, 'PERMISSION_DENIED', 'Permission denied.');
    expect(await communitiesOf(id)).toEqual({});
    const restricted = await publish(false, 'restricted');
    expectError(
      await req('GET', `/api/records/${restricted}/communities`),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    // The owner of a draft sees its (empty) communities.
    const own = await req('GET', `/api/records/${draft}/communities`, depositor);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().hits.total).toBe(0);
  });

  it('removes communities: the record owner any, a curator its own; the default goes with it', async () => {
    const id = await publish(true);
    await include(id, depositor, [{ id: c.direct }]);
    const request = (await include(id, depositor, [{ id: c.review }])).json().processed[0]
      .request_id as string;
    await req('POST', `/api/requests/${request}/actions/accept`, curator);
    expect(await communitiesOf(id)).toEqual({ ids: [c.home, c.direct, c.review], default: c.home });

    // Others may remove nothing: 400, nothing changed.
    const denied = await remove(id, other, [c.review]);
    expect(denied.statusCode).toBe(400);
    expect(denied.json()).toEqual({
      errors: [{ community: c.review, message: 'Permission denied.' }],
    });
    // The review community's curator may remove its own community, not another.
    const mixed = await remove(id, curator, [c.review, c.direct]);
    expect(mixed.statusCode, mixed.body).toBe(200);
    expect(mixed.json()).toEqual({
      errors: [{ community: c.direct, message: 'Permission denied.' }],
    });
    expect(await communitiesOf(id)).toEqual({ ids: [c.home, c.direct], default: c.home });
    const missing = await remove(id, depositor, [c.review]);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      errors: [
        {
          community: c.review,
          message: `The record ${id} in not included in the community ${c.review}.`,
        },
      ],
    });
    const removed = await remove(id, depositor, ['home']);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({});
    expect(await communitiesOf(id)).toEqual({ ids: [c.direct] });
    expect((await req('GET', '/api/communities/home/records')).json().hits.hits).not.toContainEqual(
      expect.objectContaining({ id }),
    );
    expect((await remove(id, depositor, [c.direct])).statusCode).toBe(200);
    expect(await communitiesOf(id)).toEqual({});
    expectValidationFailed(
      await req('DELETE', `/api/records/${id}/communities`, depositor, { communities: [] }),
      [{ field: 'communities', messages: ['Shorter than minimum length 1.'] }],
    );
  });

  it('sets and unsets the default community among the record’s own', async () => {
    const id = await publish(true);
    await include(id, depositor, [{ id: c.direct }]);
    const put = (caller: Caller | undefined, body: object) =>
      req('PUT', `/api/records/${id}/communities`, caller, body);
    const set = await put(depositor, { default: c.direct });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().communities).toEqual({ ids: [c.home, c.direct], default: c.direct });
    expect((await req('GET', `/api/records/${id}`)).json().parent.communities.default).toBe(
      c.direct,
    );
    expectError(
      await put(depositor, { default: c.review }),
      400,
      'VALIDATION_FAILED',
      'Cannot set community as the default. The record has not been added to the community.',
    );
    expectError(
      await put(depositor, { default: '00000000-0000-4000-8000-000000000000' }),
      400,
      'VALIDATION_FAILED',
      'Cannot set community as the default. The record has not been added to the community.',
    );
    expectError(
      await put(other, { default: c.home }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expect(await communitiesOf(id)).toEqual({ ids: [c.home, c.direct], default: c.direct });
    expect((await put(depositor, { default: 'home' })).json().communities.default).toBe(c.home);
    const unset = await put(depositor, { default: null });
    expect(unset.json().communities).toEqual({ ids: [c.home, c.direct] });
    expect((await put(depositor, { default: c.direct })).statusCode).toBe(200);
    expect((await put(depositor, { default: '' })).json().communities).toEqual({
      ids: [c.home, c.direct],
    });
    expect((await put(depositor, { default: { id: c.direct } })).statusCode).toBe(200);
    expect((await put(depositor, { default: {} })).json().communities).toEqual({
      ids: [c.home, c.direct],
    });
    for (const [body, message] of [
      [{}, 'Missing data for required field.'],
      [[1], 'Missing data for required field.'],
      [{ default: 7 }, 'Not a valid string.'],
      [{ default: { id: 7 } }, 'Not a valid string.'],
    ] as const)
      expectValidationFailed(await put(depositor, body), [
        { field: 'default', messages: [message] },
      ]);
    // Who may manage the record is decided before the body is read.
    expectError(await put(other, { default: 7 }), 403, 'PERMISSION_DENIED', 'Permission denied.');
  });

  it('suggests the communities a record could still join, and lists its requests', async () => {
    const id = await publish(true);
    const request = (await include(id, depositor, [{ id: c.review }])).json().processed[0]
      .request_id as string;
    const slugs = async (url: string, caller: Caller) => {
      const res = await req('GET', url, caller);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().hits.hits as Array<{ slug: string }>).map((h) => h.slug).sort();
    };
    // Not home (in it), not review (open request), not hidden (restricted, the depositor reads it).
    expect(await slugs(`/api/records/${id}/communities-suggestions`, depositor)).toEqual([
      'closed',
      'direct',
      'hidden',
    ]);
    expect(
      await slugs(`/api/records/${id}/communities-suggestions?membership=true`, depositor),
    ).toEqual(['direct', 'hidden']);
    expectError(
      await req('GET', `/api/records/${id}/communities-suggestions`),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expectError(
      await req('GET', `/api/records/${id}/communities-suggestions`, other),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );

    const requests = async (caller?: Caller) =>
      (await req('GET', `/api/records/${id}/requests`, caller))
        .json()
        .hits.hits.map((h: { id: string; type: string }) => h.type) as string[];
    expect((await requests(depositor)).sort()).toEqual([
      'community-inclusion',
      'community-submission',
    ]);
    // The review community's curator takes part in the inclusion only.
    expect(await requests(curator)).toEqual(['community-inclusion']);
    expect(await requests(other)).toEqual([]);
    expect(request).toMatch(/^[0-9a-f-]{36}$/);
    expectError(
      await req('GET', '/api/records/abcde-12345/requests', depositor),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = (await req('GET', '/api/docs/openapi.json')).json();
    const path = doc.paths['/api/records/{id}/communities'];
    expect(Object.keys(path).sort()).toEqual(['delete', 'get', 'post', 'put']);
  });
});
