import { memoryOf, resetPeakRss } from '../lib/proc.js';
import { machineInfo, target, textTable } from '../lib/report.js';
import { startLoadedServer } from '../search/load-records.js';

/**
 * @typedef {import('../lib/report.js').BenchResult} BenchResult
 * @typedef {import('../lib/report.js').BenchOptions} BenchOptions
 * @typedef {import('../lib/report.js').Target} Target
 * @typedef {{engine: string, name: string, records: number, pages: number, seconds: number, perSecond: number, firstPagesMs: number, lastPagesMs: number, rssGrowthMiB?: number}} HarvestResult
 */

const RECORDS = Number(process.env.CAIRN_BENCH_HARVEST_RECORDS ?? 100_000);
const ENGINES = (process.env.CAIRN_BENCH_HARVEST_ENGINES ?? 'sqlite,postgres').split(',');
const COMMUNITIES = 50;
const OWNER = 'bench-harvest@example.org';
/** Pages averaged at the start and at the end of a harvest, to compare page 1 with page 1,000. */
const EDGE_PAGES = 10;
/** The records API answers pages of at most 100 and no further than record 10,000. */
const API_PAGE_SIZE = 100;
const API_MAX_RECORDS = 10_000;
const OAI_DC_MIN_PER_SECOND = 2_000;
const RSS_GROWTH_MAX_MIB = 64;
/** A late page may take this much longer than an early one and still count as "as long". */
const DEPTH_RATIO_MAX = 1.5;

/**
 * A full OAI-PMH harvest of RECORDS published records, the way an aggregator makes it: ListRecords
 * page after page through resumption tokens until the list ends, in Dublin Core and in every other
 * format the endpoint lists; records per second, the server's peak memory over the harvest, and
 * the time of the first pages beside the last ones (keyset paging keeps them equal). Beside it,
 * in the same run, the same records' JSON read through `/api/records` pages, as far as that API
 * pages.
 * @param {BenchOptions} [options]
 * @returns {Promise<BenchResult>}
 */
export async function run(options = {}) {
  const startedAt = new Date().toISOString();
  /** @type {HarvestResult[]} */
  const phases = [];
  /** @type {Target[]} */
  const targets = [];
  /** @type {Record<string, number | string>} */
  const notes = {};
  /** @type {string[]} */
  const failures = [];

  for (const engine of ENGINES) {
    const started = await startLoadedServer({
      name: 'harvest',
      engine,
      options,
      records: RECORDS,
      owner: OWNER,
      communities: COMMUNITIES,
    });
    if (!started) {
      notes.postgres = 'skipped: no PostgreSQL at CAIRN_BENCH_POSTGRES_URL';
      continue;
    }
    const { server, database, load } = started;
    try {
      notes[`${engine}: load (s)`] = Math.round(load.seconds);

      // The records API first: a warm-up of the server's caches the harvest then also finds.
      phases.push({ engine, ...(await readApiPages(server.baseUrl)) });
      for (const prefix of await metadataPrefixes(server.baseUrl)) {
        const before = memoryOf(server.pid);
        const peakResettable = resetPeakRss(server.pid);
        const result = await harvest(server.baseUrl, prefix);
        const after = memoryOf(server.pid);
        const rssGrowthMiB =
          before && after && peakResettable
            ? (after.peakRssBytes - before.rssBytes) / 2 ** 20
            : undefined;
        phases.push({ engine, ...result, ...(rssGrowthMiB === undefined ? {} : { rssGrowthMiB }) });
        if (result.records < RECORDS)
          failures.push(`${engine} ${prefix}: harvested ${result.records} of ${RECORDS} records`);
        if (prefix === 'oai_dc')
          targets.push(
            target({
              label: `${engine}: oai_dc harvest`,
              value: result.perSecond,
              unit: 'records/s',
              comparison: '≥',
              bound: OAI_DC_MIN_PER_SECOND,
            }),
          );
        if (rssGrowthMiB !== undefined)
          targets.push(
            target({
              label: `${engine}: ${prefix} harvest, server RSS growth`,
              value: rssGrowthMiB,
              unit: 'MiB',
              comparison: '≤',
              bound: RSS_GROWTH_MAX_MIB,
            }),
          );
        targets.push(
          target({
            label: `${engine}: ${prefix}, last ${EDGE_PAGES} pages / first ${EDGE_PAGES}`,
            value: result.lastPagesMs / result.firstPagesMs,
            unit: '×',
            comparison: '≤',
            bound: DEPTH_RATIO_MAX,
          }),
        );
      }
    } finally {
      await server.stop();
      await database?.drop();
    }
  }

  const rows = [
    [
      'engine',
      'read',
      'records',
      'pages',
      's',
      'records/s',
      `first ${EDGE_PAGES} ms`,
      `last ${EDGE_PAGES} ms`,
      'RSS +MiB',
    ],
    ...phases.map((p) => [
      p.engine,
      p.name,
      String(p.records),
      String(p.pages),
      p.seconds.toFixed(1),
      p.perSecond.toFixed(0),
      p.firstPagesMs.toFixed(1),
      p.lastPagesMs.toFixed(1),
      p.rssGrowthMiB === undefined ? '-' : p.rssGrowthMiB.toFixed(1),
    ]),
  ];
  process.stdout.write(`${textTable(rows)}\n`);
  return { name: 'harvest', startedAt, machine: machineInfo(), phases, targets, notes, failures };
}

/** @param {string} baseUrl */
async function metadataPrefixes(baseUrl) {
  const xml = await (await fetch(`${baseUrl}/oai2d?verb=ListMetadataFormats`)).text();
  return [...xml.matchAll(/<metadataPrefix>([^<]+)<\/metadataPrefix>/g)].map((m) => m[1] ?? '');
}

/**
 * @param {number[]} pageMs
 * @param {number} records
 * @param {number} seconds
 */
function summary(pageMs, records, seconds) {
  const mean = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
  return {
    records,
    pages: pageMs.length,
    seconds,
    perSecond: records / seconds,
    firstPagesMs: mean(pageMs.slice(0, EDGE_PAGES)),
    lastPagesMs: mean(pageMs.slice(-EDGE_PAGES)),
  };
}

/**
 * ListRecords in `prefix` from the first page to the empty token, one request at a time.
 * @param {string} baseUrl
 * @param {string} prefix
 */
async function harvest(baseUrl, prefix) {
  /** @type {number[]} */
  const pageMs = [];
  let records = 0;
  let query = `verb=ListRecords&metadataPrefix=${prefix}`;
  const started = performance.now();
  for (;;) {
    const t0 = performance.now();
    const res = await fetch(`${baseUrl}/oai2d?${query}`);
    const xml = await res.text();
    pageMs.push(performance.now() - t0);
    if (res.status !== 200 || xml.includes('<error '))
      throw new Error(`harvest failed: ${xml.slice(0, 500)}`);
    records += xml.split('<record>').length - 1;
    const token = /<resumptionToken[^>]*>([^<]*)<\/resumptionToken>/.exec(xml)?.[1];
    if (!token) break;
    query = `verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
  }
  return {
    name: `OAI-PMH ListRecords ${prefix}`,
    ...summary(pageMs, records, (performance.now() - started) / 1000),
  };
}

/**
 * The baseline: the records API's JSON pages (newest first), as far as it pages.
 * @param {string} baseUrl
 */
async function readApiPages(baseUrl) {
  /** @type {number[]} */
  const pageMs = [];
  let records = 0;
  const started = performance.now();
  for (let page = 1; page * API_PAGE_SIZE <= Math.min(RECORDS, API_MAX_RECORDS); page++) {
    const t0 = performance.now();
    const res = await fetch(
      `${baseUrl}/api/records?sort=newest&size=${API_PAGE_SIZE}&page=${page}`,
    );
    const body = /** @type {{hits: {hits: unknown[]}}} */ (await res.json());
    pageMs.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`records API page ${page}: ${res.status}`);
    records += body.hits.hits.length;
  }
  return {
    name: 'API /api/records JSON pages',
    ...summary(pageMs, records, (performance.now() - started) / 1000),
  };
}
