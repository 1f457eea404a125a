import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { requestAs } from '../../test/communities.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';

// A save rewrites a draft's search terms and (on SQLite) its full-text row only when they change:
// each edit of what the uploads search reads must still be found by its new value and no longer
// by the old, whichever of the texts and the terms it changed, and a save that changes neither
// keeps everything found.

describe.each(ENGINES)('the uploads search after each edit of a draft (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let files: FilesApi;
  let id: string;
  let metadata: Record<string, unknown>;
  let access = { record: 'public', files: 'public' };

  /** Whether the owner's uploads search finds the draft by `q`. */
  async function finds(q: string): Promise<boolean> {
    const res = await requestAs(t, 'GET', `/api/user/records?q=${encodeURIComponent(q)}`, owner);
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json().hits.hits as Array<{ id: string }>).map((h) => h.id);
    expect(
      ids.every((found) => found === id),
      q,
    ).toBe(true);
    return ids.length === 1;
  }

  async function expectFound(found: string[], gone: string[] = []): Promise<void> {
    for (const q of found) expect(await finds(q), `found by ${q}`).toBe(true);
    for (const q of gone) expect(await finds(q), `not found by ${q}`).toBe(false);
  }

  /** Saves the draft with `change` applied to its metadata (and access), at its revision. */
  async function save(change: Record<string, unknown> = {}): Promise<void> {
    metadata = { ...metadata, ...change };
    const current = await requestAs(t, 'GET', `/api/records/${id}/draft`, owner);
    const res = await t.request({
      method: 'PUT',
      url: `/api/records/${id}/draft`,
      headers: { ...owner.headers, 'if-match': `"${current.json().revision_id}"` },
      body: { metadata, access, files: { enabled: true } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().errors, res.body).toBeUndefined();
  }

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    files = new FilesApi(t, owner);
    metadata = {
      ...PUBLISHABLE_METADATA,
      title: 'Permafrost thaw',
      description: '<p>Boreal cores</p>',
      resource_type: { id: 'dataset' },
      languages: [{ id: 'eng' }],
      subjects: [{ subject: 'Tundra' }],
      publication_date: '2020-01-01',
    };
    id = (await files.createDraft({ metadata, access, files: { enabled: true } })).id;
    await files.upload(id, 'core.csv', 'a,b\n');
  });
  afterAll(() => t.close());

  it('finds the draft by what it holds before any save', async () => {
    await expectFound([
      'permafrost',
      'boreal',
      'metadata.resource_type.id:dataset',
      'metadata.languages.id:eng',
      'metadata.subjects.subject:Tundra',
      'files.entries.ext:csv',
      'metadata.publication_date:2020',
      'access.status:open',
    ]);
  });

  it('follows a new title, keeping the terms it did not change', async () => {
    await save({ title: 'Permafrost melt' });
    await expectFound(
      [
        'melt',
        'metadata.title:permafrost',
        'metadata.resource_type.id:dataset',
        'metadata.languages.id:eng',
        'metadata.subjects.subject:Tundra',
        'files.entries.ext:csv',
      ],
      ['thaw'],
    );
  });

  it('follows a new resource type and languages, keeping the texts it did not change', async () => {
    await save({ resource_type: { id: 'publication-article' }, languages: [{ id: 'fra' }] });
    await expectFound(
      [
        'metadata.resource_type.id:publication',
        'metadata.resource_type.id:publication-article',
        'metadata.languages.id:fra',
        'melt',
        'boreal',
        'files.entries.ext:csv',
      ],
      ['metadata.resource_type.id:dataset', 'metadata.languages.id:eng'],
    );
  });

  it('follows new subjects, which are both a text and a term', async () => {
    await save({ subjects: [{ subject: 'Taiga' }] });
    await expectFound(
      ['metadata.subjects.subject:Taiga', 'taiga'],
      ['metadata.subjects.subject:Tundra', 'tundra'],
    );
  });

  it('follows a new description, publication date and access status', async () => {
    access = { record: 'public', files: 'restricted' };
    await save({ description: '<p>Arctic cores</p>', publication_date: '2023-05-01' });
    await expectFound(
      ['arctic', 'metadata.publication_date:2023', 'access.status:restricted'],
      ['boreal', 'metadata.publication_date:2020', 'access.status:open'],
    );
  });

  it('keeps the file types through saves, and follows the files', async () => {
    await files.upload(id, 'scan.pdf', '%PDF-1.4\n');
    await save({ title: 'Permafrost melt ponds' });
    await expectFound(['ponds', 'files.entries.ext:pdf', 'files.entries.ext:csv']);
    expect((await files.delete(id, 'core.csv')).statusCode).toBe(204);
    await save({ languages: [{ id: 'fra' }, { id: 'deu' }] });
    await expectFound(
      ['files.entries.ext:pdf', 'metadata.languages.id:deu'],
      ['files.entries.ext:csv'],
    );
  });

  it('keeps everything found through a save that changes nothing the search holds', async () => {
    await save();
    await expectFound(
      [
        'ponds',
        'arctic',
        'taiga',
        'metadata.resource_type.id:publication',
        'metadata.languages.id:(fra AND deu)',
        'metadata.subjects.subject:Taiga',
        'files.entries.ext:pdf',
        'metadata.publication_date:2023',
        'access.status:restricted',
      ],
      ['files.entries.ext:csv', 'thaw', 'boreal', 'tundra'],
    );
  });
});
