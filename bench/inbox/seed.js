// Writes the requests inbox benchmark's data into a server's database through the server's own
// database layer (`openDatabase`, Kysely), in batches: users, communities and their members,
// requests, their timelines and read marks. Creating 100,000 requests one API call at a time would
// take hours and measure nothing of interest; the rows are those the services write.
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { loadConfig, openDatabase } from '@cairn/server';
import { random } from '../lib/random.js';

export const COMMUNITIES = Number(process.env.CAIRN_BENCH_INBOX_COMMUNITIES ?? 10_000);
export const USERS = Number(process.env.CAIRN_BENCH_INBOX_USERS ?? 50_000);
export const REQUESTS = Number(process.env.CAIRN_BENCH_INBOX_REQUESTS ?? 100_000);
/** The comments of the one long conversation the request page is measured on. */
export const LONG_CONVERSATION = 200;
const OPEN_SHARE = 0.1;
/** Requests still in `created` (a draft's review not yet submitted): their creator's alone. */
const CREATED_SHARE = 0.01;
/** How many of the requests the curator created (the inbox's "created by me"), about. */
const CURATOR_CREATED_SHARE = 0.001;
/**
 * The communities the curator curates, manages or owns, by rank: rank 0 receives the most
 * requests (about 4,600 of 100,000), the others from some hundreds down to a few.
 */
const CURATED_RANKS = [0, 1, 5, 20, 100, 500, 1_000, 3_000, 6_000, 9_000].filter(
  (rank) => rank < COMMUNITIES,
);
/** Communities the curator only reads: their requests are none of its business. */
const READER_RANKS = [2, 3, 4, 10, 50];
const CURATOR_ROLES = ['owner', 'manager', 'curator'];
const BATCH = 1_000;
const SPAN_MS = 3 * 365 * 86_400_000;
const MAX_ACTIVITY_MS = 20 * 86_400_000;

export const TITLE_WORDS = (
  'glacier ocean climate soil forest river genome protein neuron galaxy ' +
  'volcano coral desert arctic tundra wetland aerosol isotope plankton seismic ' +
  'drought monsoon permafrost lichen fungus pollen sediment basalt aquifer estuary'
).split(' ');
const TITLE_KINDS = ['dataset', 'survey', 'measurements', 'samples', 'model runs', 'images'];
const COMMUNITY_KINDS = ['research group', 'observatory', 'consortium', 'network', 'archive'];
const CLOSED = [
  { status: 'accepted', share: 0.65 },
  { status: 'declined', share: 0.17 },
  { status: 'cancelled', share: 0.12 },
  { status: 'expired', share: 0.06 },
];

/**
 * @typedef {object} Seeded
 * @property {number} seconds
 * @property {number} curatorId
 * @property {Array<{id: string, slug: string, rank: number}>} curated the curator's communities,
 *   busiest first
 * @property {string[]} smallRequestIds submitted requests to the curator's communities with a
 *   short timeline (the primary-key baseline)
 * @property {string} longRequestId the request with LONG_CONVERSATION comments
 * @property {number} visibleToCurator requests the curator created or its communities received
 *   once submitted
 * @property {number} events timeline events written
 */

/**
 * @param {{dataDir: string, databaseUrl?: string, curatorEmail: string}} where the server's data
 *   directory and database, and the account that curates CURATED_RANKS
 * @returns {Promise<Seeded>}
 */
export async function seedInbox(where) {
  const started = performance.now();
  const env = {
    CAIRN_DATA_DIR: where.dataDir,
    ...(where.databaseUrl ? { DATABASE_URL: where.databaseUrl } : {}),
  };
  const webDist = fileURLToPath(new URL('../../packages/web/dist', import.meta.url));
  const config = loadConfig(env, { webDist: path.resolve(webDist) });
  const database = openDatabase(config.database);
  try {
    const { db } = database;
    const seeded = await db.transaction().execute((trx) => write(trx, where.curatorEmail));
    // PostgreSQL's autovacuum would vacuum and analyze tables grown this much within a minute
    // (the vacuum marks their pages all-visible, which index-only scans need); SQLite is never
    // analyzed by Cairn, so its plans are measured without statistics, as a site has them.
    if (database.engine === 'postgres') await sql`vacuum analyze`.execute(db);
    return { ...seeded, seconds: (performance.now() - started) / 1000 };
  } finally {
    await database.close();
  }
}

/**
 * @param {import('kysely').Kysely<any>} db
 * @param {string} curatorEmail
 */
async function write(db, curatorEmail) {
  const next = random(18);
  const pick = (/** @type {string[]} */ list) => list[Math.floor(next() * list.length)] ?? '';
  const now = Date.now();
  const iso = (/** @type {number} */ ms) => new Date(Math.min(ms, now)).toISOString();
  const stamp = iso(now - SPAN_MS - 86_400_000);

  const curator = /** @type {{id: number}} */ (
    await db.selectFrom('users').select('id').where('email', '=', curatorEmail).executeTakeFirst()
  );
  if (!curator) throw new Error(`no account for ${curatorEmail}`);

  /** @type {Array<Record<string, unknown>>} */
  const users = Array.from({ length: USERS - 1 }, (_, i) => ({
    email: `person${i}@inbox.bench.example`,
    name: `Person ${i}`,
    passwordHash: 'x',
    isAdmin: 0,
    createdAt: stamp,
  }));
  await insertAll(db, 'users', users);
  const userIds = /** @type {number[]} */ (
    (
      await db
        .selectFrom('users')
        .select('id')
        .where('email', 'like', 'person%@inbox.bench.example')
        .orderBy('id')
        .execute()
    ).map((r) => r.id)
  );
  const someone = () => userIds[Math.floor(next() * userIds.length)] ?? curator.id;

  /** @type {Array<{id: string, slug: string, owner: number}>} */
  const communities = [];
  /** @type {Array<Record<string, unknown>>} */
  const communityRows = [];
  for (let rank = 0; rank < COMMUNITIES; rank++) {
    const id = crypto.randomUUID();
    const title = `${pick(TITLE_WORDS)} ${pick(COMMUNITY_KINDS)} ${rank}`;
    const slug = `inbox-${rank}`;
    const data = {
      metadata: { title, description: `About the ${title}`, type: { id: 'topic' } },
      access: {
        visibility: 'public',
        members_visibility: 'public',
        member_policy: 'open',
        record_submission_policy: 'open',
        review_policy: 'closed',
      },
      custom_fields: {},
      children: { allow: false },
    };
    communityRows.push({
      id,
      slug,
      data: JSON.stringify(data),
      title,
      searchText: ` ${slug.replace('-', ' ')} ${title} about the ${title} topic `,
      visibility: 'public',
      typeId: 'topic',
      revisionId: 1,
      createdAt: stamp,
      updatedAt: stamp,
    });
    communities.push({ id, slug, owner: someone() });
  }
  await insertAll(db, 'communities', communityRows);

  // An owner each, a curator in every other community, two readers; the curator of the benchmark
  // in CURATED_RANKS (owner, manager or curator in turn) and a reader in READER_RANKS.
  /** @type {Map<string, Record<string, unknown>>} */
  const members = new Map();
  const member = (
    /** @type {string} */ communityId,
    /** @type {number} */ userId,
    /** @type {string | undefined} */ role,
  ) =>
    members.set(`${communityId} ${userId}`, {
      communityId,
      userId,
      role,
      createdAt: stamp,
      updatedAt: stamp,
    });
  CURATED_RANKS.forEach((rank, i) =>
    member(communities[rank]?.id ?? '', curator.id, CURATOR_ROLES[i % CURATOR_ROLES.length]),
  );
  for (const rank of READER_RANKS) member(communities[rank]?.id ?? '', curator.id, 'reader');
  for (const [rank, c] of communities.entries()) {
    member(c.id, c.owner, 'owner');
    if (rank % 2 === 0) member(c.id, someone(), 'curator');
    member(c.id, someone(), 'reader');
    member(c.id, someone(), 'reader');
  }
  await insertAll(db, 'communityMembers', [...members.values()]);

  const curatedIds = new Set(CURATED_RANKS.map((rank) => communities[rank]?.id));
  const longAt = REQUESTS - 500;
  /** @type {Array<Record<string, unknown>>} */
  const requests = [];
  /** @type {Array<Record<string, unknown>>} */
  const events = [];
  /** @type {Map<string, Record<string, unknown>>} */
  const reads = new Map();
  const read = (
    /** @type {string} */ requestId,
    /** @type {number} */ userId,
    /** @type {string} */ seenAt,
  ) => reads.set(`${userId} ${requestId}`, { requestId, userId, seenAt });
  /** @type {string[]} */
  const smallRequestIds = [];
  let visibleToCurator = 0;
  let longRequestId = '';
  const event = (
    /** @type {string} */ requestId,
    /** @type {'C' | 'L'} */ type,
    /** @type {unknown} */ payload,
    /** @type {number | null} */ by,
    /** @type {string} */ at,
  ) =>
    events.push({
      id: crypto.randomUUID(),
      requestId,
      type,
      payload: JSON.stringify(payload),
      createdBy: by,
      revisionId: 1,
      createdAt: at,
      updatedAt: at,
    });
  const comment = (/** @type {number} */ n) => ({
    content: `<p>Comment ${n}: ${pick(TITLE_WORDS)} ${pick(TITLE_WORDS)}, please check the ${pick(TITLE_KINDS)} and the licence once more.</p>`,
    format: 'html',
  });

  for (let n = 0; n < REQUESTS; n++) {
    const isLong = n === longAt;
    // Rank ⌊N·u³⌋: a few communities receive most requests, most communities a handful.
    const rank = isLong ? 0 : Math.min(COMMUNITIES - 1, Math.floor(COMMUNITIES * next() ** 3));
    const community = /** @type {{id: string, owner: number}} */ (communities[rank]);
    const createdBy = next() < CURATOR_CREATED_SHARE ? curator.id : someone();
    const u = next();
    let status =
      u < OPEN_SHARE
        ? 'submitted'
        : u < OPEN_SHARE + CREATED_SHARE
          ? 'created'
          : closedStatus(next());
    if (isLong) status = 'submitted';
    const createdMs = now - SPAN_MS + Math.floor((n / REQUESTS) * SPAN_MS);
    const createdAt = iso(createdMs);
    const id = crypto.randomUUID();
    let lastMs = createdMs + (status === 'created' ? 0 : Math.floor(next() * MAX_ACTIVITY_MS));
    if (status !== 'created' && !isLong) {
      if (next() < 0.6) event(id, 'C', comment(0), createdBy, createdAt);
      if (next() < 0.2) event(id, 'C', comment(1), community.owner, iso((createdMs + lastMs) / 2));
      if (status !== 'submitted') {
        const by =
          status === 'expired' ? null : status === 'cancelled' ? createdBy : community.owner;
        event(id, 'L', { event: status }, by, iso(lastMs));
      }
    }
    if (isLong) {
      longRequestId = id;
      for (let i = 1; i <= LONG_CONVERSATION; i++) {
        lastMs = createdMs + i * 30 * 60_000;
        event(id, 'C', comment(i), i % 2 ? community.owner : createdBy, iso(lastMs));
      }
    }
    const lastActivityAt = iso(lastMs);
    requests.push({
      id,
      type: next() < 0.7 ? 'community-submission' : 'community-inclusion',
      status,
      title: `${pick(TITLE_WORDS)} ${pick(TITLE_WORDS)} ${pick(TITLE_KINDS)} ${n}`,
      createdBy,
      receiverCommunityId: community.id,
      topicRecordId: crypto.randomUUID(),
      expiresAt: null,
      revisionId: 1,
      createdAt,
      updatedAt: lastActivityAt,
      lastActivityAt,
    });
    if (next() < 0.5) read(id, createdBy, lastActivityAt);
    const received = curatedIds.has(community.id) && status !== 'created';
    if (received || createdBy === curator.id) visibleToCurator++;
    if (received && next() < 0.5) read(id, curator.id, lastActivityAt);
    if (received && status === 'submitted' && !isLong && smallRequestIds.length < 20)
      smallRequestIds.push(id);
  }
  await insertAll(db, 'requests', requests);
  await insertAll(db, 'requestEvents', events);
  await insertAll(db, 'requestReads', [...reads.values()]);
  return {
    curatorId: curator.id,
    curated: CURATED_RANKS.map((rank) => {
      const c = /** @type {{id: string, slug: string}} */ (communities[rank]);
      return { id: c.id, slug: c.slug, rank };
    }),
    smallRequestIds,
    longRequestId,
    visibleToCurator,
    events: events.length,
  };
}

/** @param {number} u in [0, 1) */
function closedStatus(u) {
  let sum = 0;
  for (const c of CLOSED) {
    sum += c.share;
    if (u < sum) return c.status;
  }
  return 'accepted';
}

/**
 * @param {import('kysely').Kysely<any>} db
 * @param {string} table
 * @param {Array<Record<string, unknown>>} rows
 */
async function insertAll(db, table, rows) {
  for (let i = 0; i < rows.length; i += BATCH)
    await db
      .insertInto(table)
      .values(rows.slice(i, i + BATCH))
      .execute();
}
