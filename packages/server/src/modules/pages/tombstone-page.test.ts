import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/app.js';
import { ENGINES } from '../../test/databases.js';
import { FilesApi, type Caller } from '../../test/files.js';
import { bootstrapOf, createPagesTestApp } from '../../test/pages.js';

// A deleted record's landing page is its tombstone, answered 410 so that crawlers and link
// checkers learn the record is gone for good, with the reason's titles for the reader's language.
describe.each(ENGINES)("a deleted record's landing page on %s", (engine) => {
  let t: TestApp;
  let admin: Caller;
  let api: FilesApi;

  beforeAll(async () => {
    t = await createPagesTestApp(engine);
    admin = await t.user(undefined, { admin: true });
    api = new FilesApi(t, await t.user());
  });
  afterAll(() => t?.close());

  it('answers 410 with the tombstone, not indexed', async () => {
    const id = await api.publishedRecord('Withdrawn survey');
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/records/${id}/delete`,
      headers: admin.headers,
      body: { removal_reason: { id: 'retracted' }, citation_text: 'Doe (2024): Withdrawn survey' },
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const page = await t.request({ method: 'GET', url: `/records/${id}` });
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('<meta name="robots" content="noindex">');
    const { error } = bootstrapOf(page.body);
    expect(error).toMatchObject({
      status: 410,
      message: 'Record deleted',
      tombstone: {
        removal_reason: { id: 'retracted', title: { en: 'Retracted', de: 'Zurückgezogen' } },
        citation_text: 'Doe (2024): Withdrawn survey',
        is_visible: true,
      },
    });
    expect(page.body).not.toContain('Withdrawn survey</title>');
  });
});
