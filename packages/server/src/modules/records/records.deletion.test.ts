import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import {
  createFilesTestApp,
  FilesApi,
  PUBLISHABLE_METADATA,
  type Caller,
} from '../../test/files.js';
import type { TestApp } from '../../test/app.js';

const REASON = {
  removal_reason: { id: 'spam' },
  note: 'Advertising',
  citation_text: 'Spam (2024)',
};

describe.each(ENGINES)('deleting and restoring published records (%s)', (engine) => {
  let t: TestApp & { storeRoot: string };
  let owner: Caller;
  let admin: Caller;
  let api: FilesApi;

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, caller?: Caller, body?: object) =>
    t.request({ method, url, headers: caller?.headers ?? {}, ...(body ? { body } : {}) });
  const remove = (id: string, caller: Caller | undefined = admin, body: object = REASON) =>
    call('DELETE', `/api/records/${id}/delete`, caller, body);

  /** A published record with one file, titled `title`. */
  async function publishedWithFile(title: string): Promise<string> {
    const { id } = await api.createDraft({ metadata: { ...PUBLISHABLE_METADATA, title } });
    await api.upload(id, 'data.csv', 'a,b\n1,2\n');
    await api.publish(id);
    return id;
  }

  beforeAll(async () => {
    t = await createFilesTestApp(engine);
    owner = await t.user();
    admin = await t.user(undefined, { admin: true });
    api = new FilesApi(t, owner);
  }, 60_000);
  afterAll(() => t.close());

  it('answers the record, its files and archive 410 with the tombstone, and hides it', async () => {
    const id = await publishedWithFile('Unwanted advertising');
    const res = await remove(id);
    expect(res.statusCode, res.body).toBe(204);
    const gone = await call('GET', `/api/records/${id}`);
    expect(gone.statusCode).toBe(410);
    const body = gone.json();
    expect(body.status).toBe(410);
    expect(body.message).toBe('Record deleted');
    expect(body.tombstone).toMatchObject({
      removal_reason: { id: 'spam' },
      note: 'Advertising',
      removed_by: { user: String(admin.id) },
      citation_text: 'Spam (2024)',
      is_visible: true,
    });
    expect(Date.parse(body.tombstone.removal_date)).not.toBeNaN();
    for (const url of [
      `/api/records/${id}/files`,
      `/api/records/${id}/files/data.csv/content`,
      `/api/records/${id}/files-archive`,
    ]) {
      expect((await call('GET', url)).statusCode, url).toBe(410);
      expect((await call('GET', url, owner)).statusCode, url).toBe(410);
    }
    const search = await call('GET', '/api/records?q=advertising');
    expect(search.json().hits.total).toBe(0);
    const oai = await call(
      'GET',
      `/oai2d?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:cairn.test:${id}`,
    );
    expect(oai.body).toContain('<header status="deleted">');
    expect(oai.body).not.toContain('Unwanted advertising');
    const sitemap = await call('GET', '/sitemap-records.xml');
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.body).not.toContain(`/records/${id}<`);
  });

  it('lets administrators only delete, once, for a reason of the vocabulary', async () => {
    const id = await api.publishedRecord('Contested record');
    expect((await call('DELETE', `/api/records/${id}/delete`, undefined, REASON)).statusCode).toBe(
      403,
    );
    expect((await remove(id, owner)).statusCode).toBe(403);
    expect((await remove('abcde-12345')).statusCode).toBe(404);
    const unknown = await remove(id, admin, { removal_reason: { id: 'boredom' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([
      { field: 'removal_reason.id', messages: ['"boredom" is not a removal reason.'] },
    ]);
    const bare = await remove(id, admin, { note: 'no reason given' });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().errors[0].field).toBe('removal_reason');
    expect((await call('GET', `/api/records/${id}`)).statusCode).toBe(200);
    expect((await remove(id)).statusCode).toBe(204);
    const twice = await remove(id);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toBe('Record is already deleted');
  });

  it('deletes once when administrators race', async () => {
    const id = await api.publishedRecord('Raced deletion');
    const answers = await Promise.all(Array.from({ length: 10 }, () => remove(id)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([204, ...Array(9).fill(400)]);
  });

  it('answers 404 for a record whose tombstone is not shown', async () => {
    const id = await api.publishedRecord('Quietly removed');
    expect((await remove(id, admin, { ...REASON, is_visible: false })).statusCode).toBe(204);
    expect((await call('GET', `/api/records/${id}`)).statusCode).toBe(404);
  });

  it('skips a deleted version in versions/latest and the versions list, until restored', async () => {
    const v1 = await api.publishedRecord('Versioned survey');
    const draft = await call('POST', `/api/records/${v1}/versions`, owner);
    expect(draft.statusCode, draft.body).toBe(201);
    const v2 = draft.json().id as string;
    const put = await t.request({
      method: 'PUT',
      url: `/api/records/${v2}/draft`,
      headers: owner.headers,
      body: {
        metadata: { ...PUBLISHABLE_METADATA, title: 'Versioned survey' },
        files: { enabled: false },
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    await api.publish(v2);
    const latest = async () => {
      const res = await call('GET', `/api/records/${v1}/versions/latest`);
      return String(res.headers.location ?? '')
        .split('/')
        .pop();
    };
    expect(await latest()).toBe(v2);
    expect((await remove(v2)).statusCode).toBe(204);
    expect(await latest()).toBe(v1);
    expect((await call('GET', `/api/records/${v1}`)).json().versions.is_latest).toBe(true);
    const versions = await call('GET', `/api/records/${v1}/versions`);
    expect(versions.json().hits.hits.map((h: { id: string }) => h.id)).toEqual([v1]);

    const restored = await call('POST', `/api/records/${v2}/restore`, admin);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().id).toBe(v2);
    expect(await latest()).toBe(v2);
    expect((await call('GET', `/api/records/${v2}`)).statusCode).toBe(200);
    const again = await call('POST', `/api/records/${v2}/restore`, admin);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Record is not deleted');
    expect((await call('POST', `/api/records/${v2}/restore`, owner)).statusCode).toBe(403);
  });

  it('keeps an edit begun before the deletion from publishing the record again', async () => {
    const id = await api.publishedRecord('Edited, then deleted');
    expect((await call('POST', `/api/records/${id}/draft`, owner)).statusCode).toBe(201);
    expect((await remove(id)).statusCode).toBe(204);
    const publish = await call('POST', `/api/records/${id}/draft/actions/publish`, owner);
    expect(publish.statusCode).toBe(410);
    expect((await call('GET', `/api/records/${id}`)).statusCode).toBe(410);
    const edit = await call('POST', `/api/records/${id}/draft`, owner);
    expect(edit.statusCode).toBe(410);
    expect((await call('POST', `/api/records/${id}/versions`, owner)).statusCode).toBe(410);
  });
});

describe.each(ENGINES)('owners deleting their own young records (%s)', (engine) => {
  let t: TestApp & { storeRoot: string };
  let owner: Caller;
  let api: FilesApi;

  beforeAll(async () => {
    t = await createFilesTestApp(engine, { CAIRN_OWNER_DELETION_DAYS: '30' });
    owner = await t.user();
    api = new FilesApi(t, owner);
  });
  afterAll(() => t.close());

  const remove = (id: string, caller: Caller) =>
    t.request({
      method: 'DELETE',
      url: `/api/records/${id}/delete`,
      headers: caller.headers,
      body: { removal_reason: { id: 'uploader-request' } },
    });

  it('lets the owner delete within the configured days of publication, and no one else', async () => {
    const id = await api.publishedRecord('Published by mistake');
    expect((await remove(id, await t.user())).statusCode).toBe(403);
    expect((await remove(id, owner)).statusCode).toBe(204);
    const gone = await t.request({ method: 'GET', url: `/api/records/${id}` });
    expect(gone.json().tombstone.removed_by).toEqual({ user: String(owner.id) });
    // Restoring stays an administrator's decision.
    const restore = await t.request({
      method: 'POST',
      url: `/api/records/${id}/restore`,
      headers: owner.headers,
    });
    expect(restore.statusCode).toBe(403);
  });

  it('refuses the owner once those days have passed', async () => {
    const id = await api.publishedRecord('Published long ago');
    await t.services.database.db
      .updateTable('records')
      .set({ publishedAt: new Date(Date.now() - 31 * 86_400_000).toISOString() })
      .where('id', '=', id)
      .execute();
    expect((await remove(id, owner)).statusCode).toBe(403);
  });
});
