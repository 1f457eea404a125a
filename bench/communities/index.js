import crypto from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { percentile } from '../lib/load.js';
import { machineInfo, target, targetLine } from '../lib/report.js';
import { startServer } from '../lib/server.js';

/**
 * @typedef {import('../lib/report.js').BenchResult} BenchResult
 * @typedef {import('../lib/report.js').BenchOptions} BenchOptions
 */

const COMMUNITIES = 10_000;
const MEMBERSHIPS = 100_000;
const USERS = 5_000;
const REQUESTS = 300;
const WARMUP = 30;
const SEARCH_P95_MAX_MS = 20;
const EMAIL = 'bench@cairn.example';
/** A member of every community, for the deposit page at volume. */
const EVERYWHERE_EMAIL = 'everywhere@cairn.example';
const PASSWORD = 'cairn-bench-password';

const WORDS = (
  'glacier ocean climate soil forest river genome protein neuron galaxy ' +
  'volcano coral desert arctic tundra wetland aerosol isotope plankton seismic ' +
  'drought monsoon permafrost lichen fungus pollen sediment basalt aquifer estuary'
).split(' ');
const KINDS = ['research group', 'observatory', 'consortium', 'network', 'archive', 'lab'];
const ROLES = ['owner', 'manager', 'curator', 'reader', 'reader', 'reader'];

/**
 * Search latency of the community picker over 10,000 communities and 100,000 memberships on
 * SQLite, beside a primary-key read of one community in the same run. Target: search p95 ≤ 20 ms.
 * @param {BenchOptions} [options]
 * @returns {Promise<BenchResult>}
 */
export async function run(options = {}) {
  const startedAt = new Date().toISOString();
  const server = await startServer(options);
  try {
    await server.cli(['users', 'create', EMAIL, '--password', PASSWORD, '--name', 'Bench']);
    const token = (await server.cli(['tokens', 'create', EMAIL, '--name', 'bench'])).trim();
    await server.cli(['users', 'create', EVERYWHERE_EMAIL, '--password', PASSWORD]);
    const everywhere = (
      await server.cli(['tokens', 'create', EVERYWHERE_EMAIL, '--name', 'bench'])
    ).trim();
    const seeded = seed(path.join(server.dataDir, 'cairn.sqlite'), EMAIL, EVERYWHERE_EMAIL);
    process.stdout.write(
      `communities: Cairn on SQLite, server pid ${server.pid}; seeded ${COMMUNITIES.toLocaleString('en')} communities, ` +
        `${MEMBERSHIPS.toLocaleString('en')} memberships of ${USERS.toLocaleString('en')} users in ${seeded.seconds.toFixed(1)} s\n\n`,
    );
    const vnd = { authorization: `Bearer ${token}`, accept: 'application/vnd.inveniordm.v1+json' };
    /** @type {Array<{name: string, path: string, headers: Record<string, string>}>} */
    const cases = [
      {
        name: 'GET community by id (primary key)',
        path: `/api/communities/${seeded.sampleId}`,
        headers: vnd,
      },
      {
        name: 'picker: q=glacier, size 5, bestmatch',
        path: '/api/communities?q=glacier&size=5&page=1&sort=bestmatch',
        headers: vnd,
      },
      {
        name: 'picker: q=arctic observatory, page 3',
        path: '/api/communities?q=arctic+observatory&size=5&page=3&sort=bestmatch',
        headers: vnd,
      },
      { name: 'picker: q=zzz (no hit)', path: '/api/communities?q=zzz&size=5', headers: vnd },
      { name: 'all communities, newest, size 25', path: '/api/communities', headers: vnd },
      {
        name: 'my communities, q=river, size 5',
        path: '/api/user/communities?q=river&size=5&sort=bestmatch',
        headers: vnd,
      },
      {
        name: 'anonymous: q=coral, size 5',
        path: '/api/communities?q=coral&size=5',
        headers: { accept: 'application/json' },
      },
      // The deposit page, whose picker pages through the person's communities like the rest.
      {
        name: 'deposit page, member of 50 communities',
        path: '/uploads/new',
        headers: { authorization: `Bearer ${token}` },
      },
      {
        name: `deposit page, member of ${COMMUNITIES.toLocaleString('en')} communities`,
        path: '/uploads/new',
        headers: { authorization: `Bearer ${everywhere}` },
      },
    ];
    const phases = [];
    /** @type {string[]} */
    const failures = [];
    for (const c of cases) {
      const phase = await measure(server.baseUrl, c);
      if (phase.errors > 0)
        failures.push(`${c.name}: ${phase.errors} failed; first: ${phase.firstError}`);
      phases.push(phase);
    }
    process.stdout.write(table(phases) + '\n\n');
    const searches = phases.slice(1).filter((p) => !p.name.startsWith('deposit page'));
    const worst = Math.max(...searches.map((p) => p.p95Ms));
    const targets = [
      target({
        label: 'community search p95 (worst case)',
        value: worst,
        unit: 'ms',
        comparison: '≤',
        bound: SEARCH_P95_MAX_MS,
      }),
    ];
    for (const t of targets) process.stdout.write(`${targetLine(t)}\n`);
    const notes = {
      'primary-key read p95 (ms)': round(phases[0]?.p95Ms ?? NaN),
      'seed seconds': round(seeded.seconds),
    };
    for (const [label, value] of Object.entries(notes))
      process.stdout.write(`${label}: ${value}\n`);
    return {
      name: 'communities',
      startedAt,
      machine: machineInfo(),
      phases,
      targets,
      notes,
      failures,
    };
  } finally {
    await server.stop();
  }
}

/** @param {number} n */
function round(n) {
  return Math.round(n * 100) / 100;
}

/**
 * Writes the communities, users and memberships straight into the server's database: creating
 * them one API call at a time would take minutes and measure nothing of interest. The rows are
 * what the service writes (search text normalised, lower case, words space-separated).
 * @param {string} file
 * @param {string} benchEmail
 * @param {string} everywhereEmail a user made a member of every community
 */
function seed(file, benchEmail, everywhereEmail) {
  const started = performance.now();
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  const now = Date.now();
  const stamp = new Date(now).toISOString();
  const userId = (/** @type {string} */ email) =>
    /** @type {{id: number}} */ (db.prepare('select id from users where email = ?').get(email)).id;
  const benchUser = { id: userId(benchEmail) };
  const everywhereUser = userId(everywhereEmail);
  const insertUser = db.prepare(
    "insert into users (email, name, password_hash, is_admin, created_at) values (?, ?, 'x', 0, ?)",
  );
  const insertCommunity = db.prepare(
    `insert into communities (id, slug, data, title, search_text, visibility, type_id, revision_id, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
  );
  const insertMember = db.prepare(
    `insert or ignore into community_members (community_id, user_id, role, visible, revision_id, created_at, updated_at)
     values (?, ?, ?, 1, 1, ?, ?)`,
  );
  /** @type {number[]} */
  const userIds = [benchUser.id];
  /** @type {string[]} */
  const ids = [];
  // mulberry32: a reproducible spread in 32-bit integer arithmetic (floats would lose bits).
  let state = 42;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (/** @type {string[]} */ list) =>
    list[Math.floor(next() * list.length)] ?? list[0] ?? '';
  db.transaction(() => {
    for (let i = 1; i < USERS; i++) {
      userIds.push(
        Number(
          insertUser.run(`member${i}@bench.example`, `Member ${i}`, new Date(now).toISOString())
            .lastInsertRowid,
        ),
      );
    }
    for (let i = 0; i < COMMUNITIES; i++) {
      const id = crypto.randomUUID();
      const title = `${pick(WORDS)} ${pick(WORDS)} ${pick(KINDS)} ${i}`;
      const slug = title.replaceAll(' ', '-');
      const type = pick(['organization', 'event', 'topic', 'project']);
      const visibility = next() < 0.1 ? 'restricted' : 'public';
      const data = {
        metadata: { title, description: `About the ${title}`, type: { id: type } },
        access: {
          visibility,
          members_visibility: 'public',
          member_policy: 'open',
          record_submission_policy: 'open',
          review_policy: 'closed',
        },
        custom_fields: {},
        children: { allow: false },
      };
      const created = new Date(now - (COMMUNITIES - i) * 60_000).toISOString();
      const searchText = ` ${slug.replaceAll('-', ' ')} ${title} about the ${title} ${type} `;
      insertCommunity.run(
        id,
        slug,
        JSON.stringify(data),
        title,
        searchText,
        visibility,
        type,
        created,
        created,
      );
      ids.push(id);
    }
    let made = 0;
    // The bench user belongs to 50 communities, like a busy curator; the rest spread at random.
    for (let i = 0; i < 50; i++)
      made += insertMember.run(ids[i * 97], benchUser.id, pick(ROLES), stamp, stamp).changes;
    for (const id of ids) insertMember.run(id, everywhereUser, 'reader', stamp, stamp);
    while (made < MEMBERSHIPS) {
      made += insertMember.run(
        pick(ids),
        userIds[Math.floor(next() * userIds.length)],
        pick(ROLES),
        stamp,
        stamp,
      ).changes;
    }
  })();
  db.pragma('optimize');
  db.close();
  return {
    seconds: (performance.now() - started) / 1000,
    sampleId: ids[Math.floor(COMMUNITIES / 2)] ?? '',
  };
}

/**
 * One request at a time: the picker's question is how long one person waits per keystroke.
 * @param {string} baseUrl
 * @param {{name: string, path: string, headers: Record<string, string>}} spec
 */
async function measure(baseUrl, spec) {
  /** @type {number[]} */
  const times = [];
  let errors = 0;
  let bytes = 0;
  /** @type {string | undefined} */
  let firstError;
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    const start = performance.now();
    const response = await fetch(`${baseUrl}${spec.path}`, { headers: spec.headers });
    const text = await response.text();
    const ms = performance.now() - start;
    bytes = Buffer.byteLength(text);
    if (!response.ok) {
      errors++;
      firstError ??= `${response.status} ${text.slice(0, 200)}`;
    }
    if (i >= WARMUP) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return {
    name: spec.name,
    requests: REQUESTS,
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    p99Ms: percentile(times, 99),
    bytes,
    errors,
    firstError,
  };
}

/** @param {Array<{name: string, p50Ms: number, p95Ms: number, p99Ms: number, bytes: number}>} phases */
function table(phases) {
  const rows = [
    ['case', 'p50 ms', 'p95 ms', 'p99 ms', 'KB'],
    ...phases.map((p) => [
      p.name,
      p.p50Ms.toFixed(2),
      p.p95Ms.toFixed(2),
      p.p99Ms.toFixed(2),
      (p.bytes / 1024).toFixed(1),
    ]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
        .join('  '),
    )
    .join('\n');
}
