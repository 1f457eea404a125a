import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectError, expectValidationFailed } from '../../test/assertions.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';

const NO_GRANT = 'No grant found with the given ID.';
const EXISTS = 'Grant for this user/role already exists within this record.';
const DENIED = 'Permission denied.';

describe.each(ENGINES)('grants to people on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let stranger: Caller;
  let files: FilesApi;
  /** A published record, record and files restricted, with data.csv; and its open edit draft. */
  let record: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    stranger = await t.user();
    files = new FilesApi(t, owner);
    record = await restrictedRecord();
  });
  afterAll(() => t.close());

  /** A new restricted record with data.csv, published, with its edit draft open. */
  async function restrictedRecord(): Promise<string> {
    const restricted = { record: 'restricted', files: 'restricted' };
    const id = (await files.createDraft({ metadata: PUBLISHABLE_METADATA, access: restricted })).id;
    await files.upload(id, 'data.csv', 'a,b\n1,2\n');
    await files.publish(id);
    const edit = await call(owner, 'POST', `/api/records/${id}/draft`);
    expect(edit.statusCode, edit.body).toBe(201);
    return id;
  }

  type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  function call(caller: Caller | undefined, method: Method, url: string, body?: unknown) {
    return t.request({
      method,
      url,
      headers: caller?.headers ?? {},
      ...(body !== undefined ? { body: body as object } : {}),
    });
  }

  function grantBody(to: Caller | string, permission: string) {
    const id = typeof to === 'string' ? to : String(to.id);
    return { grants: [{ subject: { type: 'user', id }, permission }] };
  }

  async function grant(id: string, to: Caller, permission: string, by: Caller = owner) {
    const res = await call(
      by,
      'POST',
      `/api/records/${id}/access/grants`,
      grantBody(to, permission),
    );
    expect(res.statusCode, res.body).toBe(201);
  }

  async function count(id: string): Promise<number> {
    const res = await call(owner, 'GET', `/api/records/${id}/access/grants`);
    return res.json<{ hits: { total: number } }>().hits.total;
  }

  it("names each grant's person with expand, never their address", async () => {
    const id = await restrictedRecord();
    const named = await t.user();
    await grant(id, named, 'edit');
    for (const path of ['grants', 'users']) {
      const plain = await call(owner, 'GET', `/api/records/${id}/access/${path}`);
      expect(plain.json().hits.hits[0]).not.toHaveProperty('expanded');
      for (const flag of ['1', 'true']) {
        const res = await call(owner, 'GET', `/api/records/${id}/access/${path}?expand=${flag}`);
        expect(res.statusCode, res.body).toBe(200);
        const [hit] = res.json().hits.hits;
        expect(hit.expanded.subject).toEqual({
          id: String(named.id),
          username: null,
          profile: { full_name: expect.any(String) },
        });
        expect(res.body).not.toContain(named.email);
      }
    }
    // Who may not list the grants learns no names either.
    const refused = await call(stranger, 'GET', `/api/records/${id}/access/users?expand=1`);
    expect(refused.statusCode).toBe(403);
  });

  it('creates, lists, reads, changes and revokes grants as InvenioRDM answers them', async () => {
    const id = await restrictedRecord();
    const [a, b] = [await t.user(), await t.user()];
    const url = `/api/records/${id}/access/grants`;
    const created = await call(owner, 'POST', url, {
      grants: [
        { subject: { type: 'user', id: String(a.id) }, permission: 'view' },
        { subject: { type: 'user', id: String(b.id) }, permission: 'edit', notify: false },
      ],
      message: 'For the co-authors',
      notify: false,
    });
    expect(created.statusCode, created.body).toBe(201);
    const origin = `api:${owner.id}`;
    const first = { subject: { type: 'user', id: String(a.id) }, permission: 'view', origin };
    const second = { subject: { type: 'user', id: String(b.id) }, permission: 'edit', origin };
    expect(created.json()).toEqual({ hits: { hits: [first, second], total: 2 } });

    expect((await call(owner, 'GET', url)).json()).toEqual(created.json());
    expect((await call(owner, 'GET', `${url}/0`)).json()).toEqual(first);
    expect((await call(owner, 'GET', `${url}/1`)).json()).toEqual(second);
    const users = `/api/records/${id}/access/users`;
    expect((await call(owner, 'GET', users)).json()).toEqual(created.json());
    expect((await call(owner, 'GET', `${users}/${b.id}`)).json()).toEqual(second);

    const patched = await call(owner, 'PATCH', `${users}/${a.id}`, { permission: 'preview' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toEqual({ ...first, permission: 'preview' });
    expect((await call(owner, 'GET', `${url}/0`)).json().permission).toBe('preview');

    // Revoking by index: the grants after it move up.
    const revoked = await call(owner, 'DELETE', `${url}/0`);
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect(revoked.body).toBe('');
    expect((await call(owner, 'GET', `${url}/0`)).json()).toEqual(second);
    expectError(await call(owner, 'GET', `${url}/1`), 404, 'NOT_FOUND', NO_GRANT);
    const gone = await call(owner, 'DELETE', `${users}/${b.id}`);
    expect(gone.statusCode, gone.body).toBe(204);
    expect((await call(owner, 'GET', url)).json()).toEqual({ hits: { hits: [], total: 0 } });
    expectError(await call(owner, 'DELETE', `${users}/${b.id}`), 404, 'NOT_FOUND', NO_GRANT);
    expectError(await call(owner, 'GET', `${users}/${b.id}`), 404, 'NOT_FOUND', NO_GRANT);
  });

  it('refuses bad input with the contract status and message, and gives none of the grants', async () => {
    const id = await restrictedRecord();
    const url = `/api/records/${id}/access/grants`;
    const a = await t.user();
    const subject = 'grants.subject.id';
    // To oneself, the owner.
    expectValidationFailed(await call(owner, 'POST', url, grantBody(owner, 'view')), [
      { field: subject, messages: ["The record's owner already has every permission on it."] },
    ]);
    // To nobody.
    for (const nobody of ['999999', '2147483648', '9007199254740992', 'x', '0', '']) {
      expectValidationFailed(await call(owner, 'POST', url, grantBody(nobody, 'view')), [
        { field: subject, messages: ['Could not find the specified subject.'] },
      ]);
    }
    // An unknown permission or subject type, no grants at all, no body.
    expectValidationFailed(await call(owner, 'POST', url, grantBody(a, 'own')), [
      {
        field: 'grants.0.permission',
        messages: ['Must be one of: view, preview, edit, manage.'],
      },
    ]);
    const role = { grants: [{ subject: { type: 'role', id: '1' }, permission: 'view' }] };
    expectValidationFailed(await call(owner, 'POST', url, role), [
      { field: 'grants.0.subject.type', messages: ['Must be one of: user.'] },
    ]);
    const none = await call(owner, 'POST', url, { grants: [] });
    expect(none.statusCode, none.body).toBe(400);
    expect((await call(owner, 'POST', url, [])).statusCode).toBe(400);
    // A good grant beside a bad one is not given either.
    const mixed = {
      grants: [
        { subject: { type: 'user', id: String(a.id) }, permission: 'view' },
        { subject: { type: 'user', id: '999999' }, permission: 'view' },
      ],
    };
    expect((await call(owner, 'POST', url, mixed)).statusCode).toBe(400);
    // The same person twice in one request, or again later.
    const twice = {
      grants: [
        { subject: { type: 'user', id: String(a.id) }, permission: 'view' },
        { subject: { type: 'user', id: String(a.id) }, permission: 'edit' },
      ],
    };
    expectError(await call(owner, 'POST', url, twice), 400, 'VALIDATION_FAILED', EXISTS);
    expect(await count(id)).toBe(0);
    await grant(id, a, 'view');
    expectError(
      await call(owner, 'POST', url, grantBody(a, 'edit')),
      400,
      'VALIDATION_FAILED',
      EXISTS,
    );
    expect((await call(owner, 'GET', url)).json().hits.hits).toEqual([
      {
        subject: { type: 'user', id: String(a.id) },
        permission: 'view',
        origin: `api:${owner.id}`,
      },
    ]);
    // Indexes and users that name no grant.
    for (const index of ['1', '-1', 'x', '01', '99999999999']) {
      expectError(await call(owner, 'GET', `${url}/${index}`), 404, 'NOT_FOUND', NO_GRANT);
      expectError(await call(owner, 'DELETE', `${url}/${index}`), 404, 'NOT_FOUND', NO_GRANT);
    }
    const users = `/api/records/${id}/access/users`;
    for (const user of [String(stranger.id), 'x', '2147483648']) {
      const res = await call(owner, 'PATCH', `${users}/${user}`, { permission: 'edit' });
      expectError(res, 404, 'NOT_FOUND', NO_GRANT);
    }
    expectValidationFailed(await call(owner, 'PATCH', `${users}/${a.id}`, { permission: 'own' }), [
      { field: 'permission', messages: ['Must be one of: view, preview, edit, manage.'] },
    ]);
    expect((await call(owner, 'GET', `${url}/0`)).json().permission).toBe('view');
    // An unknown record.
    expectError(
      await call(owner, 'POST', '/api/records/zzzzz-zzzzz/access/grants', grantBody(a, 'view')),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
  });

  it('gives one grant of parallel grants to the same person', async () => {
    const id = await restrictedRecord();
    const a = await t.user();
    const url = `/api/records/${id}/access/grants`;
    const results = await Promise.all(
      ['view', 'preview', 'edit', 'manage', 'view', 'edit'].map((p) =>
        call(owner, 'POST', url, grantBody(a, p)),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400, 400, 400, 400, 400]);
    expect(await count(id)).toBe(1);
    const deletions = await Promise.all(
      Array.from({ length: 6 }, () => call(owner, 'DELETE', `${url}/0`)),
    );
    expect(deletions.map((r) => r.statusCode).sort()).toEqual([204, 404, 404, 404, 404, 404]);
    expect(await count(id)).toBe(0);
  });

  it('opens a restricted record and its files to a view grant, and not its draft', async () => {
    const reader = await t.user();
    const urls = [
      `/api/records/${record}`,
      `/api/records/${record}/files`,
      `/api/records/${record}/files/data.csv/content`,
      `/api/records/${record}/files-archive`,
      `/api/records/${record}/versions`,
    ];
    for (const url of urls) expect((await call(reader, 'GET', url)).statusCode, url).toBe(403);
    await grant(record, reader, 'view');
    for (const url of urls) {
      const res = await call(reader, 'GET', url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    }
    expect((await call(reader, 'GET', `/api/records/${record}/versions`)).json().hits.total).toBe(
      1,
    );
    expectError(
      await call(reader, 'GET', `/api/records/${record}/draft`),
      403,
      'PERMISSION_DENIED',
      DENIED,
    );
    // Nobody else gets in by it, and it opens no other record.
    expect((await call(stranger, 'GET', `/api/records/${record}`)).statusCode).toBe(403);
    const other = await restrictedRecord();
    expect((await call(reader, 'GET', `/api/records/${other}`)).statusCode).toBe(403);

    // Revoked: closed again at once.
    const del = await call(owner, 'DELETE', `/api/records/${record}/access/users/${reader.id}`);
    expect(del.statusCode).toBe(204);
    expect((await call(reader, 'GET', `/api/records/${record}`)).statusCode).toBe(403);
  });

  it('opens the draft to preview, edits it with edit, and shares and manages it with manage', async () => {
    const id = await restrictedRecord();
    const [viewer, previewer, editor, manager] = [
      await t.user(),
      await t.user(),
      await t.user(),
      await t.user(),
    ];
    await grant(id, viewer, 'view');
    await grant(id, previewer, 'preview');
    await grant(id, editor, 'edit');
    await grant(id, manager, 'manage');
    const draftUrl = `/api/records/${id}/draft`;
    expect((await call(viewer, 'GET', draftUrl)).statusCode).toBe(403);
    for (const caller of [previewer, editor, manager]) {
      for (const url of [draftUrl, `${draftUrl}/files`, `${draftUrl}/files/data.csv/content`]) {
        const res = await call(caller, 'GET', url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      }
    }
    const current = (await call(owner, 'GET', draftUrl)).json();
    const body = (title: string) => ({
      metadata: { ...current.metadata, title },
      access: current.access,
      files: current.files,
    });
    for (const caller of [viewer, previewer]) {
      expectError(
        await call(caller, 'PUT', draftUrl, body('No')),
        403,
        'PERMISSION_DENIED',
        DENIED,
      );
    }
    const saved = await call(editor, 'PUT', draftUrl, body('Edited through a grant'));
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await call(owner, 'GET', draftUrl)).json().metadata.title).toBe(
      'Edited through a grant',
    );
    // Editing is not managing: no sharing, no discarding, no new versions.
    for (const [method, url] of [
      ['GET', `/api/records/${id}/access/links`],
      ['GET', `/api/records/${id}/access/grants`],
      ['GET', `/api/records/${id}/access/users`],
      ['POST', `/api/records/${id}/versions`],
      ['DELETE', draftUrl],
    ] as const) {
      for (const caller of [viewer, previewer, editor]) {
        const res = await call(caller, method, url);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
    }
    // A manager shares further: links and grants, as the owner.
    const link = await call(manager, 'POST', `/api/records/${id}/access/links`, {
      permission: 'view',
    });
    expect(link.statusCode, link.body).toBe(201);
    const more = await t.user();
    await grant(id, more, 'view', manager);
    expect((await call(manager, 'GET', `/api/records/${id}/access/grants/4`)).json()).toEqual({
      subject: { type: 'user', id: String(more.id) },
      permission: 'view',
      origin: `api:${manager.id}`,
    });
    const users = `/api/records/${id}/access/users`;
    expect(
      (await call(manager, 'PATCH', `${users}/${viewer.id}`, { permission: 'preview' })).statusCode,
    ).toBe(200);
    expect((await call(viewer, 'GET', draftUrl)).statusCode).toBe(200);
    // The manager holds a grant already; an administrator, who holds none, not to oneself.
    const grants = `/api/records/${id}/access/grants`;
    expectError(
      await call(manager, 'POST', grants, grantBody(manager, 'view')),
      400,
      'VALIDATION_FAILED',
      EXISTS,
    );
    const admin = await t.user(undefined, { admin: true });
    expectValidationFailed(await call(admin, 'POST', grants, grantBody(admin, 'view')), [
      { field: 'grants.subject.id', messages: ['You cannot grant yourself access.'] },
    ]);
    // …and manages the record as its owner: saves and publishes the draft.
    const published = await call(manager, 'POST', `${draftUrl}/actions/publish`);
    expect(published.statusCode, published.body).toBe(202);
    const version = await call(manager, 'POST', `/api/records/${id}/versions`);
    expect(version.statusCode, version.body).toBe(201);
    // Grants belong to every version: the new draft is the previewer's to read too.
    const next = version.json().id as string;
    expect((await call(previewer, 'GET', `/api/records/${next}/draft`)).statusCode).toBe(200);
    expect((await call(editor, 'GET', `/api/records/${next}/access/grants`)).statusCode).toBe(403);
    expect(
      (await call(manager, 'GET', `/api/records/${next}/access/grants`)).json().hits.total,
    ).toBe(5);
    // Revoked, the manager manages nothing any more.
    expect((await call(owner, 'DELETE', `${users}/${manager.id}`)).statusCode).toBe(204);
    expect((await call(manager, 'GET', `/api/records/${id}/access/grants`)).statusCode).toBe(403);
    expect((await call(manager, 'DELETE', `/api/records/${next}/draft`)).statusCode).toBe(403);
  });

  it('lets only whoever manages the record read and change its grants', async () => {
    const id = await restrictedRecord();
    const a = await t.user();
    await grant(id, a, 'view');
    const admin = await t.user(undefined, { admin: true });
    const url = `/api/records/${id}/access/grants`;
    for (const caller of [undefined, stranger, a]) {
      expect((await call(caller, 'GET', url)).statusCode).toBe(403);
      expect((await call(caller, 'GET', `/api/records/${id}/access/users`)).statusCode).toBe(403);
      expect((await call(caller, 'POST', url, grantBody(stranger, 'view'))).statusCode).toBe(403);
      expect((await call(caller, 'DELETE', `${url}/0`)).statusCode).toBe(403);
    }
    expect((await call(admin, 'GET', url)).statusCode).toBe(200);
    expect(await count(id)).toBe(1);
  });

  it('lists the records and drafts shared with the caller under shared_with_me', async () => {
    const me = await t.user();
    const viewed = await restrictedRecord();
    const previewed = await restrictedRecord();
    const unpublished = (await files.createDraft({ metadata: PUBLISHABLE_METADATA })).id;
    await grant(viewed, me, 'view');
    await grant(previewed, me, 'preview');
    await grant(unpublished, me, 'edit');
    const mine = (await new FilesApi(t, me).createDraft()).id;
    const shared = await call(me, 'GET', '/api/user/records?shared_with_me=true');
    expect(shared.statusCode, shared.body).toBe(200);
    const hits = shared.json().hits;
    // A view grant shows the published record; the others the drafts, the edit draft included.
    const seen = hits.hits.map((h: { id: string; is_draft?: boolean; status?: string }) => h.id);
    expect(seen.sort()).toEqual([viewed, previewed, unpublished].sort());
    expect(hits.total).toBe(3);
    const own = await call(me, 'GET', '/api/user/records?shared_with_me=false');
    expect(own.json().hits.hits.map((h: { id: string }) => h.id)).toEqual([mine]);
    const unpublishedOnly = await call(
      me,
      'GET',
      '/api/user/records?shared_with_me=true&is_published=false',
    );
    expect(unpublishedOnly.json().hits.hits.map((h: { id: string }) => h.id)).toEqual([
      unpublished,
    ]);
    // The versions of a record never published: to whoever may preview its draft.
    const versions = `/api/records/${unpublished}/versions`;
    expect((await call(me, 'GET', versions)).statusCode).toBe(200);
    expect((await call(stranger, 'GET', versions)).statusCode).toBe(403);
    // Revoked, gone from the list.
    await call(owner, 'DELETE', `/api/records/${viewed}/access/users/${me.id}`);
    const after = await call(me, 'GET', '/api/user/records?shared_with_me=true');
    expect(after.json().hits.total).toBe(2);
  });

  it('is advertised by drafts and records as access_grants and access_users', async () => {
    const res = await call(owner, 'GET', `/api/records/${record}`);
    for (const name of ['access_grants', 'access_users']) {
      const target = res.json().links[name] as string;
      expect(target).toBe(`https://cairn.test/api/records/${record}/access/${name.slice(7)}`);
      expect((await call(owner, 'GET', new URL(target).pathname)).statusCode).toBe(200);
    }
  });
});
