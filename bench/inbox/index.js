import os from 'node:os';
import { percentile } from '../lib/load.js';
import { scratchPostgres } from '../lib/postgres.js';
import { machineInfo, target, targetLine, textTable } from '../lib/report.js';
import { startServer } from '../lib/server.js';
import { COMMUNITIES, LONG_CONVERSATION, REQUESTS, USERS, seedInbox } from './seed.js';

/**
 * @typedef {import('../lib/report.js').BenchResult} BenchResult
 * @typedef {import('../lib/report.js').BenchOptions} BenchOptions
 * @typedef {import('../lib/report.js').Target} Target
 * @typedef {{method?: string, path: string}} Call
 * @typedef {{name: string, calls: Array<Call | Call[]>, token?: 'admin', target?: false}} Case
 * @typedef {{engine: string, name: string, requests: number, p50Ms: number, p95Ms: number, maxMs: number, kb: number, total: string}} CaseResult
 */

/** Which engines to measure, e.g. `sqlite` alone. */
const ENGINES = (process.env.CAIRN_BENCH_INBOX_ENGINES ?? 'sqlite,postgres').split(',');
const REQUESTS_PER_CASE = Number(process.env.CAIRN_BENCH_INBOX_ROUNDS ?? 200);
const WARMUP_REQUESTS = 20;
const P95_MAX_MS = 20;
const CURATOR = 'curator@inbox.bench.example';
const ADMIN = 'admin@inbox.bench.example';
const PASSWORD = 'cairn-bench-inbox-password';
/** What the inbox page asks for (web: inboxApiParams), and the request page's timeline page. */
const INBOX_PAGE = 'expand=1&sort=newest&page=1&size=20';
const TIMELINE_PAGE_SIZE = 25;
const PK = 'GET /api/requests/{id} (baseline)';

/**
 * The curators' requests inbox over 100,000 requests to 10,000 communities from 50,000 people, on
 * SQLite and PostgreSQL: p50/p95 of a curator's inbox (first page, each filter, the search, the
 * sorts), a community's requests, the header's count, the pages' HTML and a request page with 200
 * comments, one request at a time as one person clicking, beside a primary-key read of a request.
 * Target: p95 ≤ 20 ms on both engines.
 * @param {BenchOptions} [options]
 * @returns {Promise<BenchResult>}
 */
export async function run(options = {}) {
  const startedAt = new Date().toISOString();
  /** @type {CaseResult[]} */
  const phases = [];
  /** @type {Record<string, number | string>} */
  const notes = {};
  /** @type {string[]} */
  const failures = [];
  /** @type {Target[]} */
  const targets = [];

  for (const engine of ENGINES) {
    const database = engine === 'postgres' ? await scratchPostgres('inbox') : undefined;
    if (engine === 'postgres' && !database) {
      notes['postgres'] = 'skipped: no PostgreSQL at CAIRN_BENCH_POSTGRES_URL';
      continue;
    }
    const server = await startServer({ ...options, databaseUrl: database?.url });
    try {
      await server.cli(['users', 'create', CURATOR, '--password', PASSWORD, '--name', 'Curator']);
      await server.cli(['users', 'create', ADMIN, '--password', PASSWORD, '--admin']);
      const tokens = {
        curator: (await server.cli(['tokens', 'create', CURATOR, '--name', 'bench'])).trim(),
        admin: (await server.cli(['tokens', 'create', ADMIN, '--name', 'bench'])).trim(),
      };
      process.stdout.write(
        `${engine}: seeding ${REQUESTS.toLocaleString('en')} requests to ${COMMUNITIES.toLocaleString('en')} communities from ${USERS.toLocaleString('en')} people\n`,
      );
      const seeded = await seedInbox({
        dataDir: server.dataDir,
        databaseUrl: database?.url,
        curatorEmail: CURATOR,
      });
      notes[`${engine}: seed (s)`] = round(seeded.seconds);
      notes[`${engine}: timeline events`] = seeded.events;
      notes[`${engine}: requests the curator sees`] = seeded.visibleToCurator;
      process.stdout.write(
        `${engine}: seeded in ${seeded.seconds.toFixed(1)} s (${seeded.events.toLocaleString('en')} timeline events; the curator sees ${seeded.visibleToCurator.toLocaleString('en')} requests)\n`,
      );

      const list = cases(seeded);
      const [loadBefore = NaN] = os.loadavg();
      const results = await measure(server.baseUrl, list, tokens);
      notes[`${engine}: load average (1 min) before / after`] =
        `${loadBefore.toFixed(1)} / ${(os.loadavg()[0] ?? NaN).toFixed(1)}`;
      for (const [i, c] of list.entries()) {
        const result = /** @type {Awaited<ReturnType<typeof measure>>[number]} */ (results[i]);
        phases.push({ engine, name: c.name, ...result });
        if (result.errors > 0) failures.push(`${engine} ${c.name}: ${result.firstError}`);
        process.stdout.write(
          `${engine} ${c.name}: p50 ${result.p50Ms.toFixed(1)} ms, p95 ${result.p95Ms.toFixed(1)} ms\n`,
        );
      }
      const measured = phases.filter(
        (p) =>
          p.engine === engine &&
          p.name !== PK &&
          list.find((c) => c.name === p.name)?.target !== false,
      );
      const worst = measured.reduce(
        (/** @type {CaseResult | undefined} */ a, b) => (!a || b.p95Ms > a.p95Ms ? b : a),
        undefined,
      );
      targets.push(
        target({
          label: `${engine}: inbox p95, worst case (${worst?.name ?? '-'})`,
          value: worst?.p95Ms ?? NaN,
          unit: 'ms',
          comparison: '≤',
          bound: P95_MAX_MS,
        }),
      );
      const peak = await server.peakRssBytes();
      if (peak !== undefined) notes[`${engine}: server peak RSS (MB)`] = Math.round(peak / 2 ** 20);
    } finally {
      await server.stop();
      await database?.drop();
    }
  }

  process.stdout.write(
    `\n${textTable([
      ['engine', 'case', 'requests', 'p50 ms', 'p95 ms', 'max ms', 'KB', 'total'],
      ...phases.map((p) => [
        p.engine,
        p.name,
        String(p.requests),
        p.p50Ms.toFixed(2),
        p.p95Ms.toFixed(2),
        p.maxMs.toFixed(1),
        p.kb.toFixed(1),
        p.total,
      ]),
    ])}\n\n`,
  );
  for (const t of targets) process.stdout.write(`${targetLine(t)}\n`);
  for (const [label, value] of Object.entries(notes)) process.stdout.write(`${label}: ${value}\n`);
  return { name: 'inbox', startedAt, machine: machineInfo(), phases, targets, notes, failures };
}

/**
 * What a curator's clicks ask for: the API calls of the inbox and request pages as the web app
 * makes them, and the pages' HTML, which carries the header's count.
 * @param {import('./seed.js').Seeded} seeded
 * @returns {Case[]}
 */
function cases(seeded) {
  const [busiest, middling] = [seeded.curated[0], seeded.curated[4]];
  const long = `/api/requests/${seeded.longRequestId}`;
  const lastPage = Math.ceil(LONG_CONVERSATION / TIMELINE_PAGE_SIZE);
  const timeline = (/** @type {number} */ page) =>
    `${long}/timeline?expand=1&page=${page}&size=${TIMELINE_PAGE_SIZE}`;
  const inbox = (/** @type {string} */ more) => [
    { path: `/api/user/requests?${INBOX_PAGE}${more}` },
  ];
  return [
    { name: PK, calls: seeded.smallRequestIds.map((id) => ({ path: `/api/requests/${id}` })) },
    { name: 'inbox, open (the first page)', calls: inbox('&is_open=true') },
    { name: 'GET /api/requests, open, size 10', calls: [{ path: '/api/requests?is_open=true' }] },
    { name: 'inbox, closed', calls: inbox('&is_open=false') },
    { name: 'inbox, every state', calls: inbox('') },
    {
      name: 'inbox, open, page 5',
      calls: [
        { path: `/api/user/requests?${INBOX_PAGE.replace('page=1', 'page=5')}&is_open=true` },
      ],
    },
    { name: 'inbox, open, by latest activity', calls: inbox('&is_open=true&sort=updated') },
    {
      name: 'inbox, every state, oldest first',
      calls: inbox('').map((c) => ({ path: c.path.replace('newest', 'oldest') })),
    },
    { name: 'inbox, open, type inclusion', calls: inbox('&is_open=true&type=community-inclusion') },
    {
      name: 'inbox, open, busiest community',
      calls: inbox(`&is_open=true&community=${busiest?.id}`),
    },
    {
      name: 'inbox, open, a middling community',
      calls: inbox(`&is_open=true&community=${middling?.id}`),
    },
    { name: 'inbox, created by me', calls: inbox('&created_by=me') },
    { name: 'inbox, q=glacier (title)', calls: inbox('&q=glacier') },
    { name: 'inbox, open, q=glacier', calls: inbox('&is_open=true&q=glacier') },
    { name: 'inbox, q=zzz (no hit)', calls: inbox('&q=zzz') },
    {
      name: 'community requests, busiest, open',
      calls: [{ path: `/api/communities/${busiest?.id}/requests?${INBOX_PAGE}&is_open=true` }],
    },
    {
      name: 'community requests, busiest, every state, by activity',
      calls: [
        {
          path: `/api/communities/${busiest?.id}/requests?${INBOX_PAGE.replace('newest', 'updated')}`,
        },
      ],
    },
    { name: 'header count', calls: [{ path: '/api/user/requests/count' }] },
    { name: '/me/requests (HTML, with the count)', calls: [{ path: '/me/requests' }] },
    {
      name: `/communities/{slug}/requests (HTML)`,
      calls: [{ path: `/communities/${busiest?.slug}/requests` }],
    },
    {
      name: `request, ${LONG_CONVERSATION} comments, expand`,
      calls: [{ path: `${long}?expand=1` }],
    },
    { name: 'its timeline, page 1 of 25, expand', calls: [{ path: timeline(1) }] },
    { name: 'its timeline, last page', calls: [{ path: timeline(lastPage) }] },
    {
      name: 'request page: request, timeline, seen (parallel)',
      calls: [
        [
          { path: `${long}?expand=1` },
          { path: timeline(1) },
          { method: 'PUT', path: `${long}/seen` },
        ],
      ],
    },
    { name: '/me/requests/{id} (HTML)', calls: [{ path: `/me/requests/${seeded.longRequestId}` }] },
    // Not the inbox's business (an administrator's every request), measured for the record.
    {
      name: 'admin: every request, open',
      calls: [{ path: `/api/requests?${INBOX_PAGE}&is_open=true` }],
      token: 'admin',
      target: false,
    },
    {
      name: 'admin: every request, q=glacier',
      calls: [{ path: `/api/requests?${INBOX_PAGE}&q=glacier` }],
      token: 'admin',
      target: false,
    },
  ];
}

/**
 * One request (or one page's requests, in parallel) at a time, as one person clicking: every case
 * in turn, WARMUP_REQUESTS unmeasured rounds, then REQUESTS_PER_CASE measured ones, each case's
 * calls taken in turn. Taking turns spreads the machine's other work over every case and the
 * baseline alike, where case after case would hand one case a busy minute.
 * @param {string} baseUrl
 * @param {Case[]} list
 * @param {{curator: string, admin: string}} tokens
 */
async function measure(baseUrl, list, tokens) {
  const results = list.map(() => ({
    /** @type {number[]} */
    times: [],
    errors: 0,
    bytes: 0,
    total: '',
    /** @type {string | undefined} */
    firstError: undefined,
  }));
  for (let round = 0; round < WARMUP_REQUESTS + REQUESTS_PER_CASE; round++) {
    for (const [i, c] of list.entries()) {
      const result = /** @type {(typeof results)[number]} */ (results[i]);
      const token = c.token === 'admin' ? tokens.admin : tokens.curator;
      /** @param {Call} call */
      const send = async (call) => {
        const response = await fetch(`${baseUrl}${call.path}`, {
          method: call.method ?? 'GET',
          headers: call.path.startsWith('/api/')
            ? { authorization: `Bearer ${token}`, accept: 'application/json' }
            : { authorization: `Bearer ${token}` },
        });
        const text = await response.text();
        if (!response.ok) {
          result.errors++;
          result.firstError ??= `${response.status} ${call.method ?? 'GET'} ${call.path}: ${text.slice(0, 200)}`;
        }
        return text;
      };
      const call = c.calls[round % c.calls.length] ?? [];
      const start = performance.now();
      const texts = await Promise.all((Array.isArray(call) ? call : [call]).map(send));
      const ms = performance.now() - start;
      if (round < WARMUP_REQUESTS) continue;
      result.times.push(ms);
      result.bytes = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
      result.total = totalOf(texts[0] ?? '');
    }
  }
  return results.map((r) => {
    const times = r.times.sort((a, b) => a - b);
    return {
      requests: times.length,
      p50Ms: percentile(times, 50),
      p95Ms: percentile(times, 95),
      maxMs: times[times.length - 1] ?? NaN,
      kb: r.bytes / 1024,
      total: r.total,
      errors: r.errors,
      firstError: r.firstError,
    };
  });
}

/**
 * The total of a list answer, or the count, so that the table shows how much each case found.
 * @param {string} text
 */
function totalOf(text) {
  if (!text.startsWith('{')) return '';
  const body = /** @type {any} */ (JSON.parse(text));
  const n = body?.hits?.total ?? body?.awaiting;
  return n === undefined ? '' : String(n);
}

/** @param {number} n */
function round(n) {
  return Math.round(n * 10) / 10;
}
