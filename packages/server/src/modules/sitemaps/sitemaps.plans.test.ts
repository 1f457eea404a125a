import type { RecordData } from '@cairn/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { ENGINES } from '../../test/databases.js';
import {
  planOf,
  StatementCapture,
  vacuumUntilAllVisible,
  type PlanStep,
} from '../../test/plans.js';
import { newRecordId } from '../records/record-id.js';
import { RecordsBulkRepository, type BulkRecord } from '../records/records-bulk.repository.js';

// A sitemap deep in a million records costs what the first does: it starts from its cursor in
// `records_sitemap_idx`, never counting past the records before it, and the index of sitemaps
// reads that index alone. Checked on the plans each engine chooses for the statements the routes
// send, over records loaded through the bulk path.

const RECORDS = 2_000;
const PER_SITEMAP = 500;

function record(i: number, ownerId: number): BulkRecord {
  return {
    id: newRecordId(),
    parentId: newRecordId(),
    ownerId,
    data: {
      metadata: {
        resource_type: { id: 'dataset' },
        title: `Record ${i}`,
        publication_date: '2024-05-01',
        creators: [{ person_or_org: { type: 'personal', family_name: 'Lee', given_name: 'Ann' } }],
      },
      custom_fields: {},
      // One record in ten restricted: the sitemaps' index holds the others only.
      access: {
        record: i % 10 === 0 ? 'restricted' : 'public',
        files: 'public',
        embargo: { active: false },
      },
      files: { enabled: false },
      pids: {},
    } as unknown as RecordData,
    parentData: {
      access: { owned_by: { user: String(ownerId) }, settings: {}, grants: [], links: [] },
      communities: {},
      pids: {},
    },
    filesSummary: null,
    publishedAt: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
  };
}

describe.each(ENGINES)('the sitemaps plans (%s)', (engine) => {
  let t: TestApp;
  const capture = new StatementCapture();

  beforeAll(async () => {
    t = await createTestApp(engine, {}, { sitemapUrlsPerFile: PER_SITEMAP }, { observer: capture });
    const owner = await t.user();
    const bulk = new RecordsBulkRepository(t.services.database.db, engine);
    const all = Array.from({ length: RECORDS }, (_, i) => record(i, owner.id));
    for (let i = 0; i < all.length; i += 500) await bulk.insertPublished(all.slice(i, i + 500));
    await bulk.refreshStatistics();
    if (engine === 'postgres') await vacuumUntilAllVisible(t.services.database.db, 'records');
  }, 60_000);
  afterAll(() => t.close());

  /** The plans of the statements reading the records while `url` is answered, and the answer. */
  async function plansOf(url: string) {
    const { result, statements } = await capture.capture(() => t.request({ method: 'GET', url }));
    expect(result.statusCode, result.body).toBe(200);
    const reads = statements.filter((s) => /\brecords\b/.test(s.sql));
    expect(reads.length).toBeGreaterThan(0);
    const plans: PlanStep[][] = [];
    for (const s of reads) plans.push(await planOf(t.services.database.db, engine, s));
    return { body: result.body, plans };
  }

  const onRecords = (plan: PlanStep[]) => plan.filter((p) => p.table === 'records');

  it('cuts the records into sitemaps by reading the sitemaps index alone', async () => {
    const { body, plans } = await plansOf('/sitemap.xml');
    // 1,800 public records, 500 a sitemap.
    expect(body.match(/sitemap-records\.xml/g)).toHaveLength(4);
    for (const plan of plans) {
      const steps = onRecords(plan);
      expect(steps.length, JSON.stringify(plan)).toBeGreaterThan(0);
      for (const step of steps) {
        if (engine === 'sqlite') expect(step.detail).toMatch(/COVERING INDEX records_sitemap_idx/);
        else expect(step).toMatchObject({ how: 'Index Only Scan', index: 'records_sitemap_idx' });
      }
    }
  });

  it('starts the last sitemap at its cursor in the index, without reading what comes before', async () => {
    const index = (await t.request({ method: 'GET', url: '/sitemap.xml' })).body;
    const last = [...index.matchAll(/<loc>https:\/\/cairn\.test([^<]+)<\/loc>/g)]
      .map((m) => m[1]!.replace(/&amp;/g, '&'))
      .filter((u) => u.includes('sitemap-records'))
      .at(-1)!;
    expect(last).toContain('?after=');
    const { body, plans } = await plansOf(last);
    expect(body.match(/<url>/g)).toHaveLength(300);
    for (const plan of plans) {
      const steps = onRecords(plan);
      expect(steps.length, JSON.stringify(plan)).toBeGreaterThan(0);
      for (const step of steps) {
        if (engine === 'sqlite') {
          expect(step.how).toBe('SEARCH');
          expect(step.detail).toMatch(
            /INDEX records_sitemap_idx \(\(published_at,id\)>\(\?,\?\)\)/,
          );
        } else {
          expect(step.index).toBe('records_sitemap_idx');
          expect(step.detail).toMatch(/published_at/);
        }
      }
      // The index gives the order: nothing is sorted.
      expect(plan.map((p) => p.how).join(' ')).not.toMatch(/\bSort\b|TEMP B-TREE/);
    }
  });
});
