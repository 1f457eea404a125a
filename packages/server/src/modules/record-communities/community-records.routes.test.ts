import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createCommunity, requestAs, type Method } from '../../test/communities.js';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectError, expectValidationFailed } from '../../test/assertions.js';
import { PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';

const SITE = 'https://cairn.test';

describe.each(ENGINES)('GET /api/communities/{id}/records on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let depositor: Caller;
  let reader: Caller;
  let other: Caller;
  let admin: Caller;
  /** Public; curators include directly, and the depositor curates it. */
  let community: string;
  /** Restricted, members only. */
  let hidden: string;
  const ids = {} as Record<'alpha' | 'beta' | 'secret' | 'outside', string>;

  const req = (method: Method, url: string, caller?: Caller, body?: object) =>
    requestAs(t, method, url, caller, body);

  const newCommunity = (slug: string, access: Record<string, string>) =>
    createCommunity(t, owner, slug, access);
  const join = (communityId: string, member: Caller, role: string) =>
    addMember(t, owner, communityId, member, role);

  /** A draft of the depositor, published into `into` (directly) or on its own. */
  async function publish(title: string, access: string, into?: string) {
    const created = await req('POST', '/api/records', depositor, {
      metadata: { ...PUBLISHABLE_METADATA, title },
      files: { enabled: false },
      access: { record: access, files: access },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    if (!into) {
      const res = await req('POST', `/api/records/${id}/draft/actions/publish`, depositor);
      expect(res.statusCode, res.body).toBe(202);
      return id;
    }
    const review = await req('PUT', `/api/records/${id}/draft/review`, depositor, {
      type: 'community-submission',
      receiver: { community: into },
    });
    expect(review.statusCode, review.body).toBe(200);
    const submitted = await req(
      'POST',
      `/api/records/${id}/draft/actions/submit-review`,
      depositor,
    );
    expect(submitted.statusCode, submitted.body).toBe(202);
    expect(submitted.json().status).toBe('accepted');
    return id;
  }

  const titles = (res: Awaited<ReturnType<typeof req>>) =>
    (res.json().hits.hits as Array<{ metadata: { title: string } }>).map((h) => h.metadata.title);

  beforeAll(async () => {
    t = await createTestApp(engine);
    [owner, depositor, reader, other] = [
      await t.user(),
      await t.user(),
      await t.user(),
      await t.user(),
    ];
    admin = await t.user(undefined, { admin: true });
    community = await newCommunity('field-notes', { review_policy: 'open' });
    await join(community, depositor, 'curator');
    await join(community, reader, 'reader');
    hidden = await newCommunity('inner-circle', {
      visibility: 'restricted',
      review_policy: 'open',
    });
    await join(hidden, depositor, 'curator');
    ids.alpha = await publish('Sediment cores alpha', 'public', community);
    ids.beta = await publish('Glacier ice beta', 'public', community);
    ids.secret = await publish('Sediment secret gamma', 'restricted', community);
    ids.outside = await publish('Sediment outside delta', 'public');
  });
  afterAll(() => t.close());

  it("answers InvenioRDM's search envelope with the community's records, newest first", async () => {
    const res = await req('GET', `/api/communities/${community}/records`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.hits.total).toBe(2);
    expect(titles(res)).toEqual(['Glacier ice beta', 'Sediment cores alpha']);
    expect(body.sortBy).toBe('newest');
    expect(body.links).toEqual({
      self: `${SITE}/api/communities/${community}/records?page=1&size=25&sort=newest`,
    });
    expect(body.aggregations.resource_type.buckets).toEqual([
      expect.objectContaining({ key: 'dataset', doc_count: 2, is_selected: false }),
    ]);
    expect(body.hits.hits[0].parent.communities).toEqual({ ids: [community], default: community });
  });

  it('reads the community by slug and pages with prev and next links', async () => {
    const first = await req('GET', '/api/communities/field-notes/records?size=1&sort=oldest');
    expect(first.statusCode, first.body).toBe(200);
    expect(titles(first)).toEqual(['Sediment cores alpha']);
    const base = `${SITE}/api/communities/${community}/records`;
    expect(first.json().links).toEqual({
      self: `${base}?page=1&size=1&sort=oldest`,
      next: `${base}?page=2&size=1&sort=oldest`,
    });
    const second = await req(
      'GET',
      '/api/communities/field-notes/records?size=1&sort=oldest&page=2',
    );
    expect(titles(second)).toEqual(['Glacier ice beta']);
    expect(second.json().links.prev).toBe(`${base}?page=1&size=1&sort=oldest`);
    expect(second.json().links.next).toBeUndefined();
  });

  it('searches with q inside the community only', async () => {
    const res = await req('GET', `/api/communities/${community}/records?q=sediment`, reader);
    expect(res.json().sortBy).toBe('bestmatch');
    expect(titles(res).sort()).toEqual(['Sediment cores alpha', 'Sediment secret gamma']);
    const none = await req('GET', `/api/communities/${community}/records?q=glacier+secret`);
    expect(none.json().hits).toEqual({ hits: [], total: 0 });
  });

  it('shows restricted records to the owner, the community members and admins only', async () => {
    const seen = async (caller?: Caller) =>
      (await req('GET', `/api/communities/${community}/records`, caller)).json().hits
        .total as number;
    expect(await seen(undefined)).toBe(2);
    expect(await seen(other)).toBe(2);
    expect(await seen(reader)).toBe(3);
    expect(await seen(owner)).toBe(3);
    expect(await seen(depositor)).toBe(3);
    expect(await seen(admin)).toBe(3);
    // Membership of the record's community lets a member read the record itself too.
    expect((await req('GET', `/api/records/${ids.secret}`, reader)).statusCode).toBe(200);
    expectError(
      await req('GET', `/api/records/${ids.secret}`, other),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    // …and find it in the global search.
    const global = await req('GET', '/api/records?q=secret', reader);
    expect(titles(global)).toEqual(['Sediment secret gamma']);
    expect((await req('GET', '/api/records?q=secret', other)).json().hits.total).toBe(0);
  });

  it('keeps a restricted community to its members', async () => {
    expectError(
      await req('GET', `/api/communities/${hidden}/records`),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expectError(
      await req('GET', `/api/communities/${hidden}/records`, other),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    const member = await req('GET', '/api/communities/inner-circle/records', depositor);
    expect(member.statusCode, member.body).toBe(200);
    expect(member.json().hits.total).toBe(0);
  });

  it("answers the contract's errors for unknown and deleted communities and bad parameters", async () => {
    expectError(
      await req('GET', '/api/communities/no-such-community/records'),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
    expectError(
      await req('GET', '/api/communities/00000000-0000-4000-8000-000000000000/records'),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
    expectValidationFailed(
      await req('GET', `/api/communities/${community}/records?sort=nonsense`),
      [{ field: 'sort', messages: ["Invalid sort option 'nonsense'."] }],
    );
    expectValidationFailed(await req('GET', `/api/communities/${community}/records?size=0`), [
      { field: 'size', messages: ['Must be greater than or equal to 1.'] },
    ]);
    const gone = await newCommunity('short-lived', {});
    expect((await req('DELETE', `/api/communities/${gone}`, owner)).statusCode).toBe(204);
    expectError(
      await req('GET', `/api/communities/${gone}/records`),
      410,
      'RECORD_DELETED',
      'The record has been deleted.',
    );
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = (await req('GET', '/api/docs/openapi.json')).json();
    expect(doc.paths['/api/communities/{id}/records'].get).toBeDefined();
  });
});
