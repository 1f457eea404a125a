import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../../test/app.js';
import { requestAs } from '../../test/communities.js';
import { FilesApi, type Caller } from '../../test/files.js';
import { loadConfig } from '../../config.js';

// With DATABASE_READ_URL the records search reads through a pool of its own (a read replica's),
// read-only, and everything that writes stays on the primary. The test server has no replica: the
// read pool connects to the primary read-only, and the statements say which pool sent them.

interface Sent {
  sql: string;
  via: 'reader' | 'primary';
}

describe.runIf(process.env.CAIRN_TEST_DATABASE_URL)('a read replica for the search', () => {
  let t: TestApp;
  let owner: Caller;
  let sent: Sent[] | undefined;

  beforeAll(async () => {
    t = await createTestApp(
      'postgres',
      {},
      {},
      {
        readReplica: true,
        observer: {
          statement: (text, _parameters, via) => sent?.push({ sql: text, via: via ?? 'primary' }),
          rows() {},
        },
      },
    );
    owner = await t.user();
  });
  afterAll(() => t?.close());

  async function sentDuring(work: () => Promise<void>): Promise<Sent[]> {
    sent = [];
    try {
      await work();
      return sent;
    } finally {
      sent = undefined;
    }
  }

  it('answers the records search from the read pool, and a publish from the primary', async () => {
    const files = new FilesApi(t, owner);
    let id = '';
    const publishing = await sentDuring(async () => {
      id = await files.publishedRecord('Moraine cores of the read replica');
    });
    expect(publishing.filter((s) => s.via === 'reader')).toEqual([]);

    const searching = await sentDuring(async () => {
      const res = await requestAs(t, 'GET', '/api/records?q=moraine', undefined);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().hits.hits.map((h: { id: string }) => h.id)).toEqual([id]);
    });
    const fromRecords = (s: Sent) => /from "records"/.test(s.sql);
    expect(searching.filter(fromRecords).length).toBeGreaterThan(0);
    expect(searching.filter(fromRecords).filter((s) => s.via !== 'reader')).toEqual([]);
  });

  it('takes no write through the read pool', async () => {
    await expect(sql`delete from rate_limits`.execute(t.services.database.reader)).rejects.toThrow(
      /read-only transaction/,
    );
  });
});

describe('DATABASE_READ_URL', () => {
  it('is refused without the primary it replicates', () => {
    expect(() =>
      loadConfig({ CAIRN_DATA_DIR: '/tmp/x', DATABASE_READ_URL: 'postgres://replica/cairn' }),
    ).toThrow(/DATABASE_READ_URL: a read replica needs its primary in DATABASE_URL/);
  });

  it('is read with its primary', () => {
    const config = loadConfig({
      CAIRN_DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://primary/cairn',
      DATABASE_READ_URL: 'postgres://replica/cairn',
    });
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://primary/cairn',
      readUrl: 'postgres://replica/cairn',
    });
  });
});
