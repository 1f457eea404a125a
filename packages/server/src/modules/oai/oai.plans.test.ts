import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { FilesApi } from '../../test/files.js';
import { planOf, StatementCapture, type PlanStep } from '../../test/plans.js';

// A harvest's later pages cost what its first does: each page starts where the token says the
// last one stopped, found in the (last change, id) index, and reads no record before it, nor
// sorts what it finds. Checked on the plans each engine chooses for the statements a resumed
// ListRecords sends.

const SORTS = /^(USE TEMP B-TREE FOR ORDER BY|Sort|Incremental Sort)$/;

describe.each(ENGINES)('the plans of a harvest page (%s)', (engine) => {
  let t: TestApp;
  const capture = new StatementCapture();

  beforeAll(async () => {
    t = await createTestApp(engine, { CAIRN_OAI_PAGE_SIZE: '2' }, {}, { observer: capture });
    const api = new FilesApi(t, await t.user());
    for (let i = 0; i < 5; i++) await api.publishedRecord(`Record ${i}`);
  }, 60_000);
  afterAll(() => t?.close());

  async function plans(query: string): Promise<{ body: string; steps: PlanStep[][] }> {
    const { result, statements } = await capture.capture(() =>
      t.request({ method: 'GET', url: `/oai2d?${query}` }),
    );
    const pages = statements.filter((s) => /order by/i.test(s.sql) && /"records"/.test(s.sql));
    expect(pages).toHaveLength(1);
    return {
      body: result.body,
      // Over five rows PostgreSQL may rightly prefer a bitmap scan and a sort; the question is
      // whether the index alone gives a page in order, as it must over a million records.
      steps: await Promise.all(
        pages.map((s) => planOf(t.services.database.db, engine, s, { bitmapScans: false })),
      ),
    };
  }

  it('reads a resumed page from the index in its order, starting at the token', async () => {
    const first = await plans('verb=ListRecords&metadataPrefix=oai_dc');
    const token = /<resumptionToken[^>]*>([^<]+)</.exec(first.body)![1]!;
    const { steps } = await plans(`verb=ListRecords&resumptionToken=${token}`);
    for (const plan of steps) {
      const message = JSON.stringify(plan, null, 1);
      expect(
        plan.filter((p) => SORTS.test(p.how)),
        message,
      ).toEqual([]);
      const records = plan.filter((p) => p.table === 'records' || p.table === 'r');
      expect(records, message).toHaveLength(1);
      const step = records[0]!;
      if (engine === 'sqlite') {
        expect(step.how, message).toBe('SEARCH');
        expect(step.detail, message).toContain('records_changed_idx ((updated_at,id)>(?,?)');
      } else {
        expect(step.index, message).toBe('records_changed_idx');
        expect(step.detail, message).toMatch(/ROW\(updated_at, id\) > ROW/);
      }
    }
  });
});
