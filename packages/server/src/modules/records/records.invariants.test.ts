import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import {
  createTestDatabase,
  ENGINES,
  testMigrator,
  type TestDatabase,
} from '../../test/databases.js';
import { FilesApi, type Caller } from '../../test/files.js';
import { RecordsRepository } from './records.repository.js';

// What holds a record together even when code elsewhere gets it wrong: the schema, and the
// files lifecycle's own checks. The races tests show the service keeps these rules; these show
// the rules still hold without the service.
describe.each(ENGINES)('record invariants on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let api: FilesApi;

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    api = new FilesApi(t, owner);
  });
  afterAll(() => t?.close());

  async function publishedWithFile(): Promise<{ id: string; bytes: string }> {
    const { id } = await api.createDraft();
    const bytes = `bytes of ${id}`;
    await api.upload(id, 'data.csv', bytes);
    await api.publish(id);
    return { id, bytes };
  }

  it('a parent never holds two unpublished drafts, whoever writes them', async () => {
    const { id } = await publishedWithFile();
    const version = await t.request({
      method: 'POST',
      url: `/api/records/${id}/versions`,
      headers: owner.headers,
    });
    expect(version.statusCode, version.body).toBe(201);
    // The repository writes what it is given: only the schema can refuse a second one.
    const repo = new RecordsRepository(t.services.database.db, engine);
    const draft = (await repo.getDraft(version.json().id as string))!;
    expect(draft.unpublishedParentId).toBe(draft.parentId);
    const second = { ...draft, id: `${draft.id.slice(0, -1)}x`, versionIndex: 3 };
    await expect(repo.insertDraft(second)).rejects.toThrow(/unique/i);
    // The edit draft of the published record is not an unpublished one: it may stand beside.
    const edit = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft`,
      headers: owner.headers,
    });
    expect(edit.statusCode, edit.body).toBe(201);
  });

  it("publishing never drops a record's files, even from a draft that lost them", async () => {
    const { id, bytes } = await publishedWithFile();
    const edit = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft`,
      headers: owner.headers,
    });
    expect(edit.statusCode, edit.body).toBe(201);
    // What the issue saw: the draft's entries gone while the record's are still there.
    await t.services.database.db
      .deleteFrom('recordFiles')
      .where('bucket', '=', `draft:${id}`)
      .execute();
    const published = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/actions/publish`,
      headers: owner.headers,
    });
    expect(published.statusCode).toBe(500);
    const content = await api.get(`/api/records/${id}/files/data.csv/content`);
    expect(content.statusCode).toBe(200);
    expect(content.body).toBe(bytes);
  });
});

describe.each(ENGINES)(
  'migration 0013 over drafts made by parallel new versions on %s',
  (engine) => {
    let database: TestDatabase | undefined;
    afterEach(async () => {
      await database?.drop();
      database = undefined;
    });

    it('marks the newest unpublished draft of each parent and keeps the others', async () => {
      database = await createTestDatabase(engine);
      const { db } = database.handle;
      const migrator = testMigrator(database);
      expect((await migrator.migrateTo('0012_well_formed_file_keys')).error).toBeUndefined();
      const now = new Date().toISOString();
      const user = await db
        .insertInto('users')
        .values({
          email: 'a@example.org',
          name: 'A',
          passwordHash: 'x',
          isAdmin: 0,
          createdAt: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('parents')
        .values({ id: 'prnt0-00001', ownerId: user.id, data: '{}', createdAt: now, updatedAt: now })
        .execute();
      const row = (id: string, versionIndex: number) => ({
        id,
        parentId: 'prnt0-00001',
        versionIndex,
        data: '{}',
        revisionId: 1,
        createdAt: now,
        updatedAt: now,
        title: '',
        searchText: '',
        filesSummary: null,
      });
      // A published first version with an edit draft, and three drafts of version 2 made at once.
      await db
        .insertInto('records')
        .values({
          ...row('recd0-00001', 1),
          isLatest: 1,
          publicationDate: '2024-01-01',
          resourceType: 'dataset',
          accessRecord: 'public',
          accessStatus: 'open',
          embargoUntil: null,
          publishedAt: now,
          deletedAt: null,
        })
        .execute();
      const drafts = ['recd0-00001', 'drft0-00003', 'drft0-00001', 'drft0-00002'];
      for (const id of drafts) {
        await db
          .insertInto('drafts')
          .values({
            ...row(id, id === 'recd0-00001' ? 1 : 2),
            expiresAt: now,
            recordCreatedAt: null,
          })
          .execute();
      }

      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const marked = await db
        .selectFrom('drafts')
        .select(['id', 'unpublishedParentId'])
        .orderBy('id')
        .execute();
      expect(marked).toEqual([
        { id: 'drft0-00001', unpublishedParentId: 'prnt0-00001' },
        { id: 'drft0-00002', unpublishedParentId: null },
        { id: 'drft0-00003', unpublishedParentId: null },
        { id: 'recd0-00001', unpublishedParentId: null },
      ]);
    });
  },
);
