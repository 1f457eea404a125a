import { randomUUID } from 'node:crypto';
import { RequestSearchQuery } from '@cairn/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createCommunity } from '../../test/communities.js';
import {
  planOf,
  StatementCapture,
  vacuumUntilAllVisible,
  wholeReads,
  type PlanStep,
} from '../../test/plans.js';
import type { User } from '../users/users.service.js';

// A curator's list of a community's open requests, newest first, is read from an index in that
// order: the community's open requests are found without reading anyone else's, and the page is
// the index's first entries, not every open request of the community sorted. Checked on the plans
// each engine chooses for the statements the requests service sends, with other communities'
// requests many times this one's.

const OTHER_REQUESTS = 3_000;
const MINE_OPEN = 30;
const MINE_CLOSED = 20;

const GROWING = new Set(['requests', 'r', 'request_events', 'request_reads']);
/**
 * An index step that narrows to one community's, one person's or one record's requests, or to
 * the rows, events and reads of the requests of a page (SQLite reads a page's rows by `number`,
 * its rowid).
 */
const NARROW =
  /\((receiver_community_id|receiver_user_id|created_by|topic_record_id|id|number|rowid|request_id|user_id)=\?/;
/** The status index, which holds everyone's requests of a status (PostgreSQL's steps name it). */
const BY_STATUS = 'requests_expiry_idx';
/** A sort of the rows found, which an index in the list's order makes needless. */
const SORTS = /^(USE TEMP B-TREE FOR ORDER BY|Sort|Incremental Sort)$/;

describe.each(ENGINES)("the plans of a community's open requests (%s)", (engine) => {
  let t: TestApp;
  let curator: User;
  let communityId: string;
  const capture = new StatementCapture();

  beforeAll(async () => {
    t = await createTestApp(engine, {}, {}, { observer: capture });
    const someone = await t.user();
    const others = [
      await createCommunity(t, someone, 'elsewhere-1', {}),
      await createCommunity(t, someone, 'elsewhere-2', {}),
    ];
    const caller = await t.user();
    curator = (await t.services.users.findById(caller.id))!;
    communityId = await createCommunity(t, caller, 'mine', {});
    const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
    const row = (i: number, community: string, status: string, by = someone.id) => ({
      id: randomUUID(),
      type: 'community-submission',
      status,
      title: `Request ${i}`,
      createdBy: by,
      receiverCommunityId: community,
      topicRecordId: null,
      expiresAt: null,
      revisionId: 1,
      createdAt: at(i),
      updatedAt: at(i),
      // The latest activity runs the other way round: the oldest request was talked about last.
      lastActivityAt: at(10_000 - i),
    });
    const rows = [
      ...Array.from({ length: OTHER_REQUESTS }, (_, i) =>
        row(i, others[i % 2]!, i % 3 ? 'submitted' : 'accepted'),
      ),
      ...Array.from({ length: MINE_OPEN }, (_, i) => row(i, communityId, 'submitted')),
      // Its own, sent to its community and declined.
      ...Array.from({ length: MINE_CLOSED }, (_, i) => row(i, communityId, 'declined', caller.id)),
    ];
    const { db } = t.services.database;
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('requests')
        .values(rows.slice(i, i + 500))
        .execute();
    if (engine === 'postgres') await sql`analyze requests`.execute(db);
  }, 60_000);
  afterAll(() => t?.close());

  /**
   * The steps of each statement of one listing that read requests whole (or all of a status), or
   * sort them when `sorted` says an index must give the order.
   */
  async function listing(
    query: Record<string, string>,
    scope: { communityId?: string },
    sorted = true,
  ) {
    return planned(
      () =>
        // As the route hands it over: parsed by the route's schema.
        t.services.requests.search(curator, RequestSearchQuery.parse(query), scope),
      sorted,
    );
  }

  async function planned<T>(run: () => Promise<T>, sorted: boolean) {
    const { result, statements } = await capture.capture(run);
    const found: Array<{ sql: string; steps: PlanStep[] }> = [];
    for (const s of statements.filter((x) => /from "request(s|_events|_reads)"/.test(x.sql))) {
      const steps = await planOf(t.services.database.db, engine, s);
      const bad = [
        ...wholeReads(steps, GROWING, NARROW),
        ...steps.filter((p) => p.index === BY_STATUS),
        ...steps.filter((p) => sorted && SORTS.test(p.how)),
      ];
      if (bad.length > 0) found.push({ sql: s.sql, steps: bad });
    }
    return { result, found };
  }

  it("lists the community's open requests, newest first, from the index in that order", async () => {
    const { result, found } = await listing({ is_open: 'true', size: '10' }, { communityId });
    expect(result.total).toBe(MINE_OPEN);
    expect(result.views.map((v) => v.row.title)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Request ${MINE_OPEN - 1 - i}`),
    );
    expect(found).toEqual([]);
  });

  it('reads them oldest first from the same index', async () => {
    const { result, found } = await listing(
      { is_open: 'true', sort: 'oldest', size: '10' },
      { communityId },
    );
    expect(result.views[0]!.row.title).toBe('Request 0');
    expect(found).toEqual([]);
  });

  it('lists the open requests a curator receives or sent without reading anyone else’s', async () => {
    // Sent by it or received by its communities: two index lookups, whose union is sorted.
    const { result, found } = await listing({ is_open: 'true', size: '10' }, {}, false);
    expect(result.total).toBe(MINE_OPEN);
    expect(result.views[0]!.row.title).toBe(`Request ${MINE_OPEN - 1}`);
    expect(found).toEqual([]);
  });

  it("lists the community's open requests by latest activity from the index in that order", async () => {
    const { result, found } = await listing(
      { is_open: 'true', sort: 'updated', size: '10' },
      { communityId },
    );
    expect(result.total).toBe(MINE_OPEN);
    expect(result.views[0]!.row.title).toBe('Request 0');
    expect(found).toEqual([]);
  });

  it('narrows the whole inbox to one community (community=) through its index, in order', async () => {
    const { result, found } = await listing(
      { is_open: 'true', community: communityId, sort: 'updated', size: '10' },
      {},
    );
    expect(result.total).toBe(MINE_OPEN);
    expect(found).toEqual([]);
  });

  it('lists what the curator created (created_by=me) through the creator index', async () => {
    const { result, found } = await listing({ created_by: 'me', size: '10' }, {}, false);
    expect(result.total).toBe(MINE_CLOSED);
    expect(found).toEqual([]);
  });

  it("counts and pages a curator's requests from the community indexes, not the requests' rows", async () => {
    const { db } = t.services.database;
    // The pages of a table filled at once are all-visible only once vacuumed (autovacuum's work
    // on a site); until then PostgreSQL's index-only scans would still visit the rows.
    if (engine === 'postgres') await vacuumUntilAllVisible(db, 'requests');
    const lists: Array<[Record<string, string>, { communityId?: string }, number]> = [
      // Across its communities: the received branch of the union.
      [{ is_open: 'false', size: '10' }, {}, MINE_CLOSED],
      [{ q: 'request 2', type: 'community-submission', size: '10' }, {}, 11 + 1],
      // One community, by latest activity.
      [{ sort: 'updated', size: '10' }, { communityId }, MINE_OPEN + MINE_CLOSED],
    ];
    for (const [query, scope, total] of lists) {
      const { result, statements } = await capture.capture(() =>
        t.services.requests.search(curator, RequestSearchQuery.parse(query), scope),
      );
      expect(result.total).toBe(total);
      const listing = statements.filter((s) => s.sql.includes('from "requests" as "r"'));
      // The count and the page's keys; a search counts beside its page, in one pass.
      expect(listing).toHaveLength(query.q ? 1 : 2);
      for (const s of listing) {
        const steps = await planOf(db, engine, s, { bitmapScans: false });
        const byCommunity = steps.filter((p) => p.detail.includes('receiver_community_id'));
        expect(byCommunity.length, s.sql).toBeGreaterThan(0);
        const rowReads = byCommunity.filter((p) =>
          engine === 'sqlite' ? !p.detail.includes('COVERING INDEX') : p.how !== 'Index Only Scan',
        );
        expect(rowReads, s.sql).toEqual([]);
      }
    }
  });

  it('counts the open requests waiting for the curator without reading anyone else’s', async () => {
    const { result, found } = await planned(() => t.services.requests.countAwaiting(curator), true);
    expect(result).toBe(MINE_OPEN);
    expect(found).toEqual([]);
  });

  it("reads a page's comment counts and unread marks by the page's ids alone", async () => {
    const { result: page } = await listing({ is_open: 'true', size: '10' }, { communityId });
    const rows = page.views.map((v) => v.row);
    // The requests here are written with earlier dates than the database's read marks began:
    // as they would all count as seen, the marks are made to begin before them.
    await sql`update kysely_migration set timestamp = ${new Date(0).toISOString()} where name = '0023_requests_inbox'`.execute(
      t.services.database.db,
    );
    await t.services.requests.markSeen(curator, rows[0]!.id);
    const { result, found } = await planned(
      () =>
        Promise.all([
          t.services.requests.commentCounts(rows),
          t.services.requests.unreadOf(curator, rows),
        ]),
      // PostgreSQL sorts the page's own events to group them: no order of the list is at stake.
      false,
    );
    expect(result[0].size).toBe(0);
    expect(result[1].size).toBe(rows.length - 1);
    expect(found).toEqual([]);
  });
});
