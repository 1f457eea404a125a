import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/app.js';
import { ENGINES } from '../../test/databases.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';
import { bootstrapOf, createPagesTestApp } from '../../test/pages.js';
import { LINK_COOKIE } from '../../plugins/auth.js';

// The landing page, its preview and the editor of a restricted record, to people it was granted
// to: each page opens as far as the grant goes, with no link in the address or a cookie.
describe.each(ENGINES)('pages of a record granted to people on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let record: string;
  const grantee = {} as Record<'view' | 'preview' | 'edit' | 'manage', Caller>;

  beforeAll(async () => {
    t = await createPagesTestApp(engine);
    owner = await t.user();
    const files = new FilesApi(t, owner);
    record = (
      await files.createDraft({
        metadata: PUBLISHABLE_METADATA,
        access: { record: 'restricted', files: 'restricted' },
      })
    ).id;
    await files.upload(record, 'notes.txt', 'field notes');
    await files.publish(record);
    const edit = await t.request({
      method: 'POST',
      url: `/api/records/${record}/draft`,
      headers: owner.headers,
    });
    expect(edit.statusCode).toBe(201);
    for (const permission of ['view', 'preview', 'edit', 'manage'] as const) {
      grantee[permission] = await t.user();
      const res = await t.request({
        method: 'POST',
        url: `/api/records/${record}/access/grants`,
        headers: owner.headers,
        body: {
          grants: [{ subject: { type: 'user', id: String(grantee[permission].id) }, permission }],
        },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(() => t?.close());

  function page(url: string, caller?: Caller) {
    return t.request({ method: 'GET', url, headers: caller?.headers ?? {} });
  }

  it('shows the landing page to every grantee, the preview from preview on, and the editor from edit on', async () => {
    const stranger = await t.user();
    expect((await page(`/records/${record}`, stranger)).statusCode).toBe(403);
    const own = await page(`/records/${record}`, owner);
    expect(bootstrapOf(own.body).grant).toBeUndefined();
    for (const permission of ['view', 'preview', 'edit', 'manage'] as const) {
      const landing = await page(`/records/${record}`, grantee[permission]);
      expect(landing.statusCode, permission).toBe(200);
      expect(bootstrapOf(landing.body).record.id).toBe(record);
      // No link: the grant is the caller's own, not something the page must carry.
      expect(bootstrapOf(landing.body).link).toBeUndefined();
      // The grant is named, so the page lists the restricted files the API serves the reader.
      expect(bootstrapOf(landing.body).grant).toEqual({ permission });
      expect(landing.cookies.map((c) => c.name)).not.toContain(LINK_COOKIE);
    }
    expect((await page(`/records/${record}?preview=1`, grantee.view)).statusCode).toBe(403);
    expect((await page(`/uploads/${record}`, grantee.view)).statusCode).toBe(403);
    for (const permission of ['preview', 'edit', 'manage'] as const) {
      const preview = await page(`/records/${record}?preview=1`, grantee[permission]);
      expect(preview.statusCode, permission).toBe(200);
      expect(bootstrapOf(preview.body).record.is_draft).toBe(true);
    }
    expect((await page(`/uploads/${record}`, grantee.preview)).statusCode).toBe(403);
    const editor = await page(`/uploads/${record}`, grantee.edit);
    expect(editor.statusCode).toBe(200);
    // Editing is not managing; a manage grant is, as for the owner.
    expect(bootstrapOf(editor.body).permissions).toEqual({
      can_manage: false,
      can_new_version: false,
      can_delete_draft: false,
    });
    const managed = await page(`/uploads/${record}`, grantee.manage);
    expect(managed.statusCode).toBe(200);
    expect(bootstrapOf(managed.body).permissions).toEqual({
      can_manage: true,
      can_new_version: true,
      can_delete_draft: true,
    });
  });
});
