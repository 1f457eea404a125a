import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { percentile } from '../lib/load.js';
import { machineInfo, target, targetLine, textTable } from '../lib/report.js';
import { scratchPostgres } from '../lib/postgres.js';
import { startServer } from '../lib/server.js';
import { generate } from './generate.js';

/**
 * @typedef {import('../lib/report.js').BenchResult} BenchResult
 * @typedef {import('../lib/report.js').BenchOptions} BenchOptions
 * @typedef {{engine: string, name: string, requests: number, p50Ms: number, p95Ms: number, maxMs: number, meanHits: number}} QueryResult
 */

const NAMES = Number(process.env.CAIRN_BENCH_NAMES ?? 1_000_000);
const ORGANISATIONS = Number(process.env.CAIRN_BENCH_ORGANISATIONS ?? 120_000);
const REQUESTS_PER_CLASS = 200;
const WARMUP_REQUESTS = 20;
const SUGGEST_P95_MAX_MS = 20;
const IMPORT_MAX_SECONDS = 60;

/**
 * Suggestions over a million names and 120,000 organisations, on SQLite and on PostgreSQL:
 * p50/p95 of the queries a person typing sends (1–4 characters, whole words, two words, an
 * ORCID iD), beside a primary-key read of the same server, and the import time of the names.
 * @param {BenchOptions} [options]
 * @returns {Promise<BenchResult>}
 */
export async function run(options = {}) {
  const startedAt = new Date().toISOString();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cairn-bench-suggest-'));
  try {
    process.stdout.write(
      `suggest: generating ${NAMES.toLocaleString('en')} names and ${ORGANISATIONS.toLocaleString('en')} organisations\n`,
    );
    const data = await generate(dir, { names: NAMES, organisations: ORGANISATIONS });
    /** @type {QueryResult[]} */
    const phases = [];
    /** @type {Record<string, number | string>} */
    const notes = {};
    /** @type {string[]} */
    const failures = [];

    for (const engine of ['sqlite', 'postgres']) {
      const database = engine === 'postgres' ? await scratchPostgres('suggest') : undefined;
      if (engine === 'postgres' && !database) {
        notes['postgres'] = 'skipped: no PostgreSQL at CAIRN_BENCH_POSTGRES_URL';
        continue;
      }
      const server = await startServer({ ...options, databaseUrl: database?.url });
      try {
        await server.cli(['vocabularies', 'import', 'affiliations', data.organisations]);
        const started = process.hrtime.bigint();
        await server.cli(['vocabularies', 'import', 'names', data.names]);
        const importSeconds = Number(process.hrtime.bigint() - started) / 1e9;
        notes[`${engine}: import ${NAMES.toLocaleString('en')} names (s)`] = round(importSeconds);
        process.stdout.write(`${engine}: names imported in ${importSeconds.toFixed(1)} s\n`);
        for (const query of queryClasses(data)) {
          const result = await measure(server.baseUrl, query.urls);
          phases.push({ engine, name: query.name, ...result });
          if (result.errors > 0) failures.push(`${engine} ${query.name}: ${result.firstError}`);
        }
        const peak = await server.peakRssBytes();
        if (peak !== undefined)
          notes[`${engine}: server peak RSS (MB)`] = Math.round(peak / 2 ** 20);
      } finally {
        await server.stop();
        await database?.drop();
      }
    }

    process.stdout.write(
      `\n${textTable([
        ['engine', 'query', 'requests', 'p50 ms', 'p95 ms', 'max ms', 'hits'],
        ...phases.map((p) => [
          p.engine,
          p.name,
          String(p.requests),
          p.p50Ms.toFixed(2),
          p.p95Ms.toFixed(2),
          p.maxMs.toFixed(1),
          p.meanHits.toFixed(0),
        ]),
      ])}\n\n`,
    );
    const sqliteSuggest = phases.filter((p) => p.engine === 'sqlite' && p.name !== PK_LOOKUP);
    const worst = sqliteSuggest.reduce(
      (/** @type {QueryResult | undefined} */ a, b) => (!a || b.p95Ms > a.p95Ms ? b : a),
      undefined,
    );
    const targets = [
      target({
        label: `SQLite suggest p95, worst class (${worst?.name ?? '-'})`,
        value: worst?.p95Ms ?? NaN,
        unit: 'ms',
        comparison: '≤',
        bound: SUGGEST_P95_MAX_MS,
      }),
      target({
        label: `SQLite import of ${NAMES.toLocaleString('en')} names`,
        value: Number(notes[`sqlite: import ${NAMES.toLocaleString('en')} names (s)`] ?? NaN),
        unit: 's',
        comparison: '≤',
        bound: IMPORT_MAX_SECONDS,
      }),
    ];
    for (const t of targets) process.stdout.write(`${targetLine(t)}\n`);
    for (const [label, value] of Object.entries(notes))
      process.stdout.write(`${label}: ${value}\n`);
    return { name: 'suggest', startedAt, machine: machineInfo(), phases, targets, notes, failures };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const PK_LOOKUP = 'GET /api/names/{id} (baseline)';

/**
 * What people type, drawn from the generated people: prefixes of family names of 1 to 4
 * characters, whole family names, "given family-prefix" (1 to 4 characters of the family name),
 * an ORCID iD pasted whole, and
 * organisation prefixes and words.
 * @param {{sampleNames: string[], sampleOrcids: string[]}} data
 */
function queryClasses(data) {
  const people = data.sampleNames.map((n) => n.split(' '));
  const family = people.map((p) => p[p.length - 1] ?? '');
  const suggest = (/** @type {string} */ root, /** @type {string[]} */ texts) =>
    texts.map((t) => `/api/${root}?suggest=${encodeURIComponent(t)}&size=10`);
  const prefixes = (/** @type {number} */ n) =>
    suggest(
      'names',
      family.map((f) => f.slice(0, n)),
    );
  const orgWords = ['univ', 'institute', 'lab', 'berlin', 'med', 'science', 'tokyo', 'c', 'soc'];
  return [
    { name: PK_LOOKUP, urls: data.sampleOrcids.map((id) => `/api/names/${id}`) },
    { name: 'names, 1 character', urls: prefixes(1) },
    { name: 'names, 2 characters', urls: prefixes(2) },
    { name: 'names, 3 characters', urls: prefixes(3) },
    { name: 'names, 4 characters', urls: prefixes(4) },
    { name: 'names, whole family name', urls: suggest('names', family) },
    {
      name: 'names, given + family prefix',
      urls: suggest(
        'names',
        // A given name, then the family name as it is typed: 1 to 4 characters of it.
        people.map((p, i) => `${p[0]} ${(p[p.length - 1] ?? '').slice(0, 1 + (i % 4))}`),
      ),
    },
    { name: 'names, ORCID iD', urls: suggest('names', data.sampleOrcids) },
    {
      name: 'affiliations, 1–4 characters',
      urls: suggest(
        'affiliations',
        family.map((f, i) => f.slice(0, 1 + (i % 4))),
      ),
    },
    { name: 'affiliations, words', urls: suggest('affiliations', orgWords) },
  ];
}

/**
 * One request at a time, as one person typing: the latency of each.
 * @param {string} baseUrl
 * @param {string[]} urls cycled through
 */
async function measure(baseUrl, urls) {
  /** @type {number[]} */
  const times = [];
  let hits = 0;
  let errors = 0;
  /** @type {string | undefined} */
  let firstError;
  for (let i = 0; i < WARMUP_REQUESTS + REQUESTS_PER_CLASS; i++) {
    const url = `${baseUrl}${urls[i % urls.length]}`;
    const start = process.hrtime.bigint();
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    const body = /** @type {any} */ (await response.json());
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (response.status !== 200) {
      errors++;
      firstError ??= `${response.status} ${url}: ${JSON.stringify(body).slice(0, 200)}`;
    }
    if (i < WARMUP_REQUESTS) continue;
    times.push(ms);
    hits += body?.hits?.hits?.length ?? 1;
  }
  times.sort((a, b) => a - b);
  return {
    requests: times.length,
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    maxMs: times[times.length - 1] ?? NaN,
    meanHits: hits / times.length,
    errors,
    firstError,
  };
}

/** @param {number} n */
function round(n) {
  return Math.round(n * 10) / 10;
}
