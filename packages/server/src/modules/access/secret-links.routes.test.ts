import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectError, expectValidationFailed } from '../../test/assertions.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';

/** The UTC day `days` from today, as `expires_at` takes it. */
function day(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

const NO_LINK = 'No secret link found with the given ID.';

describe.each(ENGINES)('secret links on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let stranger: Caller;
  let admin: Caller;
  let files: FilesApi;
  /** A published record, record and files restricted, with data.csv; and its open edit draft. */
  let record: string;
  /** Another restricted record of the same owner. */
  let other: string;
  /** A draft never published. */
  let draft: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    stranger = await t.user();
    admin = await t.user(undefined, { admin: true });
    files = new FilesApi(t, owner);
    const restricted = { record: 'restricted', files: 'restricted' };
    record = (await files.createDraft({ metadata: PUBLISHABLE_METADATA, access: restricted })).id;
    await files.upload(record, 'data.csv', 'a,b\n1,2\n');
    await files.publish(record);
    const edit = await call(owner, 'POST', `/api/records/${record}/draft`);
    expect(edit.statusCode, edit.body).toBe(201);
    other = (
      await files.createDraft({
        metadata: PUBLISHABLE_METADATA,
        access: restricted,
        files: { enabled: false },
      })
    ).id;
    await files.publish(other);
    draft = (await files.createDraft()).id;
  });
  afterAll(() => t.close());

  type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  function call(caller: Caller | undefined, method: Method, url: string, body?: object) {
    return t.request({
      method,
      url,
      headers: caller?.headers ?? {},
      ...(body !== undefined ? { body } : {}),
    });
  }

  async function link(id: string, body: object, caller: Caller = owner) {
    const res = await call(caller, 'POST', `/api/records/${id}/access/links`, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; token: string; expires_at: string | null }>();
  }

  it('creates, lists, reads, changes and deletes a link as InvenioRDM answers them', async () => {
    const created = await call(owner, 'POST', `/api/records/${record}/access/links`, {
      permission: 'view',
      expires_at: day(30),
      description: 'For the reviewers',
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(Object.keys(body).sort()).toEqual(
      ['created_at', 'description', 'expires_at', 'id', 'permission', 'token'].sort(),
    );
    expect(body).toMatchObject({
      permission: 'view',
      expires_at: day(30),
      description: 'For the reviewers',
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.token.length).toBeGreaterThanOrEqual(40);
    expect(body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+\+00:00$/);
    const self = `/api/records/${record}/access/links/${body.id}`;

    const list = await call(owner, 'GET', `/api/records/${record}/access/links`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().hits.hits).toContainEqual(body);
    expect(list.json().hits.total).toBe(list.json().hits.hits.length);

    expect((await call(owner, 'GET', self)).json()).toEqual(body);
    // The draft's id and the record's are one record: the same links.
    const viaDraft = await call(owner, 'GET', `/api/records/${record}/access/links`);
    expect(viaDraft.json().hits.hits).toContainEqual(body);

    const preview = await call(owner, 'PATCH', self, { permission: 'preview' });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toEqual({ ...body, permission: 'preview' });
    const shorter = await call(owner, 'PATCH', self, { expires_at: day(10), description: 'Less' });
    expect(shorter.statusCode, shorter.body).toBe(200);
    expect(shorter.json()).toEqual({
      ...body,
      permission: 'preview',
      expires_at: day(10),
      description: 'Less',
    });
    expect((await call(owner, 'GET', self)).json()).toEqual(shorter.json());

    const deleted = await call(owner, 'DELETE', self);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(deleted.body).toBe('');
    expectError(await call(owner, 'GET', self), 404, 'NOT_FOUND', NO_LINK);
    expectError(await call(owner, 'DELETE', self), 404, 'NOT_FOUND', NO_LINK);
    expectError(await call(owner, 'PATCH', self, { description: 'x' }), 404, 'NOT_FOUND', NO_LINK);
  });

  it('belongs to the parent: every version and the draft share the links', async () => {
    const made = await link(draft, { permission: 'preview' });
    const listed = await call(owner, 'GET', `/api/records/${draft}/access/links`);
    expect(listed.json()).toEqual({ hits: { hits: [made], total: 1 } });
    expect(made.expires_at).toBeNull();
    // A link of one record is unknown under another, even of the same owner.
    const elsewhere = `/api/records/${other}/access/links/${made.id}`;
    expectError(await call(owner, 'GET', elsewhere), 404, 'NOT_FOUND', NO_LINK);
    expectError(await call(owner, 'DELETE', elsewhere), 404, 'NOT_FOUND', NO_LINK);
    expect(
      (await call(owner, 'GET', `/api/records/${draft}/access/links/${made.id}`)).statusCode,
    ).toBe(200);
  });

  it('refuses bad input with the contract status and message, and changes nothing', async () => {
    const url = `/api/records/${other}/access/links`;
    const before = (await call(owner, 'GET', url)).json();
    expectValidationFailed(await call(owner, 'POST', url, { permission: 'manage' }), [
      { field: 'permission', messages: ['Must be one of: view, preview, edit.'] },
    ]);
    expectValidationFailed(await call(owner, 'POST', url, { permission: 7 }), [
      { field: 'permission', messages: ['Not a valid string.'] },
    ]);
    expectValidationFailed(await call(owner, 'POST', url, {}), [
      { field: 'permission', messages: ['An access permission level is required'] },
    ]);
    for (const past of [day(0), day(-1), '2001-01-01']) {
      expectValidationFailed(
        await call(owner, 'POST', url, { permission: 'view', expires_at: past }),
        [{ field: 'expires_at', messages: ['Expiration date must be set to the future'] }],
      );
    }
    for (const bad of ['tomorrow', '2030-02-31', '2030-13-01', 20300101]) {
      expectValidationFailed(
        await call(owner, 'POST', url, { permission: 'view', expires_at: bad }),
        [{ field: 'expires_at', messages: ['Not a valid date.'] }],
      );
    }
    expect((await call(owner, 'GET', url)).json()).toEqual(before);

    const made = await link(other, { permission: 'view', expires_at: day(5) });
    const self = `${url}/${made.id}`;
    const postponed = [{ field: 'expires_at', messages: ['Cannot postpone expiration of links'] }];
    expectValidationFailed(await call(owner, 'PATCH', self, { expires_at: day(6) }), postponed);
    expectValidationFailed(await call(owner, 'PATCH', self, { expires_at: null }), postponed);
    expectValidationFailed(await call(owner, 'PATCH', self, { expires_at: day(0) }), [
      { field: 'expires_at', messages: ['Expiration date must be set to the future'] },
    ]);
    expectValidationFailed(await call(owner, 'PATCH', self, { permission: 'owner' }), [
      { field: 'permission', messages: ['Must be one of: view, preview, edit.'] },
    ]);
    expect((await call(owner, 'GET', self)).json()).toEqual(made);

    expectError(
      await call(owner, 'GET', `${url}/00000000-0000-4000-8000-000000000000`),
      404,
      'NOT_FOUND',
      NO_LINK,
    );
    expectError(await call(owner, 'GET', `${url}/not-a-uuid`), 404, 'NOT_FOUND', NO_LINK);
    expectError(
      await call(owner, 'GET', '/api/records/abcde-12345/access/links'),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
  });

  it('lets only the owner and administrators manage links', async () => {
    const made = await link(other, { permission: 'view' });
    const self = `/api/records/${other}/access/links/${made.id}`;
    const holder = `?token=${made.token}`;
    for (const caller of [undefined, stranger]) {
      for (const [method, url, body] of [
        ['POST', `/api/records/${other}/access/links`, { permission: 'view' }],
        ['GET', `/api/records/${other}/access/links`],
        ['GET', self],
        ['PATCH', self, { description: 'mine' }],
        ['DELETE', self],
        // A link's own token manages nothing.
        ['GET', `/api/records/${other}/access/links${holder}`],
        ['DELETE', `${self}${holder}`],
      ] as const) {
        expectError(
          await call(caller, method, url, body),
          403,
          'PERMISSION_DENIED',
          'Permission denied.',
        );
      }
    }
    expect((await call(admin, 'GET', self)).statusCode).toBe(200);
    expect((await call(admin, 'DELETE', self)).statusCode).toBe(204);
  });

  it('opens a restricted record, its files and archive to a view link, and not its draft', async () => {
    const { token } = await link(record, { permission: 'view' });
    const q = `?token=${encodeURIComponent(token)}`;
    for (const url of [
      `/api/records/${record}`,
      `/api/records/${record}/files`,
      `/api/records/${record}/files/data.csv`,
      `/api/records/${record}/files-archive`,
    ]) {
      expect((await call(undefined, 'GET', url)).statusCode, url).toBe(403);
      const res = await call(undefined, 'GET', `${url}${q}`);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    }
    const content = await call(
      stranger,
      'GET',
      `/api/records/${record}/files/data.csv/content${q}`,
    );
    expect(content.statusCode).toBe(200);
    expect(content.body).toBe('a,b\n1,2\n');
    // view is not preview: the draft stays closed.
    for (const url of [`/api/records/${record}/draft`, `/api/records/${record}/draft/files`]) {
      expectError(
        await call(undefined, 'GET', `${url}${q}`),
        403,
        'PERMISSION_DENIED',
        'Permission denied.',
      );
    }
    // A token of this record opens no other.
    expect((await call(undefined, 'GET', `/api/records/${other}${q}`)).statusCode).toBe(403);
    expect((await call(undefined, 'GET', `/api/records/${other}/files${q}`)).statusCode).toBe(403);
    // Nor does a wrong or mangled token open this one.
    for (const bad of [`${token}x`, token.slice(1), 'x'.repeat(1000), '']) {
      const res = await call(undefined, 'GET', `/api/records/${record}?token=${bad}`);
      expect(res.statusCode).toBe(403);
    }
  });

  it('opens the draft and its files to preview and edit links', async () => {
    for (const permission of ['preview', 'edit'] as const) {
      const { token } = await link(record, { permission });
      const q = `?token=${token}`;
      for (const url of [
        `/api/records/${record}`,
        `/api/records/${record}/draft`,
        `/api/records/${record}/draft/files`,
        `/api/records/${record}/draft/files/data.csv/content`,
        `/api/records/${record}/draft/files-archive`,
      ]) {
        const res = await call(undefined, 'GET', `${url}${q}`);
        expect(res.statusCode, `${permission} ${url}: ${res.body}`).toBe(200);
      }
      const fresh = await link(draft, { permission });
      const read = await call(undefined, 'GET', `/api/records/${draft}/draft?token=${fresh.token}`);
      expect(read.statusCode).toBe(200);
      expect(read.json().id).toBe(draft);
    }
  });

  it('lets a signed-in holder of an edit link save the draft; preview links and anonymous callers may not', async () => {
    const edit = await link(record, { permission: 'edit' });
    const preview = await link(record, { permission: 'preview' });
    const current = (await call(owner, 'GET', `/api/records/${record}/draft`)).json();
    const body = {
      metadata: { ...current.metadata, title: 'Edited through a link' },
      access: current.access,
      files: current.files,
    };
    const url = `/api/records/${record}/draft`;
    expectError(
      await call(undefined, 'PUT', `${url}?token=${edit.token}`, body),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    expectError(
      await call(stranger, 'PUT', `${url}?token=${preview.token}`, body),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    const saved = await call(stranger, 'PUT', `${url}?token=${edit.token}`, body);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().metadata.title).toBe('Edited through a link');
    // Editing is not managing: links and discarding stay the owner's.
    for (const [method, target] of [
      ['GET', `/api/records/${record}/access/links`],
      ['DELETE', url],
    ] as const) {
      const res = await call(stranger, method, `${target}?token=${edit.token}`);
      expect(res.statusCode, `${method} ${target}`).toBe(403);
    }
  });

  it("lets a signed-in holder of an edit link upload, commit and delete a draft's files", async () => {
    const fresh = (await files.createDraft()).id;
    const edit = await link(fresh, { permission: 'edit' });
    const preview = await link(fresh, { permission: 'preview' });
    const holder = new FilesApi(t, stranger);
    const q = (token: string) => `?token=${token}`;
    const init = (token: string) =>
      call(stranger, 'POST', `/api/records/${fresh}/draft/files${q(token)}`, [{ key: 'x.txt' }]);
    expect((await init(preview.token)).statusCode).toBe(403);
    expect((await holder.init(fresh, [{ key: 'x.txt' }])).statusCode).toBe(403);
    expect((await init(edit.token)).statusCode).toBe(201);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/records/${fresh}/draft/files/x.txt/content${q(edit.token)}`,
      headers: { ...stranger.headers, 'content-type': 'application/octet-stream' },
      payload: 'bytes',
    });
    expect(put.statusCode, put.body).toBe(200);
    const commit = await call(
      stranger,
      'POST',
      `/api/records/${fresh}/draft/files/x.txt/commit${q(edit.token)}`,
    );
    expect(commit.statusCode, commit.body).toBe(200);
    const listed = await files.get(`/api/records/${fresh}/draft/files`);
    expect(listed.json().entries.map((e: { key: string }) => e.key)).toEqual(['x.txt']);
    const removed = await call(
      stranger,
      'DELETE',
      `/api/records/${fresh}/draft/files/x.txt${q(edit.token)}`,
    );
    expect(removed.statusCode, removed.body).toBe(204);
  });

  it('stops a link at once when it expires or is deleted', async () => {
    const made = await link(record, { permission: 'view', expires_at: day(3) });
    const url = `/api/records/${record}?token=${made.token}`;
    expect((await call(undefined, 'GET', url)).statusCode).toBe(200);
    // A day passes: today is the expiry day, when the link stops (no API sets a past date).
    await t.services.database.db
      .updateTable('secretLinks')
      .set({ expiresAt: day(0) })
      .where('id', '=', made.id)
      .execute();
    expect((await call(undefined, 'GET', url)).statusCode).toBe(403);

    const other = await link(record, { permission: 'preview' });
    const draftUrl = `/api/records/${record}/draft?token=${other.token}`;
    expect((await call(undefined, 'GET', draftUrl)).statusCode).toBe(200);
    const deleted = await call(owner, 'DELETE', `/api/records/${record}/access/links/${other.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await call(undefined, 'GET', draftUrl)).statusCode).toBe(403);
  });

  it('takes parallel creations, deletions and changes one after the other', async () => {
    const url = `/api/records/${other}/access/links`;
    const before = (await call(owner, 'GET', url)).json().hits.total as number;
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(owner, 'POST', url, { permission: 'view', description: `link ${i}` }),
      ),
    );
    expect(created.map((r) => r.statusCode)).toEqual(Array(12).fill(201));
    const ids = created.map((r) => r.json().id as string);
    expect(new Set(ids).size).toBe(12);
    expect(new Set(created.map((r) => r.json().token as string)).size).toBe(12);
    expect((await call(owner, 'GET', url)).json().hits.total).toBe(before + 12);

    const target = `${url}/${ids[0]}`;
    const deletions = await Promise.all(
      Array.from({ length: 8 }, () => call(owner, 'DELETE', target)),
    );
    expect(deletions.map((r) => r.statusCode).sort()).toEqual([204, ...Array(7).fill(404)]);
    expect((await call(owner, 'GET', url)).json().hits.total).toBe(before + 11);

    // Each change may only shorten what the one before it left: the earliest day always wins.
    const made = await link(other, { permission: 'view', expires_at: day(40) });
    const days = Array.from({ length: 8 }, (_, i) => day(30 - i));
    const patches = await Promise.all(
      days.map((d) => call(owner, 'PATCH', `${url}/${made.id}`, { expires_at: d })),
    );
    const applied = days.filter((_, i) => patches[i]!.statusCode === 200);
    expect(patches.every((r) => r.statusCode === 200 || r.statusCode === 400)).toBe(true);
    expect(applied).toContain(day(23));
    const final = (await call(owner, 'GET', `${url}/${made.id}`)).json();
    expect(final.expires_at).toBe(day(23));
  });

  it('is advertised by drafts and records as access_links', async () => {
    const res = await call(owner, 'GET', `/api/records/${other}`);
    const target = res.json().links.access_links as string;
    expect(target).toBe(`https://cairn.test/api/records/${other}/access/links`);
    const listed = await call(owner, 'GET', new URL(target).pathname);
    expect(listed.statusCode).toBe(200);
  });
});
