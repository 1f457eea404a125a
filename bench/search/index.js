import http from 'node:http';
import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile } from '../lib/load.js';
import { machineInfo, target, targetLine, textTable } from '../lib/report.js';
import { QUERY_WORDS } from './generate.js';
import { startLoadedServer } from './load-records.js';
import { openSqlProbe } from './sql.js';

/**
 * @typedef {import('../lib/report.js').BenchResult} BenchResult
 * @typedef {import('../lib/report.js').BenchOptions} BenchOptions
 * @typedef {import('../lib/report.js').Target} Target
 * @typedef {{name: string, urls: string[], query?: Array<Record<string, string>>}} Case
 * @typedef {{engine: string, name: string, concurrency: number, requests: number, perSecond: number, p50Ms: number, p95Ms: number, maxMs: number, meanTotal: number, timedOut: number, sqlHitsP50Ms?: number, sqlHitsP95Ms?: number, sqlFacetsMs?: string}} CaseResult
 */

const RECORDS = Number(process.env.CAIRN_BENCH_SEARCH_RECORDS ?? 1_000_000);
/** Which engines to measure, e.g. `postgres` alone for a run at a size SQLite cannot answer. */
const ENGINES = (process.env.CAIRN_BENCH_SEARCH_ENGINES ?? 'sqlite,postgres').split(',');
const COMMUNITIES = 500;
const OWNER = 'bench-search@example.org';
const CONCURRENCIES = [1, 16];
/** Each case runs until it has this many measured requests or this long, whichever is first. */
const MAX_REQUESTS = 100;
const MAX_SECONDS = 20;
const SQL_RUNS = 20;
const SQL_FACET_RUNS = 5;
const SQL_MAX_SECONDS = 20;
/** Past this median alone, a case is not run again at concurrency 16. */
const SLOW_ALONE_MS = 1_000;
/**
 * A request still unanswered after this is given up, and its time-out counts as its latency, a
 * lower bound. The server goes on with it: the benchmark waits until the server answers again
 * before the next request, since SQLite's statements hold the server's event loop, and Node's
 * HTTP server drops a connection that waited that long for its headers to be read.
 */
const REQUEST_TIMEOUT_MS = 300_000;
const HITS_P95_MAX_MS = 50;
const FACETS_P95_MAX_MS = 150;
const LOAD_MAX_SECONDS = 15 * 60;
const PK = 'GET /api/records/{id} (baseline)';
const benchDir = path.dirname(fileURLToPath(import.meta.url));
const resultsDir = path.join(benchDir, '..', 'results');

/**
 * The records search over RECORDS published records, on SQLite and on PostgreSQL: load time
 * through the server's bulk path, then p50/p95 over the API of the query classes (first page and
 * page 50, every facet counted, as the API does) at concurrency 1 and 16, beside a primary-key
 * read; and the SQL of the hits alone, replayed directly against the database.
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
  /** @type {string[]} */
  const plans = [];

  for (const engine of ENGINES) {
    const started = await startLoadedServer({
      name: 'search',
      engine,
      options,
      records: RECORDS,
      owner: OWNER,
      communities: COMMUNITIES,
    });
    if (!started) {
      notes['postgres'] = 'skipped: no PostgreSQL at CAIRN_BENCH_POSTGRES_URL';
      continue;
    }
    const { server, database, load } = started;
    try {
      notes[`${engine}: load ${RECORDS.toLocaleString('en')} records (s)`] = round(load.seconds);
      notes[`${engine}: of which generating them (s)`] = round(load.generateSeconds);
      notes[`${engine}: of which the database (s)`] = round(
        load.insertSeconds + load.analyzeSeconds,
      );
      process.stdout.write(
        `${engine}: loaded in ${load.seconds.toFixed(0)} s (generating ${load.generateSeconds.toFixed(0)} s, database ${(load.insertSeconds + load.analyzeSeconds).toFixed(0)} s)\n`,
      );
      targets.push(
        target({
          label: `${engine}: load of ${RECORDS.toLocaleString('en')} records`,
          value: load.seconds,
          unit: 's',
          comparison: '≤',
          bound: LOAD_MAX_SECONDS,
        }),
      );

      const cases = await queryCases(server.baseUrl);
      const probe = await openSqlProbe({ dataDir: server.dataDir, databaseUrl: database?.url });
      try {
        for (const c of cases) {
          /** @type {Partial<CaseResult>} */
          let sql = {};
          if (c.query) {
            const statements = await probe.capture(
              /** @type {Record<string, string>} */ (c.query[0]),
            );
            const timed = await probe.time(statements, {
              runs: SQL_RUNS,
              facetRuns: SQL_FACET_RUNS,
              maxSeconds: SQL_MAX_SECONDS,
            });
            sql = {
              sqlHitsP50Ms: timed.p50Ms,
              sqlHitsP95Ms: timed.p95Ms,
              sqlFacetsMs: timed.facets
                .map((f) => `${f.kind.slice(7)} ${f.p50Ms.toFixed(0)}`)
                .join(', '),
            };
            for (const s of statements)
              plans.push(
                `-- ${engine} · ${c.name} · ${s.kind}\n${s.sql}\n${JSON.stringify(s.parameters)}\n${await probe.explain(s)}\n`,
              );
          }
          for (const concurrency of CONCURRENCIES) {
            const alone = phases.find(
              (p) => p.engine === engine && p.name === c.name && p.concurrency === 1,
            );
            if (concurrency > 1 && alone && alone.p50Ms > SLOW_ALONE_MS) {
              // 16 clients would wait about 16 times as long, for minutes: no new finding.
              notes[`${engine}: ${c.name} ×${concurrency}`] =
                `skipped: ${alone.p50Ms.toFixed(0)} ms a request alone`;
              continue;
            }
            const result = await measure(server.baseUrl, c.urls, concurrency);
            phases.push({ engine, name: c.name, concurrency, ...result, ...sql });
            if (result.errors > 0) failures.push(`${engine} ${c.name}: ${result.firstError}`);
            process.stdout.write(
              `${engine} ${c.name} ×${concurrency}: p50 ${result.p50Ms.toFixed(1)} ms, p95 ${result.p95Ms.toFixed(1)} ms${result.timedOut > 0 ? ` (${result.timedOut} timed out at ${REQUEST_TIMEOUT_MS / 1000} s)` : ''}${sql.sqlHitsP95Ms === undefined || concurrency > 1 ? '' : `; hits SQL p95 ${sql.sqlHitsP95Ms.toFixed(1)} ms`}\n`,
            );
          }
        }
      } finally {
        await probe.close();
      }
      for (const p of phases.filter(
        (x) => x.engine === engine && x.concurrency === 1 && x.name !== PK,
      )) {
        if (p.sqlHitsP95Ms !== undefined)
          targets.push(
            target({
              label: `${engine}: ${p.name}, without facets (hits SQL) p95`,
              value: p.sqlHitsP95Ms,
              unit: 'ms',
              comparison: '≤',
              bound: HITS_P95_MAX_MS,
            }),
          );
        targets.push(
          target({
            label: `${engine}: ${p.name}, with every facet (API) p95`,
            value: p.p95Ms,
            unit: 'ms',
            comparison: '≤',
            bound: FACETS_P95_MAX_MS,
          }),
        );
      }
      const peak = await server.peakRssBytes();
      if (peak !== undefined) notes[`${engine}: server peak RSS (MB)`] = Math.round(peak / 2 ** 20);
    } finally {
      await server.stop();
      await database?.drop();
    }
  }

  process.stdout.write(
    `\n${textTable([
      [
        'engine',
        'query',
        'conc',
        'requests',
        'timed out',
        'req/s',
        'p50 ms',
        'p95 ms',
        'max ms',
        'total',
        'hits SQL p50/p95',
        'facet SQL p50 ms',
      ],
      ...phases.map((p) => [
        p.engine,
        p.name,
        String(p.concurrency),
        String(p.requests),
        String(p.timedOut),
        p.perSecond.toFixed(1),
        p.p50Ms.toFixed(1),
        p.p95Ms.toFixed(1),
        p.maxMs.toFixed(0),
        p.meanTotal.toFixed(0),
        p.sqlHitsP95Ms === undefined || p.concurrency > 1
          ? '-'
          : `${(p.sqlHitsP50Ms ?? NaN).toFixed(1)} / ${p.sqlHitsP95Ms.toFixed(1)}`,
        p.concurrency > 1 ? '' : (p.sqlFacetsMs ?? ''),
      ]),
    ])}\n\n`,
  );
  for (const t of targets) process.stdout.write(`${targetLine(t)}\n`);
  for (const [label, value] of Object.entries(notes)) process.stdout.write(`${label}: ${value}\n`);
  await mkdir(resultsDir, { recursive: true });
  const plansFile = path.join(resultsDir, `search-plans-${RECORDS}.txt`);
  await writeFile(plansFile, plans.join('\n'));
  process.stdout.write(`plans of every statement: ${path.relative(process.cwd(), plansFile)}\n`);
  notes['records'] = RECORDS;
  return { name: 'search', startedAt, machine: machineInfo(), phases, targets, notes, failures };
}

/**
 * The query classes, each on its first page and on page 50, anonymous (public records only), with
 * several values of the same kind taken in turn; and the primary-key read of records they find.
 * @param {string} baseUrl
 * @returns {Promise<Case[]>}
 */
async function queryCases(baseUrl) {
  const newest = /** @type {any} */ (await (await fetch(`${baseUrl}/api/records?size=50`)).json());
  const ids = /** @type {string[]} */ (newest.hits.hits.map((/** @type {any} */ h) => h.id));
  const classes = [
    { name: 'one word', qs: QUERY_WORDS.common },
    { name: 'two words', qs: QUERY_WORDS.pairs.map((p) => p.join(' ')) },
    { name: 'phrase', qs: QUERY_WORDS.phrases.map((p) => `"${p}"`) },
    { name: 'title field', qs: QUERY_WORDS.titleWords.map((w) => `metadata.title:${w}`) },
    { name: 'date range', qs: QUERY_WORDS.ranges.map((r) => `metadata.publication_date:${r}`) },
  ];
  /** @type {Case[]} */
  const cases = [{ name: PK, urls: ids.map((id) => `/api/records/${id}`) }];
  for (const c of classes) {
    for (const page of ['1', '50']) {
      const query = c.qs.map((q) => ({ q, page }));
      cases.push({
        name: `${c.name}, page ${page}`,
        query,
        urls: query.map((q) => `/api/records?${new URLSearchParams(q)}`),
      });
    }
  }
  return cases;
}

/**
 * `concurrency` clients, each sending the next URL once its last answer is read, after one
 * unmeasured request; until MAX_REQUESTS are measured or MAX_SECONDS have passed (but at least
 * one: a query that takes a minute still ends).
 * @param {string} baseUrl
 * @param {string[]} urls taken in turn
 * @param {number} concurrency
 */
async function measure(baseUrl, urls, concurrency) {
  /** @type {number[]} */
  const times = [];
  let totals = 0;
  let errors = 0;
  /** @type {string | undefined} */
  let firstError;
  let issued = 0;
  const maxRequests = Math.max(MAX_REQUESTS, concurrency * 8);
  let timedOut = 0;
  /** @param {boolean} measured */
  const once = async (measured) => {
    const url = `${baseUrl}${urls[issued++ % urls.length]}`;
    const start = performance.now();
    const response = await get(url);
    if (response === undefined) {
      // Slower than the time-out, warm or not: counted at the time-out, a lower bound.
      timedOut++;
      times.push(performance.now() - start);
      await untilAnswering(baseUrl);
      return;
    }
    const ms = performance.now() - start;
    const body = /** @type {any} */ (JSON.parse(response.body));
    if (response.status !== 200) {
      errors++;
      firstError ??= `${response.status} ${url}: ${response.body.slice(0, 200)}`;
      return;
    }
    if (!measured) return;
    times.push(ms);
    totals += body?.hits?.total ?? 1;
  };
  await once(false);
  const begin = performance.now();
  const deadline = begin + MAX_SECONDS * 1000;
  const worker = async () => {
    while (
      errors === 0 &&
      timedOut === 0 &&
      times.length + concurrency <= maxRequests &&
      (performance.now() < deadline || times.length === 0)
    )
      await once(true);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - begin) / 1000;
  const meanTotal = times.length > 0 ? totals / times.length : NaN;
  times.sort((a, b) => a - b);
  return {
    requests: times.length,
    perSecond: times.length / seconds,
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    maxMs: times[times.length - 1] ?? NaN,
    meanTotal,
    errors,
    timedOut,
    firstError,
  };
}

/**
 * GET on a connection of its own; undefined after REQUEST_TIMEOUT_MS without an answer. Not
 * fetch: its kept-alive connections go stale while the benchmark's own SQLite statements (the
 * replays) hold this process for minutes, and a request sent on one then fails.
 * @param {string} url
 * @returns {Promise<{status: number, body: string} | undefined>}
 */
function get(url) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, headers: { accept: 'application/json' } });
    request.setTimeout(REQUEST_TIMEOUT_MS, () => {
      request.destroy();
      resolve(undefined);
    });
    // After a time-out, the destroyed request's error comes too late to change the answer.
    request.on('error', reject);
    request.once('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (/** @type {string} */ chunk) => (body += chunk));
      response.once('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.once('error', reject);
    });
  });
}

/**
 * Resolves once the server answers `GET /api/hello` again, whatever it was busy with.
 * @param {string} baseUrl
 */
async function untilAnswering(baseUrl) {
  for (;;) {
    try {
      if ((await get(`${baseUrl}/api/hello`))?.status === 200) return;
    } catch {
      // Dropped while the server was busy: ask again.
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** @param {number} n */
function round(n) {
  return Math.round(n * 10) / 10;
}
