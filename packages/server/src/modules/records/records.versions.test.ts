import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectValidationFailed } from '../../test/assertions.js';
import { ENGINES } from '../../test/databases.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';

const AFTER_MANAGED =
  'A previous version used a DOI registered from Cairn. This version must also use a DOI from Cairn.';
const AFTER_UNMANAGED =
  'A previous version was published with a DOI from an external provider or without one. You cannot use a DOI registered from Cairn for this version.';

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

  /** Reserves a managed DOI for draft `id`; the DOI. */
  async function reserveDoi(id: string): Promise<string> {
    const res = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/pids/doi`,
      headers: owner.headers,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().pids.doi.identifier as string;
  }

  function publish(id: string) {
    return t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/actions/publish`,
      headers: owner.headers,
    });
  }

  /** A published first version without files, with a DOI reserved here when `managed`. */
  async function firstVersion(managed: boolean): Promise<string> {
    const { id } = await api.createDraft({
      metadata: { ...PUBLISHABLE_METADATA, publisher: 'Cairn' },
      files: { enabled: false },
    });
    if (managed) await reserveDoi(id);
    await api.publish(id);
    return id;
  }

  it('a new version after one with a DOI from this site may take, and must take, such a DOI', async () => {
    const first = await firstVersion(true);
    const second = await newVersion(first);
    expectValidationFailed(await publish(second), [
      { field: 'pids.doi', messages: [AFTER_MANAGED] },
    ]);
    const doi = await reserveDoi(second);
    const published = await publish(second);
    expect(published.statusCode, published.body).toBe(202);
    expect(published.json().pids.doi.identifier).toBe(doi);
    // Its own edits are not held to the rule: the DOI of a published version stays.
    const edit = await t.request({
      method: 'POST',
      url: `/api/records/${second}/draft`,
      headers: owner.headers,
    });
    expect(edit.statusCode).toBe(201);
    expect((await publish(second)).statusCode).toBe(202);
  });

  it('a new version after one without a DOI from this site may not take one', async () => {
    const first = await firstVersion(false);
    const second = await newVersion(first);
    await reserveDoi(second);
    expectValidationFailed(await publish(second), [
      { field: 'pids.doi', messages: [AFTER_UNMANAGED] },
    ]);
    const discard = await t.request({
      method: 'DELETE',
      url: `/api/records/${second}/draft/pids/doi`,
      headers: owner.headers,
    });
    expect(discard.statusCode, discard.body).toBe(200);
    expect((await publish(second)).statusCode).toBe(202);
  });

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

  it('gives the parent a concept DOI with the first managed one, and keeps it for later versions', async () => {
    const first = await firstVersion(true);
    const v1 = (await t.request({ method: 'GET', url: `/api/records/${first}` })).json();
    // Managed like the version's own (without DataCite configured, by the `local` provider).
    expect(v1.parent.pids.doi).toEqual({
      identifier: `10.5072/${v1.parent.id}`,
      provider: 'local',
      client: 'local',
    });
    expect(v1.parent.pids.doi.identifier).not.toBe(v1.pids.doi.identifier);
    const second = await newVersion(first);
    const doi = await reserveDoi(second);
    const v2 = await publish(second);
    expect(v2.json().pids.doi.identifier).toBe(doi);
    expect(v2.json().parent.pids.doi).toEqual(v1.parent.pids.doi);

    const withoutDoi = await firstVersion(false);
    const plain = (await t.request({ method: 'GET', url: `/api/records/${withoutDoi}` })).json();
    expect(plain.parent.pids).toEqual({});
  });
});
