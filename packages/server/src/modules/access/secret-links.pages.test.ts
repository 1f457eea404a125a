import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../test/app.js';
import { ENGINES } from '../../test/databases.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';
import { bootstrapOf, createPagesTestApp } from '../../test/pages.js';
import { LINK_COOKIE } from '../../plugins/auth.js';

function linkCookie(res: LightMyRequestResponse) {
  return res.cookies.find((c) => c.name === LINK_COOKIE);
}

// The landing page, its preview and the editor opened with a secret link: the page shows what
// the link opens, and keeps the link for the page's own requests (files, previews, saves).
describe.each(ENGINES)('pages opened with a secret link on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let stranger: Caller;
  let record: string;

  beforeAll(async () => {
    t = await createPagesTestApp(engine);
    owner = await t.user();
    stranger = await t.user();
    const files = new FilesApi(t, owner);
    record = (
      await files.createDraft({
        metadata: PUBLISHABLE_METADATA,
        access: { record: 'restricted', files: 'restricted' },
      })
    ).id;
    await files.upload(record, 'notes.txt', 'field notes');
    await files.publish(record);
    expect(
      (
        await t.request({
          method: 'POST',
          url: `/api/records/${record}/draft`,
          headers: owner.headers,
        })
      ).statusCode,
    ).toBe(201);
  });
  afterAll(() => t?.close());

  async function link(permission: string) {
    const res = await t.request({
      method: 'POST',
      url: `/api/records/${record}/access/links`,
      headers: owner.headers,
      body: { permission },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; token: string }>();
  }

  it('shows the restricted record to a view link and keeps the link for its files', async () => {
    const { token, id } = await link('view');
    expect((await t.request({ method: 'GET', url: `/records/${record}` })).statusCode).toBe(403);
    const page = await t.request({ method: 'GET', url: `/records/${record}?token=${token}` });
    expect(page.statusCode).toBe(200);
    const bootstrap = bootstrapOf(page.body);
    expect(bootstrap.record.id).toBe(record);
    expect(bootstrap.link).toEqual({ permission: 'view' });
    const kept = linkCookie(page);
    expect(kept).toMatchObject({ value: token, httpOnly: true, path: '/', secure: true });
    expect(kept!.maxAge).toBeUndefined();

    // The page's own requests carry the link in the cookie, not in their addresses.
    const cookie = { cookie: `${LINK_COOKIE}=${token}` };
    const content = await t.request({
      method: 'GET',
      url: `/api/records/${record}/files/notes.txt/content`,
      headers: cookie,
    });
    expect(content.statusCode).toBe(200);
    expect(content.body).toBe('field notes');
    // view is not preview.
    const preview = await t.request({
      method: 'GET',
      url: `/records/${record}?preview=1`,
      headers: cookie,
    });
    expect(preview.statusCode).toBe(403);

    // Deleted: the cookie opens nothing, and the next page clears it.
    await t.request({
      method: 'DELETE',
      url: `/api/records/${record}/access/links/${id}`,
      headers: owner.headers,
    });
    const after = await t.request({ method: 'GET', url: `/records/${record}`, headers: cookie });
    expect(after.statusCode).toBe(403);
    expect(bootstrapOf(after.body).link).toBeUndefined();
    expect(linkCookie(after)?.value).toBe('');
    const files = await t.request({
      method: 'GET',
      url: `/api/records/${record}/files/notes.txt/content`,
      headers: cookie,
    });
    expect(files.statusCode).toBe(403);
  });

  it('shows the draft to a preview link, and opens the editor to a signed-in edit link only', async () => {
    const preview = await link('preview');
    const page = await t.request({
      method: 'GET',
      url: `/records/${record}?preview=1&token=${preview.token}`,
    });
    expect(page.statusCode).toBe(200);
    expect(bootstrapOf(page.body).record.id).toBe(record);
    expect(bootstrapOf(page.body).link).toEqual({ permission: 'preview' });
    const previewEditor = await t.request({
      method: 'GET',
      url: `/uploads/${record}?token=${preview.token}`,
      headers: stranger.headers,
    });
    expect(previewEditor.statusCode).toBe(403);

    const edit = await link('edit');
    const editor = await t.request({
      method: 'GET',
      url: `/uploads/${record}?token=${edit.token}`,
      headers: stranger.headers,
    });
    expect(editor.statusCode).toBe(200);
    const bootstrap = bootstrapOf(editor.body);
    // Editing is not managing: the editor offers no deletion or new version to the holder.
    expect(bootstrap.permissions).toEqual({
      can_manage: false,
      can_new_version: false,
      can_delete_draft: false,
    });
    expect(linkCookie(editor)?.value).toBe(edit.token);
  });

  it('keeps no link that opens nothing, and names none for another record', async () => {
    const anonymous = await t.request({ method: 'GET', url: `/records/${record}?token=nonsense` });
    expect(anonymous.statusCode).toBe(403);
    expect(linkCookie(anonymous)).toBeUndefined();
    // A bad token in the address neither uses nor drops the link the cookie holds.
    const kept = await link('view');
    const mistyped = await t.request({
      method: 'GET',
      url: `/records/${record}?token=nonsense`,
      headers: { cookie: `${LINK_COOKIE}=${kept.token}` },
    });
    expect(mistyped.statusCode).toBe(403);
    expect(linkCookie(mistyped)).toBeUndefined();

    const other = (
      await new FilesApi(t, owner).createDraft({
        metadata: PUBLISHABLE_METADATA,
        files: { enabled: false },
      })
    ).id;
    await new FilesApi(t, owner).publish(other);
    const { token } = await link('view');
    const page = await t.request({ method: 'GET', url: `/records/${other}?token=${token}` });
    expect(page.statusCode).toBe(200);
    expect(bootstrapOf(page.body).link).toBeUndefined();
  });
});
