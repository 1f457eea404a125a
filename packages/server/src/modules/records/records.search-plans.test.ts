import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordData } from '@cairn/shared';
import { sql } from 'kysely';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createCommunity } from '../../test/communities.js';
import type { DatabaseObserver } from '../../database/database.js';
import { RecordsBulkRepository, type BulkRecord } from './records-bulk.repository.js';
import { newRecordId } from './record-id.js';

// The records search's statements for a selective word reach the records through the indexes (the
// word's matches, then each record by its key), never by reading every record: with a million
// records a full scan takes seconds. Checked on the plans each engine chooses for the statements
// the search service sends, over records loaded through the bulk path, which these tests also
// hold to what a search finds.

const RECORDS = 2_000;
const RARE = 'glacier';
const RARE_EVERY = 500;
const TYPES = ['dataset', 'publication-article', 'software', 'image-photo'];

/** Tables (and the aliases the search gives them) with rows for every record. */
const GROWING = new Set([
  'records',
  'record_terms',
  't',
  'record_communities',
  'rc',
  'parents',
  'pids',
]);
/** SQLite reaching a record by its key: the rowid an FTS5 match gives, or its id. */
const BY_KEY = /INTEGER PRIMARY KEY|\(rowid=\?\)|\(id=\?\)/;

interface Captured {
  sql: string;
  parameters: readonly unknown[];
}

/** The i-th record: a frequent word in every title, the rare one in a few, facets of each kind. */
function record(i: number, ownerId: number, communityId: string): BulkRecord {
  const key = `table-${i}.${i % 2 ? 'csv' : 'pdf'}`;
  const data = {
    metadata: {
      resource_type: { id: TYPES[i % TYPES.length] },
      title: `Measurements data ${i}${i % RARE_EVERY === 0 ? ` of the ${RARE}` : ''}`,
      publication_date: `${1990 + (i % 30)}-05-01`,
      creators: [
        { person_or_org: { type: 'personal', given_name: 'Ann', family_name: `Lee${i % 50}` } },
      ],
      description: `<p>Readings of station ${i % 97}.</p>`,
      publisher: 'Cairn',
      subjects: [{ subject: `Topic ${i % 40}` }],
      languages: [{ id: i % 3 ? 'eng' : 'deu' }],
    },
    custom_fields: {},
    access: { record: 'public', files: 'public', embargo: { active: false } },
    files: { enabled: true },
    pids: {},
  } as unknown as RecordData;
  const at = new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
  return {
    id: newRecordId(),
    parentId: newRecordId(),
    ownerId,
    data,
    parentData: {
      access: { owned_by: { user: String(ownerId) }, settings: {}, grants: [], links: [] },
      communities: i % 4 === 0 ? { ids: [communityId], default: communityId } : {},
      pids: {},
    },
    filesSummary: {
      entries: {
        [key]: {
          id: `file-${i}`,
          key,
          size: 10,
          checksum: 'md5:00000000000000000000000000000000',
          mimetype: 'text/csv',
          ext: key.split('.').pop()!,
          storage_class: 'L',
          metadata: {},
          access: { hidden: false },
          status: 'completed',
        },
      },
      count: 1,
      total_bytes: 10,
      pending: 0,
      reserved_bytes: 0,
      types: { [key.split('.').pop()!]: 1 },
    },
    publishedAt: at,
  };
}

describe.each(ENGINES)('the records search plans (%s)', (engine) => {
  let t: TestApp;
  let captured: Captured[] | undefined;
  const observer: DatabaseObserver = {
    statement(text, parameters) {
      captured?.push({ sql: text, parameters });
    },
    rows() {},
  };

  beforeAll(async () => {
    t = await createTestApp(engine, {}, {}, { observer });
    const owner = await t.user();
    const communityId = await createCommunity(t, owner, 'plans', {});
    const bulk = new RecordsBulkRepository(t.services.database.db, engine);
    const all = Array.from({ length: RECORDS }, (_, i) => record(i, owner.id, communityId));
    for (let i = 0; i < all.length; i += 500) await bulk.insertPublished(all.slice(i, i + 500));
    await bulk.refreshStatistics();
  }, 60_000);
  afterAll(() => t.close());

  /** The statements of an anonymous search, and its answer. */
  async function statementsOf(query: Record<string, string>) {
    captured = [];
    try {
      const result = await t.services.search.search(undefined, query);
      return { result, statements: captured.filter((s) => /^(select|with)/i.test(s.sql)) };
    } finally {
      captured = undefined;
    }
  }

  /**
   * The tables that grow with the records which a statement reads whole: SQLite's `SCAN t`, or
   * the records through an index that every record is in (the latest-versions index), instead of
   * by key; PostgreSQL's sequential scans. The communities are few, and read whole by design.
   */
  async function fullScans(s: Captured): Promise<string[]> {
    const db = t.services.database.db;
    const params = s.parameters as unknown[];
    if (engine === 'sqlite') {
      const { rows } = await db.executeQuery<{ detail: string }>({
        ...sql`select 1`.compile(db),
        sql: `explain query plan ${s.sql}`,
        parameters: params,
      });
      return rows
        .filter((r) => {
          const m = /^(SCAN|SEARCH) (\w+)(.*)$/.exec(r.detail);
          if (!m || !GROWING.has(m[2]!) || m[3]!.startsWith(' VIRTUAL TABLE')) return false;
          return m[1] === 'SCAN' || (m[2] === 'records' && !BY_KEY.test(m[3]!));
        })
        .map((r) => r.detail);
    }
    // A few thousand rows are read whole faster than through an index, and PostgreSQL rightly
    // does so: with sequential scans priced out, one that remains is one no index could replace.
    const { rows } = await db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      return trx.executeQuery<{ 'QUERY PLAN': unknown }>({
        ...sql`select 1`.compile(trx),
        sql: `explain (format json) ${s.sql}`,
        parameters: params,
      });
    });
    const scans: string[] = [];
    const walk = (node: Record<string, unknown>) => {
      if (node['Node Type'] === 'Seq Scan' && GROWING.has(String(node['Relation Name'])))
        scans.push(String(node['Relation Name']));
      for (const child of (node.Plans as Array<Record<string, unknown>> | undefined) ?? [])
        walk(child);
    };
    const plan = rows[0]!['QUERY PLAN'] as Array<{ Plan: Record<string, unknown> }>;
    walk(plan[0]!.Plan);
    return scans;
  }

  it('finds the bulk-loaded records as published ones, facets included', async () => {
    const { result } = await statementsOf({ q: RARE });
    expect(result.total).toBe(RECORDS / RARE_EVERY);
    const all = await t.services.search.search(undefined, {});
    expect(all.total).toBe(RECORDS);
    const count = (facet: keyof typeof all.facets, key: string) =>
      all.facets[facet]?.find((b) => b.key === key)?.count;
    expect(count('resource_type', 'publication')).toBe(RECORDS / TYPES.length);
    expect(count('resource_subtype', 'publication-article')).toBe(RECORDS / TYPES.length);
    expect(count('file_type', 'csv')).toBe(RECORDS / 2);
    expect(count('community', all.facets.community?.[0]?.key ?? '')).toBe(RECORDS / 4);
  });

  /** Each statement of the search that reads a growing table whole, with what it reads so. */
  async function wholeReads(query: Record<string, string>) {
    const { statements } = await statementsOf(query);
    // The page, the total with every facet, the page's rows, the parents.
    expect(statements.length).toBeGreaterThanOrEqual(4);
    const found = [];
    for (const s of statements) {
      const scans = await fullScans(s);
      if (scans.length > 0) found.push({ sql: s.sql, scans });
    }
    return found;
  }

  // SQLite offered the latest-versions index walked every latest record rather than start from
  // the rowids the word matched; the search keeps that index out of its choice when it has words.

  it('reads no table whole for a selective word: hits, total and every facet', async () => {
    expect(await wholeReads({ q: RARE })).toEqual([]);
  });

  it('reads no table whole for a selective field query', async () => {
    expect(await wholeReads({ q: `metadata.title:${RARE}` })).toEqual([]);
  });

  // A best-match subquery that SQLite flattens into the join asks FTS5 for the word again at
  // every record (the virtual table searched by rowid, `INDEX 0:=M…`), and bm25 reads the word's
  // whole entry each time: quadratic in the hits. The scores are computed once, in one pass.
  it.runIf(engine === 'sqlite')('scores the matches once for a best-match order', async () => {
    const { statements } = await statementsOf({ q: 'measurements data', sort: 'bestmatch' });
    const db = t.services.database.db;
    const page = statements.find((s) => /bm25/.test(s.sql));
    expect(page).toBeDefined();
    const { rows } = await db.executeQuery<{ detail: string }>({
      ...sql`select 1`.compile(db),
      sql: `explain query plan ${page!.sql}`,
      parameters: page!.parameters,
    });
    const perRecord = rows.filter((r) => /VIRTUAL TABLE INDEX \d+:=/.test(r.detail));
    expect(perRecord.map((r) => r.detail)).toEqual([]);
  });

  // The GIN index of the whole weighted vector cannot tell a title's word from the others, so a
  // title query on a word frequent elsewhere read most records; the title's own index answers it.
  it.runIf(engine === 'postgres')('answers a title query from the title index', async () => {
    const { statements } = await statementsOf({ q: `metadata.title:${RARE}` });
    const db = t.services.database.db;
    const total = statements.find((s) => /^with found/.test(s.sql));
    expect(total).toBeDefined();
    const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>({
      ...sql`select 1`.compile(db),
      sql: `explain ${total!.sql}`,
      parameters: total!.parameters,
    });
    expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/records_title_words_idx/);
  });
});
