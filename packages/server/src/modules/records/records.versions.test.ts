import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { ENGINES } from '../../test/databases.js';
import { FilesApi, type Caller } from '../../test/files.js';

describe.each(ENGINES)('record versions on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let api: FilesApi;

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    api = new FilesApi(t, owner);
  });
  afterAll(() => t?.close());

  /** Opens the next version of `id`'s parent; the new draft's id. */
  async function newVersion(id: string): Promise<string> {
    const res = await t.request({
      method: 'POST',
      url: `/api/records/${id}/versions`,
      headers: owner.headers,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  }

  /**
   * Every row of `records` an update writes from now on is logged by a trigger: the database's
   * own count, which no code path of the service can miss.
   */
  async function logRecordWrites(): Promise<() => Promise<string[]>> {
    const db = t.services.database.db;
    await sql`create table records_writes (id text not null)`.execute(db);
    if (engine === 'sqlite') {
      await sql`create trigger records_writes_log after update on records for each row
        begin insert into records_writes (id) values (new.id); end`.execute(db);
    } else {
      await sql`create function records_writes_log() returns trigger language plpgsql as $$
        begin insert into records_writes (id) values (new.id); return new; end $$`.execute(db);
      await sql`create trigger records_writes_log after update on records for each row
        execute function records_writes_log()`.execute(db);
    }
    return async () => {
      const { rows } = await sql<{ id: string }>`select id from records_writes`.execute(db);
      return rows.map((r) => r.id).sort();
    };
  }

  it('publishing a version writes only the previous latest version, however many came before', async () => {
    const first = await api.publishedRecord('Tide gauges');
    const ids = [first];
    for (let i = 0; i < 5; i++) {
      const next = await newVersion(first);
      await api.publish(next);
      ids.push(next);
    }
    const next = await newVersion(first);
    const writes = await logRecordWrites();
    await api.publish(next);
    // The new version is inserted, and only the one it supersedes loses the latest mark.
    expect(await writes()).toEqual([ids.at(-1)!, next].sort());
    const versions = await t.request({ method: 'GET', url: `/api/records/${first}/versions` });
    const hits = versions.json().hits.hits as { id: string; versions: { is_latest: boolean } }[];
    expect(hits.filter((h) => h.versions.is_latest).map((h) => h.id)).toEqual([next]);
  });
});
