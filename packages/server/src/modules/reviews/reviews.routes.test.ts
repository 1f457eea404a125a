import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createCommunity,
  makeDue,
  requestAs,
  type Method,
} from '../../test/communities.js';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectError, expectValidationFailed } from '../../test/assertions.js';
import { PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';

const SITE = 'https://cairn.test';
const VND = { accept: 'application/vnd.inveniordm.v1+json' };

describe.each(ENGINES)('draft reviews on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let curator: Caller;
  let depositor: Caller;
  let other: Caller;
  /** Public, reviews by curators (review_policy closed), anyone may submit. */
  let reviewed: string;
  /** Public, curators include directly (review_policy open); the depositor curates it. */
  let direct: string;
  /** Restricted, members only. */
  let restricted: string;
  /** Public, but only members may submit. */
  let membersOnly: string;

  const req = (method: Method, url: string, caller?: Caller, body?: object) =>
    requestAs(t, method, url, caller, body);

  /** A community owned by `owner` where `curator` curates. */
  async function community(slug: string, access: Record<string, string>) {
    const id = await createCommunity(t, owner, slug, access);
    await addMember(t, owner, id, curator, 'curator');
    return id;
  }

  async function draft(access = { record: 'public', files: 'public' }) {
    const res = await req('POST', '/api/records', depositor, {
      metadata: PUBLISHABLE_METADATA,
      files: { enabled: false },
      access,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  }

  const putReview = (id: string, communityId: string, caller = depositor) =>
    req('PUT', `/api/records/${id}/draft/review`, caller, {
      type: 'community-submission',
      receiver: { community: communityId },
    });
  const submit = (id: string, caller: Caller = depositor, body?: object) =>
    req('POST', `/api/records/${id}/draft/actions/submit-review`, caller, body);
  const readDraft = (id: string, caller: Caller = depositor) =>
    req('GET', `/api/records/${id}/draft`, caller);

  beforeAll(async () => {
    t = await createTestApp(engine);
    [owner, curator, depositor, other] = [
      await t.user(),
      await t.user(),
      await t.user(),
      await t.user(),
    ];
    reviewed = await community('reviewed', { review_policy: 'closed' });
    direct = await community('direct', { review_policy: 'open' });
    await req('POST', `/api/communities/${direct}/members`, owner, {
      members: [{ type: 'user', id: String(depositor.id) }],
      role: 'curator',
    });
    restricted = await community('closed-circle', { visibility: 'restricted' });
    await req('POST', `/api/communities/${restricted}/members`, owner, {
      members: [{ type: 'user', id: String(depositor.id) }],
      role: 'reader',
    });
    membersOnly = await community('members-only', { record_submission_policy: 'closed' });
  });
  afterAll(() => t.close());

  it('submits a draft, lets the curators edit it while open, and publishes it into the community on accept', async () => {
    const id = await draft();
    const put = await putReview(id, reviewed);
    expect(put.statusCode, put.body).toBe(200);
    const review = put.json();
    expect(review).toMatchObject({
      type: 'community-submission',
      status: 'created',
      is_open: false,
      is_closed: false,
      created_by: { user: String(depositor.id) },
      topic: { record: id },
      receiver: { community: reviewed },
    });
    const d = (await readDraft(id)).json();
    expect(d.status).toBe('draft_with_review');
    expect(d.parent.review).toMatchObject({
      id: review.id,
      type: 'community-submission',
      receiver: { community: reviewed },
    });
    expect(d.parent.communities).toEqual({});
    expect(d.links['submit-review']).toBe(`${SITE}/api/records/${id}/draft/actions/submit-review`);
    expect((await req('GET', `/api/records/${id}/draft/review`, depositor)).json().id).toBe(
      review.id,
    );
    expectError(await readDraft(id, curator), 403, 'PERMISSION_DENIED', 'Permission denied.');

    const submitted = await submit(id, depositor, {
      payload: { content: 'Please have a look', format: 'html' },
    });
    expect(submitted.statusCode, submitted.body).toBe(202);
    expect(submitted.json()).toMatchObject({
      id: review.id,
      status: 'submitted',
      is_open: true,
      title: 'Sediment cores',
      links: {
        next_html: `${SITE}/me/requests/${review.id}`,
        timeline: `${SITE}/api/requests/${review.id}/timeline`,
      },
    });
    expect((await readDraft(id)).json().status).toBe('in_review');

    // Curators of the receiving community see and edit the draft; strangers do not.
    expect((await readDraft(id, curator)).statusCode).toBe(200);
    expect((await req('GET', `/api/records/${id}/draft/files`, curator)).statusCode).toBe(200);
    expectError(
      await req('GET', `/api/records/${id}/draft/files`, other),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    const edit = await req('PUT', `/api/records/${id}/draft`, curator, {
      metadata: { ...PUBLISHABLE_METADATA, title: 'Sediment cores, curated' },
      files: { enabled: false },
      access: { record: 'public', files: 'public' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expectError(await readDraft(id, other), 403, 'PERMISSION_DENIED', 'Permission denied.');
    expectError(
      await req('DELETE', `/api/records/${id}/draft`, curator),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );

    // An open review blocks publishing, deleting the draft and deleting the review.
    expectError(
      await req('POST', `/api/records/${id}/draft/actions/publish`, depositor),
      400,
      'OPEN_REVIEW_BLOCKS_PUBLISH',
      'You cannot publish a draft with an open review request. Please cancel the review request first.',
    );
    expectError(
      await req('DELETE', `/api/records/${id}/draft`, depositor),
      400,
      'VALIDATION_FAILED',
      'You cannot delete a draft with an open review request. Please cancel the review request first.',
    );
    expectError(
      await req('DELETE', `/api/records/${id}/draft/review`, depositor),
      400,
      'VALIDATION_FAILED',
      'An open review cannot be deleted.',
    );
    expectError(
      await submit(id),
      400,
      'VALIDATION_FAILED',
      'The draft is already submitted for review.',
    );
    expectError(
      await putReview(id, direct),
      400,
      'VALIDATION_FAILED',
      'An open review cannot be changed. Cancel it first.',
    );

    const accepted = await req('POST', `/api/requests/${review.id}/actions/accept`, curator, {
      payload: { content: 'Welcome aboard', format: 'html' },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ status: 'accepted', is_open: false });
    const record = await req('GET', `/api/records/${id}`);
    expect(record.statusCode, record.body).toBe(200);
    expect(record.json().metadata.title).toBe('Sediment cores, curated');
    expect(record.json().parent.communities).toEqual({ ids: [reviewed], default: reviewed });
    expect(record.json().parent.review).toBeUndefined();
    const timeline = await req('GET', `/api/requests/${review.id}/timeline`, depositor);
    expect(timeline.json().hits.hits.map((e: { type: string }) => e.type)).toEqual(['C', 'L', 'C']);
  });

  it('accepts at once when the submitter may include directly, unless a review is required', async () => {
    const id = await draft();
    await putReview(id, direct);
    const res = await submit(id);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({
      status: 'accepted',
      links: { next_html: `${SITE}/records/${id}` },
    });
    const record = (await req('GET', `/api/records/${id}`)).json();
    expect(record.parent.communities).toEqual({ ids: [direct], default: direct });
    const events = (await req('GET', `/api/requests/${res.json().id}/timeline`, depositor)).json()
      .hits.hits;
    expect(events.at(-1)).toMatchObject({
      type: 'C',
      created_by: { user: 'system' },
      payload: {
        content:
          'This request has been automatically accepted, as the uploader can submit to community directly without review.',
      },
    });

    const reviewedAnyway = await draft();
    await putReview(reviewedAnyway, direct);
    const kept = await submit(reviewedAnyway, depositor, { require_review: true });
    expect(kept.json()).toMatchObject({ status: 'submitted' });
    expectValidationFailed(
      await submit(await draftWithReview(direct), depositor, { require_review: 'yes' }),
      [{ field: 'require_review', messages: ['Not a valid boolean.'] }],
    );
    // require_review is checked before the comment: its problem comes alone.
    expectValidationFailed(
      await submit(await draftWithReview(direct), depositor, {
        require_review: null,
        payload: { content: '' },
      }),
      [{ field: 'require_review', messages: ['Not a valid boolean.'] }],
    );
  });

  async function draftWithReview(communityId: string) {
    const id = await draft();
    expect((await putReview(id, communityId)).statusCode).toBe(200);
    return id;
  }

  it('refuses outsiders of members-only communities with the contract message', async () => {
    const id = await draftWithReview(membersOnly);
    expectError(
      await submit(id),
      403,
      'PERMISSION_DENIED',
      'Submission to this community is only allowed to community members.',
    );
    expectError(
      await req('POST', `/api/records/${id}/draft/actions/submit-review`),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expect((await readDraft(id)).json().status).toBe('draft_with_review');
  });

  it('makes a draft restricted for a restricted community, and refuses a public one there', async () => {
    const id = await draftWithReview(restricted);
    const d = (await readDraft(id)).json();
    expect(d.access).toMatchObject({ record: 'restricted', files: 'restricted' });
    await req('PUT', `/api/records/${id}/draft`, depositor, {
      metadata: PUBLISHABLE_METADATA,
      files: { enabled: false },
      access: { record: 'public', files: 'public' },
    });
    expectError(
      await submit(id),
      400,
      'VALIDATION_FAILED',
      'A public record cannot be included in a restricted community.',
    );
    // Outsiders cannot even aim at a restricted community they cannot see.
    const stranger = await req('POST', '/api/records', other, {
      metadata: PUBLISHABLE_METADATA,
      files: { enabled: false },
    });
    expectError(
      await putReview(stranger.json().id as string, restricted, other),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
  });

  it('answers bad review input with the contract errors and changes nothing', async () => {
    const id = await draft();
    const notFound = (res: Awaited<ReturnType<typeof req>>) =>
      expectError(res, 404, 'NOT_FOUND', 'Review for draft not found');
    notFound(await req('GET', `/api/records/${id}/draft/review`, depositor));
    notFound(await req('DELETE', `/api/records/${id}/draft/review`, depositor));
    notFound(await submit(id));
    // The review is looked for before the body is read.
    notFound(await submit(id, depositor, { require_review: 'yes' }));
    expectError(
      await req('PUT', `/api/records/${id}/draft/review`, other, { type: 'x' }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expectValidationFailed(await req('PUT', `/api/records/${id}/draft/review`, depositor, [1]), [
      { field: 'type', messages: ['Invalid review type.'] },
      { field: 'receiver', messages: ['Missing data for required field.'] },
    ]);
    expectValidationFailed(
      await req('PUT', `/api/records/${id}/draft/review`, depositor, {
        type: 'community-submission',
        receiver: { community: '' },
      }),
      [{ field: 'receiver', messages: ['Missing data for required field.'] }],
    );
    expectValidationFailed(
      await req('PUT', `/api/records/${id}/draft/review`, depositor, {
        type: 'community-inclusion',
        receiver: { community: reviewed },
      }),
      [{ field: 'type', messages: ['Invalid review type.'] }],
    );
    expectValidationFailed(
      await req('PUT', `/api/records/${id}/draft/review`, depositor, {
        type: 'community-submission',
      }),
      [{ field: 'receiver', messages: ['Missing data for required field.'] }],
    );
    expectValidationFailed(await putReview(id, '00000000-0000-4000-8000-000000000000'), [
      { field: 'receiver.community', messages: ['Community not found.'] },
    ]);
    expectError(
      await putReview(id, reviewed, other),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expectError(
      await putReview(id, reviewed, curator),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expectError(
      await putReview('zzzzz-zzzzz', reviewed),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
    const d = (await readDraft(id)).json();
    expect(d.status).toBe('draft');
    expect(d.parent.review).toBeUndefined();

    // An invalid draft cannot be submitted: every error, nothing submitted.
    const bad = await req('POST', '/api/records', depositor, {
      metadata: { title: 'x' },
      files: { enabled: false },
    });
    const badId = bad.json().id as string;
    await putReview(badId, reviewed);
    const refused = await submit(badId);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.length).toBeGreaterThan(0);
    expect((await readDraft(badId)).json().status).toBe('draft_with_review');

    // A published record's draft has no review.
    const published = await draft();
    await req('POST', `/api/records/${published}/draft/actions/publish`, depositor);
    await req('POST', `/api/records/${published}/draft`, depositor);
    expectError(
      await putReview(published, reviewed),
      400,
      'VALIDATION_FAILED',
      'Cannot create a review for a published record.',
    );
  });

  it('swaps the community of an unsubmitted review and removes it', async () => {
    const id = await draftWithReview(reviewed);
    const first = (await req('GET', `/api/records/${id}/draft/review`, depositor)).json();
    const swapped = await putReview(id, membersOnly);
    expect(swapped.json()).toMatchObject({ id: first.id, receiver: { community: membersOnly } });
    expectError(
      await req(
        'PUT',
        `/api/records/${id}/draft/review`,
        { ...depositor, headers: { ...depositor.headers, 'if-match': '1' } },
        {
          type: 'community-submission',
          receiver: { community: reviewed },
        },
      ),
      412,
      'REVISION_MISMATCH',
      "Revision id provided(1) doesn't match record's one(2)",
    );
    expect((await req('DELETE', `/api/records/${id}/draft/review`, depositor)).statusCode).toBe(
      204,
    );
    const d = (await readDraft(id)).json();
    expect(d.status).toBe('draft');
    expect(d.links['submit-review']).toBeUndefined();
    expectError(
      await req('GET', `/api/requests/${first.id}`, depositor),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
  });

  it('follows decline and cancel in the draft status, and resubmits as a new request', async () => {
    const id = await draftWithReview(reviewed);
    const first = (await submit(id)).json();
    await req('POST', `/api/requests/${first.id}/actions/decline`, curator);
    expect((await readDraft(id)).json().status).toBe('declined');
    expectError(await readDraft(id, curator), 403, 'PERMISSION_DENIED', 'Permission denied.');
    const again = await submit(id);
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json().id).not.toBe(first.id);
    expect((await readDraft(id)).json()).toMatchObject({
      status: 'in_review',
      parent: { review: { id: again.json().id } },
    });
    await req('POST', `/api/requests/${again.json().id}/actions/cancel`, depositor);
    expect((await readDraft(id)).json().status).toBe('draft_with_review');
    // A closed review is unlinked, not deleted: the request stays for the record.
    expect((await req('DELETE', `/api/records/${id}/draft/review`, depositor)).statusCode).toBe(
      204,
    );
    expect((await req('GET', `/api/requests/${again.json().id}`, depositor)).json().status).toBe(
      'cancelled',
    );
    const published = await req('POST', `/api/records/${id}/draft/actions/publish`, depositor);
    expect(published.statusCode, published.body).toBe(202);
    expect(published.json().parent.communities).toEqual({});
  });

  it('expands the review receiver with the permissions the editor buttons need', async () => {
    const id = await draftWithReview(direct);
    const res = await req('GET', `/api/records/${id}/draft?expand=1`, {
      ...depositor,
      headers: { ...depositor.headers, ...VND },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().expanded.parent.review).toMatchObject({
      status: 'created',
      receiver: {
        id: direct,
        slug: 'direct',
        metadata: { title: 'direct' },
        access: { visibility: 'public', review_policy: 'open' },
        ui: { permissions: { can_include_directly: true, can_submit_record: true } },
      },
    });
  });

  /** The id of the draft's review request, as its owner reads it. */
  const requestOf = async (id: string) =>
    (await req('GET', `/api/records/${id}/draft/review`, depositor)).json().id as string;
  const MEMBERS_ONLY = 'Submission to this community is only allowed to community members.';

  it('opens a review asked for in POST /api/records (parent.review), checked as PUT review checks it', async () => {
    const create = (caller: Caller, review: unknown) =>
      req('POST', '/api/records', caller, {
        metadata: PUBLISHABLE_METADATA,
        files: { enabled: false },
        access: { record: 'public', files: 'public' },
        parent: { review },
      });
    const to = (community: string) => ({
      type: 'community-submission',
      receiver: { community },
    });
    const drafts = async (caller: Caller) =>
      (await req('GET', '/api/user/records', caller)).json().hits.total as number;

    const made = await create(depositor, to(reviewed));
    expect(made.statusCode, made.body).toBe(201);
    const d = made.json();
    expect(d).toMatchObject({
      status: 'draft_with_review',
      parent: {
        communities: {},
        review: {
          id: expect.any(String),
          type: 'community-submission',
          receiver: { community: reviewed },
        },
      },
      links: { 'submit-review': `${SITE}/api/records/${d.id}/draft/actions/submit-review` },
    });
    expect((await req('GET', `/api/records/${d.id}/draft/review`, depositor)).json()).toMatchObject(
      {
        id: d.parent.review.id,
        status: 'created',
        topic: { record: d.id },
        created_by: { user: String(depositor.id) },
        receiver: { community: reviewed },
      },
    );
    expect((await submit(d.id)).json()).toMatchObject({ status: 'submitted' });

    // A review that PUT would refuse creates no draft either.
    const before = await drafts(depositor);
    expectValidationFailed(
      await create(depositor, { type: 'community-inclusion', receiver: { community: reviewed } }),
      [{ field: 'parent.review.type', messages: ['Invalid review type.'] }],
    );
    expectValidationFailed(await create(depositor, to('00000000-0000-4000-8000-000000000000')), [
      { field: 'parent.review.receiver.community', messages: ['Community not found.'] },
    ]);
    expectValidationFailed(await create(depositor, to('no-such-community')), [
      { field: 'parent.review.receiver.community', messages: ['Community not found.'] },
    ]);
    expectValidationFailed(await create(depositor, { type: 'community-submission' }), [
      { field: 'parent.review.receiver', messages: ['Missing data for required field.'] },
    ]);
    expect(await drafts(depositor)).toBe(before);

    // Members-only communities are chosen freely; submitting is for their members.
    const closed = await create(depositor, to(membersOnly));
    expect(closed.statusCode, closed.body).toBe(201);
    expectError(await submit(closed.json().id as string), 403, 'PERMISSION_DENIED', MEMBERS_ONLY);

    // A restricted community makes the new public record restricted, as choosing it later does.
    const circle = await create(depositor, to(restricted));
    expect(circle.statusCode, circle.body).toBe(201);
    expect(circle.json().access).toMatchObject({ record: 'restricted', files: 'restricted' });
    expect((await submit(circle.json().id as string)).json()).toMatchObject({
      status: 'submitted',
    });
    // Outsiders cannot aim at a restricted community, and get no draft for trying.
    const strangers = await drafts(other);
    expectError(
      await create(other, to(restricted)),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expect(await drafts(other)).toBe(strangers);
  });

  it('submits through the request’s own submit action with submit-review’s rules, never publishing at once', async () => {
    const submitRequest = (id: string, caller: Caller = depositor) =>
      req('POST', `/api/requests/${id}/actions/submit`, caller);

    const closed = await draftWithReview(membersOnly);
    expectError(
      await submitRequest(await requestOf(closed)),
      403,
      'PERMISSION_DENIED',
      MEMBERS_ONLY,
    );
    expect((await readDraft(closed)).json().status).toBe('draft_with_review');

    const unfinished = await req('POST', '/api/records', depositor, {
      metadata: { title: 'x' },
      files: { enabled: false },
    });
    const unfinishedId = unfinished.json().id as string;
    await putReview(unfinishedId, reviewed);
    const refused = await submitRequest(await requestOf(unfinishedId));
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().errors.length).toBeGreaterThan(0);
    expect((await readDraft(unfinishedId)).json().status).toBe('draft_with_review');

    // The depositor curates `direct` (review_policy open): submit-review would publish at once.
    const id = await draftWithReview(direct);
    const res = await submitRequest(await requestOf(id));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'submitted',
      title: PUBLISHABLE_METADATA.title,
      links: { actions: { cancel: expect.any(String) } },
    });
    expect((await readDraft(id)).json().status).toBe('in_review');
  });

  /** Ends a submitted review: declined by the curator, or expired by the sweep. */
  async function close(requestId: string, how: 'declined' | 'expired') {
    if (how === 'declined') {
      const res = await req('POST', `/api/requests/${requestId}/actions/decline`, curator);
      expect(res.statusCode, res.body).toBe(200);
      return;
    }
    await makeDue(t, requestId);
    expect(await t.services.requests.expireDue()).toBe(1);
  }

  it.each(['declined', 'expired'] as const)(
    'lets a %s review be changed or removed, keeping the closed request',
    async (how) => {
      const changed = await draftWithReview(reviewed);
      const first = (await submit(changed)).json().id as string;
      await close(first, how);
      expect((await readDraft(changed)).json()).toMatchObject({
        status: how,
        parent: { review: { id: first, status: how } },
      });
      const swapped = await putReview(changed, direct);
      expect(swapped.statusCode, swapped.body).toBe(200);
      expect(swapped.json()).toMatchObject({ status: 'created', receiver: { community: direct } });
      expect(swapped.json().id).not.toBe(first);
      expect((await readDraft(changed)).json()).toMatchObject({
        status: 'draft_with_review',
        parent: { review: { id: swapped.json().id, status: 'created' } },
      });

      const removed = await draftWithReview(reviewed);
      const second = (await submit(removed)).json().id as string;
      await close(second, how);
      expect(
        (await req('DELETE', `/api/records/${removed}/draft/review`, depositor)).statusCode,
      ).toBe(204);
      const d = (await readDraft(removed)).json();
      expect(d.status).toBe('draft');
      expect(d.parent.review).toBeUndefined();
      for (const id of [first, second]) {
        expect((await req('GET', `/api/requests/${id}`, depositor)).json().status).toBe(how);
      }
    },
  );

  // Removing one in review is refused in the first test above ("An open review cannot be deleted.").
  it('refuses to change a review while in review, changing nothing', async () => {
    const id = await draftWithReview(reviewed);
    const review = (await submit(id)).json().id as string;
    expectError(
      await putReview(id, direct),
      400,
      'VALIDATION_FAILED',
      'An open review cannot be changed. Cancel it first.',
    );
    expect((await readDraft(id)).json()).toMatchObject({
      status: 'in_review',
      parent: { review: { id: review, status: 'submitted', receiver: { community: reviewed } } },
    });
    expect((await req('GET', `/api/requests/${review}`, depositor)).json().status).toBe(
      'submitted',
    );
  });

  it('documents the review routes in the OpenAPI document', async () => {
    const doc = (await req('GET', '/api/docs/openapi.json')).json();
    expect(doc.paths['/api/records/{id}/draft/review'].put).toBeDefined();
    expect(doc.paths['/api/records/{id}/draft/actions/submit-review'].post).toBeDefined();
  });
});
