import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectError, expectValidationFailed } from '../../test/assertions.js';

const VND = { accept: 'application/vnd.inveniordm.v1+json' };
const SITE = 'https://cairn.test';

type Caller = { id: number; headers: Record<string, string> };

describe.each(ENGINES)('communities API on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let other: Caller;
  let admin: Caller;

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    other = await t.user();
    admin = await t.user(undefined, { admin: true });
  });
  afterAll(() => t.close());

  const create = (caller: Caller, body: object) =>
    t.request({ method: 'POST', url: '/api/communities', headers: caller.headers, body });
  const minimal = (slug: string, access: Record<string, string> = {}) => ({
    slug,
    metadata: { title: 'My Community' },
    access: {
      visibility: 'public',
      members_visibility: 'public',
      record_submission_policy: 'open',
      ...access,
    },
  });

  it('creates the minimal community of the contract and returns metadata exactly as sent', async () => {
    const res = await create(owner, minimal('Public-One'));
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.slug).toBe('public-one');
    expect(body.metadata).toEqual({ title: 'My Community' });
    expect(body.revision_id).toBe(1);
    expect(res.headers.etag).toBe('"1"');
    expect(body.access).toMatchObject({
      visibility: 'public',
      record_submission_policy: 'open',
      record_policy: 'open',
      review_policy: 'closed',
      member_policy: 'open',
    });
    expect(body.links).toMatchObject({
      self: `${SITE}/api/communities/${body.id}`,
      self_html: `${SITE}/communities/public-one`,
      logo: `${SITE}/api/communities/${body.id}/logo`,
      rename: `${SITE}/api/communities/${body.id}/rename`,
      members: `${SITE}/api/communities/${body.id}/members`,
      requests: `${SITE}/api/communities/${body.id}/requests`,
    });
    expect(body.deletion_status).toEqual({ is_deleted: false, status: 'P' });
    expect(body.theme).toEqual({ enabled: false });

    // The creator is its owner.
    const members = await t.request({
      method: 'GET',
      url: `/api/communities/${body.id}/members`,
      headers: owner.headers,
    });
    expect(members.statusCode, members.body).toBe(200);
    expect(members.json().hits.hits).toMatchObject([
      { member: { id: String(owner.id) }, role: 'owner', is_current_user: true },
    ]);
  });

  it('reads by uuid and by slug, and types the community from the vocabulary', async () => {
    const created = (
      await create(owner, {
        ...minimal('typed'),
        metadata: { title: 'Typed', type: { id: 'event' } },
      })
    ).json();
    for (const key of [created.id, 'typed', 'TYPED']) {
      const res = await t.request({ method: 'GET', url: `/api/communities/${key}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().id).toBe(created.id);
      expect(res.json().metadata.type).toEqual({ id: 'event', title: { en: 'Event' } });
    }
    expectError(
      await t.request({ method: 'GET', url: '/api/communities/no-such-community' }),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
    expectError(
      await t.request({
        method: 'GET',
        url: '/api/communities/00000000-0000-4000-8000-000000000000',
      }),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
  });

  it('refuses bad slugs, titles and fields with the contract messages, creating nothing', async () => {
    const before = (
      await t.request({ method: 'GET', url: '/api/communities', headers: admin.headers })
    ).json().hits.total;
    expectValidationFailed(await create(owner, minimal('has space')), [
      {
        field: 'slug',
        messages: ['The identifier should contain only letters, numbers, or dashes.'],
      },
    ]);
    expectValidationFailed(await create(owner, minimal('x'.repeat(101))), [
      { field: 'slug', messages: ['Length must be between 1 and 100.'] },
    ]);
    expectValidationFailed(await create(owner, minimal('3f2504e0-4f89-11d3-9a0c-0305e82c3301')), [
      { field: 'slug', messages: ['The identifier should not be a UUID.'] },
    ]);
    expectValidationFailed(await create(owner, { metadata: { title: 'No slug' } }), [
      { field: 'slug', messages: ['Missing data for required field.'] },
    ]);
    expectValidationFailed(
      await create(owner, {
        slug: 'long-title',
        metadata: { title: 't'.repeat(251), description: 'd'.repeat(251) },
      }),
      [
        { field: 'metadata.title', messages: ['Length must be between 1 and 250.'] },
        { field: 'metadata.description', messages: ['Longer than maximum length 250.'] },
      ],
    );
    expectValidationFailed(await create(owner, { slug: 'no-title', metadata: {} }), [
      { field: 'metadata.title', messages: ['Missing data for required field.'] },
    ]);
    expectValidationFailed(
      await create(owner, {
        ...minimal('bad-access'),
        access: { visibility: 'secret', review_policy: 'sometimes' },
      }),
      [
        { field: 'access.visibility', messages: ['Must be one of: public, restricted.'] },
        { field: 'access.review_policy', messages: ['Must be one of: open, closed, members.'] },
      ],
    );
    expectValidationFailed(
      await create(owner, {
        ...minimal('bad-type'),
        metadata: { title: 'T', type: { id: 'galaxy' } },
      }),
      [{ field: 'metadata.type', messages: ['Invalid value galaxy.'] }],
    );
    expectValidationFailed(
      await create(owner, {
        ...minimal('bad-web'),
        metadata: { title: 'T', website: 'not a url' },
      }),
      [{ field: 'metadata.website', messages: ['Not a valid URL.'] }],
    );
    // Duplicate slugs, also differing in case only.
    await create(owner, minimal('taken'));
    const dup = await create(other, minimal('TAKEN'));
    expect(dup.statusCode).toBe(400);
    expect(dup.json().errors[0].messages[0]).toBe(
      'A community with this identifier already exists.',
    );
    expectError(
      await t.request({ method: 'POST', url: '/api/communities', body: minimal('anonymous') }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    const res = await t.request({
      method: 'POST',
      url: '/api/communities',
      headers: { ...owner.headers, 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(res.statusCode).toBe(415);
    const after = (
      await t.request({ method: 'GET', url: '/api/communities', headers: admin.headers })
    ).json().hits.total;
    expect(after).toBe(before + 1);
  });

  it('lets only administrators verify a community (theme) or give it an upload form', async () => {
    expectError(
      await create(owner, { ...minimal('self-verified'), theme: { enabled: true } }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    const res = await create(admin, {
      ...minimal('verified'),
      theme: { enabled: true },
      upload_form: { enabled: true },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ theme: { enabled: true }, upload_form: { enabled: true } });
  });

  it('updates metadata (revision +1, If-Match honoured), keeps the slug, and refuses non-managers', async () => {
    const c = (await create(owner, minimal('updatable'))).json();
    const body = {
      ...c,
      slug: 'ignored',
      metadata: { title: 'Renamed title', description: 'About us' },
    };
    expectError(
      await t.request({
        method: 'PUT',
        url: `/api/communities/${c.id}`,
        headers: other.headers,
        body,
      }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expectError(
      await t.request({ method: 'PUT', url: `/api/communities/${c.id}`, body }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    const stale = await t.request({
      method: 'PUT',
      url: `/api/communities/${c.id}`,
      headers: { ...owner.headers, 'if-match': '7' },
      body,
    });
    expectError(
      stale,
      412,
      'REVISION_MISMATCH',
      "Revision id provided(7) doesn't match record's one(1)",
    );
    const res = await t.request({
      method: 'PUT',
      url: `/api/communities/${c.id}`,
      headers: { ...owner.headers, 'if-match': '1' },
      body,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      slug: 'updatable',
      revision_id: 2,
      metadata: { title: 'Renamed title', description: 'About us' },
    });
    const invalid = await t.request({
      method: 'PUT',
      url: `/api/communities/${c.id}`,
      headers: owner.headers,
      body: { metadata: { title: '' } },
    });
    expectValidationFailed(invalid, [
      { field: 'metadata.title', messages: ['Length must be between 1 and 250.'] },
    ]);
    const unchanged = await t.request({ method: 'GET', url: `/api/communities/${c.id}` });
    expect(unchanged.json()).toMatchObject({
      revision_id: 2,
      metadata: { title: 'Renamed title' },
    });
  });

  it('renames the slug (owners only), lower-cased, and refuses a taken one', async () => {
    const c = (await create(owner, minimal('old-name'))).json();
    await create(owner, minimal('occupied'));
    const rename = (caller: Caller, slug: unknown) =>
      t.request({
        method: 'POST',
        url: `/api/communities/${c.id}/rename`,
        headers: caller.headers,
        body: { slug },
      });
    expectError(await rename(other, 'mine-now'), 403, 'PERMISSION_DENIED', 'Permission denied.');
    expect((await rename(owner, 'occupied')).json().errors[0].messages).toEqual([
      'A community with this identifier already exists.',
    ]);
    expectValidationFailed(await rename(owner, 'no/slash'), [
      {
        field: 'slug',
        messages: ['The identifier should contain only letters, numbers, or dashes.'],
      },
    ]);
    const res = await rename(owner, 'New_Name');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      slug: 'new_name',
      revision_id: 2,
      links: { self_html: `${SITE}/communities/new_name` },
    });
    expect((await t.request({ method: 'GET', url: '/api/communities/new_name' })).statusCode).toBe(
      200,
    );
    expect((await t.request({ method: 'GET', url: '/api/communities/old-name' })).statusCode).toBe(
      404,
    );
  });

  it('deletes to a tombstone: 410 after, slug stays reserved, gone from search', async () => {
    const c = (await create(owner, minimal('doomed'))).json();
    expectError(
      await t.request({
        method: 'DELETE',
        url: `/api/communities/${c.id}`,
        headers: other.headers,
      }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    const res = await t.request({
      method: 'DELETE',
      url: `/api/communities/${c.id}`,
      headers: owner.headers,
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    for (const key of [c.id, 'doomed']) {
      expectError(
        await t.request({ method: 'GET', url: `/api/communities/${key}` }),
        410,
        'RECORD_DELETED',
        'The record has been deleted.',
      );
    }
    expectError(
      await t.request({
        method: 'PUT',
        url: `/api/communities/${c.id}`,
        headers: owner.headers,
        body: minimal('doomed'),
      }),
      410,
      'RECORD_DELETED',
      'The record has been deleted.',
    );
    expect((await create(other, minimal('doomed'))).json().errors[0].messages).toEqual([
      'A community with this identifier already exists.',
    ]);
    const search = await t.request({
      method: 'GET',
      url: '/api/communities?q=doomed',
      headers: admin.headers,
    });
    expect(search.json().hits.total).toBe(0);
    expectError(
      await t.request({
        method: 'DELETE',
        url: '/api/communities/never-was',
        headers: owner.headers,
      }),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
  });

  it('stores, serves and removes a logo, with the size limit and the contract messages', async () => {
    const c = (await create(owner, minimal('logo-club'))).json();
    const url = `/api/communities/${c.id}/logo`;
    expectError(
      await t.request({ method: 'GET', url }),
      404,
      'NOT_FOUND',
      'No logo exists for this community.',
    );
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(100, 7),
    ]);
    expectError(
      await t.request({
        method: 'PUT',
        url,
        payload: png,
        headers: { 'content-type': 'application/octet-stream' },
      }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    const put = await t.request({
      method: 'PUT',
      url,
      payload: png,
      headers: { ...owner.headers },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({
      key: 'logo',
      size: png.length,
      checksum: expect.stringMatching(/^md5:[0-9a-f]{32}$/),
    });
    const get = await t.request({ method: 'GET', url });
    expect(get.statusCode).toBe(200);
    expect(get.headers['content-type']).toBe('image/png');
    expect(get.rawPayload.equals(png)).toBe(true);
    const big = await t.request({
      method: 'PUT',
      url,
      payload: Buffer.alloc(4_000_000, 1),
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
    });
    expectError(
      big,
      400,
      'VALIDATION_FAILED',
      'Logo size limit exceeded. Limit: 1.00 MB Given: 4.00 MB',
    );
    expect((await t.request({ method: 'GET', url })).rawPayload.equals(png)).toBe(true);
    const wrongType = await t.request({
      method: 'PUT',
      url,
      payload: png,
      headers: { ...owner.headers, 'content-type': 'image/png' },
    });
    expect(wrongType.statusCode).toBe(415);
    expectError(
      await t.request({ method: 'DELETE', url }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expect((await t.request({ method: 'DELETE', url, headers: owner.headers })).statusCode).toBe(
      204,
    );
    expectError(
      await t.request({ method: 'DELETE', url, headers: owner.headers }),
      404,
      'NOT_FOUND',
      'No logo exists for this community.',
    );
  });

  it('searches with q, sort and paging, hiding restricted communities from outsiders', async () => {
    const s = await createTestApp(engine);
    try {
      const u = await s.user();
      const stranger = await s.user();
      const make = (slug: string, title: string, access: Record<string, string> = {}) =>
        s.request({
          method: 'POST',
          url: '/api/communities',
          headers: u.headers,
          body: { slug, metadata: { title, description: `About ${title}` }, access },
        });
      await make('glaciers', 'Glacier research');
      await make('glacier-archive', 'Archive of glaciers and ice');
      await make('oceans', 'Ocean science');
      await make('secret-ice', 'Glacier secrets', { visibility: 'restricted' });

      const anon = await s.request({ method: 'GET', url: '/api/communities?q=glacier' });
      expect(anon.statusCode, anon.body).toBe(200);
      const body = anon.json();
      expect(body.sortBy).toBe('bestmatch');
      expect(body.hits.total).toBe(2);
      expect(body.hits.hits.map((h: { slug: string }) => h.slug)).toEqual([
        'glaciers',
        'glacier-archive',
      ]);
      expect(body.aggregations.visibility.buckets).toEqual([
        {
          key: 'public',
          doc_count: 3,
          label: 'Public',
          is_selected: false,
          inner: { buckets: [] },
        },
      ]);
      expect(body.links.self).toBe(
        `${SITE}/api/communities?page=1&q=glacier&size=25&sort=bestmatch`,
      );

      const member = await s.request({
        method: 'GET',
        url: '/api/communities?q=glacier',
        headers: u.headers,
      });
      expect(member.json().hits.total).toBe(3);
      const outsider = await s.request({
        method: 'GET',
        url: '/api/communities?q=glacier',
        headers: stranger.headers,
      });
      expect(outsider.json().hits.total).toBe(2);
      expectError(
        await s.request({
          method: 'GET',
          url: '/api/communities/secret-ice',
          headers: stranger.headers,
        }),
        403,
        'PERMISSION_DENIED',
        'Permission denied.',
      );

      const oldest = await s.request({
        method: 'GET',
        url: '/api/communities?sort=oldest&size=1&page=2',
      });
      expect(oldest.json()).toMatchObject({
        sortBy: 'oldest',
        page: 2,
        hits: { total: 3, hits: [{ slug: 'glacier-archive' }] },
      });
      expect(Object.keys(oldest.json().links).sort()).toEqual(['next', 'prev', 'self']);
      const newest = await s.request({ method: 'GET', url: '/api/communities' });
      expect(newest.json().sortBy).toBe('newest');
      expect(newest.json().hits.hits[0].slug).toBe('oceans');

      expectValidationFailed(
        await s.request({ method: 'GET', url: '/api/communities?sort=loudest' }),
        [{ field: 'sort', messages: ["Invalid sort option 'loudest'."] }],
      );
      expectValidationFailed(await s.request({ method: 'GET', url: '/api/communities?size=0' }), [
        { field: 'size', messages: ['Must be greater than or equal to 1.'] },
      ]);
      const mine = await s.request({
        method: 'GET',
        url: '/api/user/communities',
        headers: u.headers,
      });
      expect(mine.json().hits.total).toBe(4);
      expect(
        (
          await s.request({
            method: 'GET',
            url: '/api/user/communities',
            headers: stranger.headers,
          })
        ).json().hits.total,
      ).toBe(0);
      expectError(
        await s.request({ method: 'GET', url: '/api/user/communities' }),
        403,
        'PERMISSION_DENIED',
        'Permission denied.',
      );
    } finally {
      await s.close();
    }
  });

  it('gives each vnd hit the caller’s permissions and role badge', async () => {
    const s = await createTestApp(engine);
    try {
      const o = await s.user();
      const m = await s.user();
      const x = await s.user();
      const make = (slug: string, access: Record<string, string>) =>
        s.request({
          method: 'POST',
          url: '/api/communities',
          headers: o.headers,
          body: { slug, metadata: { title: slug }, access },
        });
      const open = (await make('open-review', { review_policy: 'open' })).json();
      const closed = (
        await make('members-only', { record_submission_policy: 'closed', review_policy: 'members' })
      ).json();
      for (const c of [open, closed]) {
        const add = await s.request({
          method: 'POST',
          url: `/api/communities/${c.id}/members`,
          headers: o.headers,
          body: { members: [{ type: 'user', id: String(m.id) }], role: 'reader' },
        });
        expect(add.statusCode, add.body).toBe(204);
      }
      const perms = async (caller: { headers: Record<string, string> } | undefined) => {
        const res = await s.request({
          method: 'GET',
          url: '/api/communities?sort=oldest',
          headers: { ...VND, ...caller?.headers },
        });
        expect(res.statusCode, res.body).toBe(200);
        const hits = res.json().hits.hits as Array<{ slug: string; ui: Record<string, unknown> }>;
        return hits.map((h) => [h.slug, h.ui] as const);
      };
      const perm = (include: boolean, submit: boolean, update: boolean) => ({
        can_include_directly: include,
        can_submit_record: submit,
        can_update: update,
      });
      expect(await perms(o)).toEqual([
        [
          'open-review',
          expect.objectContaining({
            permissions: perm(true, true, true),
            membership_role: 'owner',
          }),
        ],
        [
          'members-only',
          expect.objectContaining({
            permissions: perm(true, true, true),
            membership_role: 'owner',
          }),
        ],
      ]);
      expect(await perms(m)).toEqual([
        [
          'open-review',
          expect.objectContaining({
            permissions: perm(false, true, false),
            membership_role: 'reader',
          }),
        ],
        [
          'members-only',
          expect.objectContaining({
            permissions: perm(true, true, false),
            membership_role: 'reader',
          }),
        ],
      ]);
      const outsider = await perms(x);
      expect(outsider).toEqual([
        ['open-review', expect.objectContaining({ permissions: perm(false, true, false) })],
        ['members-only', expect.objectContaining({ permissions: perm(false, false, false) })],
      ]);
      expect(outsider[0]![1].membership_role).toBeUndefined();
      expect(await perms(undefined)).toEqual([
        ['open-review', expect.objectContaining({ permissions: perm(false, false, false) })],
        ['members-only', expect.objectContaining({ permissions: perm(false, false, false) })],
      ]);
      // Plain JSON carries no ui.
      const plain = await s.request({ method: 'GET', url: '/api/communities', headers: o.headers });
      expect(plain.json().hits.hits[0].ui).toBeUndefined();
      expect(plain.headers['content-type']).toMatch(/^application\/json/);
    } finally {
      await s.close();
    }
  });

  it('applies the role rules to adding, changing and removing members', async () => {
    const c = (await create(owner, minimal('team'))).json();
    const [manager, curator, reader, newcomer] = [
      await t.user(),
      await t.user(),
      await t.user(),
      await t.user(),
    ];
    const members = (caller: Caller, method: 'POST' | 'PUT' | 'DELETE', body: object) =>
      t.request({ method, url: `/api/communities/${c.id}/members`, headers: caller.headers, body });
    const ref = (u: Caller) => ({ type: 'user', id: String(u.id) });
    expect(
      (await members(owner, 'POST', { members: [ref(manager)], role: 'manager' })).statusCode,
    ).toBe(204);
    expect(
      (await members(manager, 'POST', { members: [ref(curator)], role: 'curator' })).statusCode,
    ).toBe(204);
    expect(
      (await members(manager, 'POST', { members: [ref(reader)], role: 'reader' })).statusCode,
    ).toBe(204);
    // A manager cannot make owners, curators and readers cannot manage at all, strangers neither.
    expectError(
      await members(manager, 'POST', { members: [ref(newcomer)], role: 'owner' }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expectError(
      await members(curator, 'POST', { members: [ref(newcomer)], role: 'reader' }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expectError(
      await members(other, 'POST', { members: [ref(newcomer)], role: 'reader' }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expectError(
      await members(manager, 'PUT', { members: [ref(owner)], role: 'reader' }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    // Bad input.
    expectValidationFailed(
      await members(owner, 'POST', { members: [ref(newcomer)], role: 'boss' }),
      [{ field: 'role', messages: ['Must be one of: owner, manager, curator, reader.'] }],
    );
    expectValidationFailed(await members(owner, 'POST', { members: [], role: 'reader' }), [
      { field: 'members', messages: ['Shorter than minimum length 1.'] },
    ]);
    expectValidationFailed(
      await members(owner, 'POST', { members: [{ type: 'user', id: '999999' }], role: 'reader' }),
      [{ field: 'members.0.id', messages: ['User not found.'] }],
    );
    expectError(
      await members(owner, 'POST', { members: [ref(reader)], role: 'reader' }),
      400,
      'VALIDATION_FAILED',
      'A member was already added or invited.',
    );

    // Promote, then demote; the list shows roles.
    expect(
      (await members(manager, 'PUT', { members: [ref(reader)], role: 'curator' })).statusCode,
    ).toBe(204);
    const list = await t.request({
      method: 'GET',
      url: `/api/communities/${c.id}/members`,
      headers: reader.headers,
    });
    expect(list.statusCode).toBe(200);
    const roles = Object.fromEntries(
      list
        .json()
        .hits.hits.map((h: { member: { id: string }; role: string }) => [h.member.id, h.role]),
    );
    expect(roles).toEqual({
      [owner.id]: 'owner',
      [manager.id]: 'manager',
      [curator.id]: 'curator',
      [reader.id]: 'curator',
    });
    expectError(
      await t.request({
        method: 'GET',
        url: `/api/communities/${c.id}/members`,
        headers: other.headers,
      }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    const publicList = await t.request({
      method: 'GET',
      url: `/api/communities/${c.id}/members/public`,
    });
    expect(publicList.statusCode).toBe(200);
    expect(publicList.json().hits.total).toBe(4);
    expect(publicList.json().hits.hits[0].role).toBeUndefined();

    // The last owner stays; members may leave; managers remove whom they manage.
    expectError(
      await members(owner, 'DELETE', { members: [ref(owner)] }),
      400,
      'VALIDATION_FAILED',
      'A community must keep at least one owner.',
    );
    expectError(
      await members(owner, 'PUT', { members: [ref(owner)], role: 'reader' }),
      400,
      'VALIDATION_FAILED',
      'A community must keep at least one owner.',
    );
    expect((await members(curator, 'DELETE', { members: [ref(curator)] })).statusCode).toBe(204);
    expectError(
      await members(reader, 'DELETE', { members: [ref(manager)] }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expect((await members(manager, 'DELETE', { members: [ref(reader)] })).statusCode).toBe(204);
    expectValidationFailed(await members(owner, 'DELETE', { members: [ref(reader)] }), [
      { field: 'members.0.id', messages: ['Not a member of this community.'] },
    ]);
    const after = await t.request({
      method: 'GET',
      url: `/api/communities/${c.id}/members`,
      headers: owner.headers,
    });
    expect(after.json().hits.total).toBe(2);
  });

  it('documents every community route in the OpenAPI document', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/docs/openapi.json' })).json();
    for (const path of [
      '/api/communities',
      '/api/user/communities',
      '/api/communities/{id}',
      '/api/communities/{id}/rename',
      '/api/communities/{id}/logo',
      '/api/communities/{id}/members',
      '/api/communities/{id}/members/public',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(
      doc.paths['/api/communities'].post.requestBody.content['application/json'].schema.properties
        .slug,
    ).toBeDefined();
  });
});
