import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/app.js';
import { ENGINES } from '../../test/databases.js';
import { FilesApi, type Caller } from '../../test/files.js';
import { bootstrapOf, createPagesTestApp } from '../../test/pages.js';

// The pages around a record's versions: where an older version's notice leads, and what its
// owner finds at the editor's address.
describe.each(ENGINES)('record version pages on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let api: FilesApi;

  beforeAll(async () => {
    t = await createPagesTestApp(engine);
    owner = await t.user();
    api = new FilesApi(t, owner);
  });
  afterAll(() => t?.close());

  async function nextVersion(id: string): Promise<string> {
    const res = await t.request({
      method: 'POST',
      url: `/api/records/${id}/versions`,
      headers: owner.headers,
    });
    expect(res.statusCode, res.body).toBe(201);
    const next = res.json().id as string;
    await api.publish(next);
    return next;
  }

  it("an older version's latest_html leads to the newest version, from any version", async () => {
    const first = await api.publishedRecord('Puffin burrows');
    const second = await nextVersion(first);
    const page = await t.request({ method: 'GET', url: `/records/${first}` });
    const latestHtml = bootstrapOf(page.body).record.links.latest_html as string;
    expect(latestHtml).toBe(`https://cairn.test/records/${first}/latest`);

    const third = await nextVersion(second);
    for (const id of [first, second, third]) {
      const res = await t.request({ method: 'GET', url: `/records/${id}/latest` });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(`/records/${third}`);
    }
    const missing = await t.request({ method: 'GET', url: '/records/nopes-00000/latest' });
    expect(missing.statusCode).toBe(404);
    expect(bootstrapOf(missing.body).error).toEqual({
      status: 404,
      message: 'The persistent identifier does not exist.',
    });
  });

  it('offers the owner of a published record without a draft its editor, and others nothing', async () => {
    const id = await api.publishedRecord('Shag nests');
    const page = await t.request({ method: 'GET', url: `/uploads/${id}`, headers: owner.headers });
    expect(page.statusCode).toBe(200);
    const bootstrap = bootstrapOf(page.body);
    expect(bootstrap.error).toBeNull();
    expect(page.body).toContain('<title>Edit upload | Cairn</title>');

    const stranger = await t.user();
    const refused = await t.request({
      method: 'GET',
      url: `/uploads/${id}`,
      headers: stranger.headers,
    });
    expect(refused.statusCode).toBe(bootstrapOf(refused.body).error.status);
    expect(refused.statusCode).not.toBe(200);
    const missing = await t.request({
      method: 'GET',
      url: '/uploads/nopes-00000',
      headers: owner.headers,
    });
    expect(missing.statusCode).toBe(404);
  });
});
