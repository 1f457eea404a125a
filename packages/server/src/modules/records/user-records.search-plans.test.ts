import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordData } from '@cairn/shared';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { planOf, StatementCapture, wholeReads, type PlanStep } from '../../test/plans.js';
import type { User } from '../users/users.service.js';
import { RecordsBulkRepository, type BulkRecord } from './records-bulk.repository.js';
import { RecordsRepository } from './records.repository.js';
import { newRecordId } from './record-id.js';

// The caller's uploads (`GET /api/user/records`) are read from the caller's own parents: its
// three counts and its page, in every order and with a query, reach the drafts and records
// through the parents' index by owner and each parent's rows, never by reading everyone's drafts
// or records. Checked on the plans each engine chooses for the statements the service sends,
// with other people's uploads many times the caller's.

const OTHERS = 3;
/** Each other person's published records and drafts; a tenth of their records being edited. */
const THEIR_RECORDS = 600;
const THEIR_DRAFTS = 300;
/** The caller's. */
const MY_RECORDS = 12;
const MY_DRAFTS = 5;
const MY_EDITS = 3;
const RARE = 'moraine';

/** Tables with rows for everyone's uploads. */
const GROWING = new Set(['records', 'drafts', 'parents', 'record_terms', 'draft_terms', 'pids']);
/** An index step that narrows to one owner's parents, or one parent's or row's entries. */
const NARROW =
  /\((owner_id|parent_id|id|rowid|draft_id|record_id|facet)=\?|INTEGER PRIMARY KEY|\(rowid=/;

function data(title: string, type: string): RecordData {
  return {
    metadata: {
      resource_type: { id: type },
      title,
      publication_date: '2024-05-01',
      creators: [{ person_or_org: { type: 'personal', given_name: 'Ann', family_name: 'Lee' } }],
    },
    custom_fields: {},
    access: { record: 'public', files: 'public', embargo: { active: false } },
    files: { enabled: false },
    pids: {},
  } as unknown as RecordData;
}

const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();

describe.each(ENGINES)("the plans of the caller's uploads (%s)", (engine) => {
  let t: TestApp;
  let me: User;
  const capture = new StatementCapture();

  /** `count` published records of `ownerId`, a rare word in every tenth title. */
  function published(ownerId: number, count: number, from: number): BulkRecord[] {
    return Array.from({ length: count }, (_, i) => ({
      id: newRecordId(),
      parentId: newRecordId(),
      ownerId,
      data: data(`Survey ${i}${i % 10 === 0 ? ` of a ${RARE}` : ''}`, i % 2 ? 'dataset' : 'image'),
      parentData: {
        access: { owned_by: { user: String(ownerId) }, settings: {}, grants: [], links: [] },
        communities: {},
        pids: {},
      },
      filesSummary: null,
      publishedAt: at(from + i),
    }));
  }

  /** New drafts of `ownerId`, and edit drafts of the first `edits` of its `records`. */
  async function drafts(ownerId: number, count: number, records: BulkRecord[], edits: number) {
    const repo = new RecordsRepository(t.services.database.db, engine);
    await repo.transaction(async (trx) => {
      const draft = (id: string, parentId: string, i: number, published: boolean) =>
        trx.insertDraft({
          id,
          parentId,
          versionIndex: 1,
          data: JSON.stringify(data(`Draft ${i}${i % 10 === 0 ? ` near a ${RARE}` : ''}`, 'image')),
          revisionId: 1,
          createdAt: at(i),
          updatedAt: at(i),
          title: `Draft ${i}`,
          searchText: '',
          expiresAt: at(i),
          recordCreatedAt: published ? at(i) : null,
          unpublishedParentId: published ? null : parentId,
          filesSummary: null,
          updatedBy: ownerId,
        });
      for (let i = 0; i < count; i++) {
        const parentId = newRecordId();
        await trx.insertParent({
          id: parentId,
          ownerId,
          data: JSON.stringify({ access: { owned_by: { user: String(ownerId) } } }),
          createdAt: at(i),
          updatedAt: at(i),
        });
        await draft(newRecordId(), parentId, i, false);
      }
      for (const [i, r] of records.slice(0, edits).entries())
        await draft(r.id, r.parentId, count + i, true);
    });
  }

  beforeAll(async () => {
    t = await createTestApp(engine, {}, {}, { observer: capture });
    const bulk = new RecordsBulkRepository(t.services.database.db, engine);
    for (let o = 0; o < OTHERS; o++) {
      const other = await t.user();
      const theirs = published(other.id, THEIR_RECORDS, o * THEIR_RECORDS);
      await bulk.insertPublished(theirs);
      await drafts(other.id, THEIR_DRAFTS, theirs, THEIR_RECORDS / 10);
    }
    const mine = await t.user();
    me = (await t.services.users.findById(mine.id))!;
    const my = published(me.id, MY_RECORDS, 0);
    await bulk.insertPublished(my);
    await drafts(me.id, MY_DRAFTS, my, MY_EDITS);
    await bulk.refreshStatistics();
  }, 120_000);
  afterAll(() => t?.close());

  /** What each statement of one listing reads whole, and the listing's totals. */
  async function listing(query: Record<string, string>) {
    const { result, statements } = await capture.capture(() =>
      t.services.search.userRecords(me, query),
    );
    const found: Array<{ sql: string; reads: PlanStep[] }> = [];
    for (const s of statements) {
      const steps = await planOf(t.services.database.db, engine, s);
      const reads = wholeReads(steps, GROWING, NARROW);
      if (reads.length > 0) found.push({ sql: s.sql, reads });
    }
    return { result, found };
  }

  it('lists only the caller’s uploads, counted right', async () => {
    const { result } = await listing({});
    expect(result.published).toBe(MY_RECORDS);
    expect(result.drafts).toBe(MY_DRAFTS);
    expect(result.total).toBe(MY_RECORDS + MY_DRAFTS);
    // Records 10 and the new draft 0 hold the word; record 0 is being edited, and is found as its
    // draft, which does not.
    expect((await listing({ q: RARE })).result.total).toBe(2);
  });

  it.each<Record<string, string>>([
    {},
    { sort: 'newest' },
    { sort: 'oldest' },
    { sort: 'updated-asc' },
    { sort: 'version' },
    { is_published: 'true' },
    { is_published: 'false' },
    { q: RARE },
    { q: `metadata.title:${RARE}` },
    { q: 'metadata.resource_type.id:dataset' },
    { q: `${RARE} OR survey`, sort: 'newest' },
  ])('reads nobody else’s uploads for %j: the counts and the page', async (query) => {
    expect((await listing(query)).found).toEqual([]);
  });
});
