import os from 'node:os';
import { percentile } from '../lib/load.js';
import { scratchPostgres } from '../lib/postgres.js';
import { machineInfo, target, targetLine, textTable } from '../lib/report.js';
import { startServer } from '../lib/server.js';
import { realisticDraft } from '../api/drafts.js';
import { MANY, measureBrowser } from './browser.js';

/**
 * @typedef {import('../lib/report.js').BenchResult} BenchResult
 * @typedef {import('../lib/report.js').BenchOptions} BenchOptions
 */

const EMAIL = 'bench@cairn.example';
const PASSWORD = 'cairn-bench-password';
// The draft's sizes at which one more file is measured: the two.
const SIZES = (process.env.CAIRN_BENCH_FILES_SIZES ?? '1000,10000').split(',').map(Number);
const BATCH = 500;
const ROUNDS = Number(process.env.CAIRN_BENCH_FILES_ROUNDS ?? 20);
const CONTENT = Buffer.alloc(1024, 'x');
// One more file in a draft of 10,000 may cost at most this many times what it costs in one of
// 1,000: per-file work independent of the draft's file count.
const GROWTH_MAX = 1.5;

/**
 * Issue 20, the server's part of "folders and many files": what one more file costs in a draft
 * that already holds 1,000 and then 10,000, over the API, on SQLite and PostgreSQL.
 * @param {BenchOptions} [options]
 * @returns {Promise<BenchResult>}
 */
export async function run(options = {}) {
  const startedAt = new Date().toISOString();
  /** @type {object[]} */
  const phases = [];
  /** @type {string[]} */
  const failures = [];
  /** @type {ReturnType<typeof target>[]} */
  const targets = [];
  /** @type {Record<string, string>} */
  const notes = {
    loadAverageBefore: os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' '),
  };
  // `server` (one more file over the API, both engines) and `browser` (Chromium: uploads, pages).
  const parts = (process.env.CAIRN_BENCH_FILES_PARTS ?? 'server,browser').split(',');
  const engines = parts.includes('server')
    ? (process.env.CAIRN_BENCH_FILES_ENGINES ?? 'sqlite,postgres').split(',')
    : [];
  for (const engine of engines) {
    const pg = engine === 'postgres' ? await scratchPostgres('files') : undefined;
    if (engine === 'postgres' && !pg) {
      process.stdout.write('PostgreSQL not reachable: skipped\n');
      continue;
    }
    const server = await startServer({
      ...options,
      databaseUrl: pg?.url,
      env: { CAIRN_FILES_MAX_PER_RECORD: String(Math.max(...SIZES) + 2 * ROUNDS + 10) },
    });
    try {
      const rows = await measure(server, engine);
      phases.push(...rows);
      const bySize = (/** @type {number} */ n) => rows.find((r) => r.files === n);
      const small = bySize(Math.min(...SIZES));
      const large = bySize(Math.max(...SIZES));
      if (small && large && small !== large) {
        targets.push(
          target({
            label: `${engine}: one file (init + content + commit) p50 at ${large.files} / at ${small.files}`,
            value: large.fileP50 / small.fileP50,
            unit: '×',
            comparison: '≤',
            bound: GROWTH_MAX,
          }),
        );
      }
    } catch (error) {
      failures.push(`${engine}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await server.stop();
      await pg?.drop();
    }
  }
  if (phases.length > 0) process.stdout.write(`${table(phases)}\n\n`);
  if (parts.includes('browser')) {
    const server = await startServer({
      ...options,
      env: { CAIRN_FILES_MAX_PER_RECORD: String(MANY + 10) },
      // The server's CPU profile (DevTools opens it), beside the page's (PROFILE_DIR).
      ...(process.env.CAIRN_BENCH_FILES_SERVER_PROFILE_DIR
        ? { cpuProfDir: process.env.CAIRN_BENCH_FILES_SERVER_PROFILE_DIR }
        : {}),
    });
    try {
      const browser = await measureBrowser(server);
      phases.push(...browser.phases);
      targets.push(...browser.targets);
      Object.assign(notes, browser.notes);
      process.stdout.write(`${browserTables(browser.phases)}\n\n`);
    } catch (error) {
      failures.push(
        `browser: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    } finally {
      await server.stop();
    }
  }
  notes.loadAverage = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  for (const t of targets) process.stdout.write(`${targetLine(t)}\n`);
  process.stdout.write(
    `load average before ${notes.loadAverageBefore}, after ${notes.loadAverage}\n`,
  );
  return { name: 'files', startedAt, machine: machineInfo(), phases, targets, notes, failures };
}

/**
 * @param {import('../lib/server.js').BenchServer} server
 * @param {string} engine
 */
async function measure(server, engine) {
  await server.cli(['users', 'create', EMAIL, '--password', PASSWORD, '--name', 'Bench']);
  const token = (await server.cli(['tokens', 'create', EMAIL, '--name', 'bench'])).trim();
  const api = client(server.baseUrl, token);
  const draft = await api.json('POST', '/api/records', {
    ...realisticDraft(),
    files: { enabled: true },
  });
  const base = `/api/records/${draft.id}/draft`;
  const rows = [];
  let announced = 0;
  for (const size of SIZES) {
    const announceStart = performance.now();
    const from = announced;
    while (announced < size) {
      const n = Math.min(BATCH, size - announced);
      const keys = Array.from({ length: n }, (_, i) => ({
        key: `raw/${String(Math.floor((announced + i) / 100)).padStart(3, '0')}/f${announced + i}.csv`,
        size: CONTENT.length,
      }));
      await api.json('POST', `${base}/files`, keys);
      announced += n;
    }
    const announceMs = performance.now() - announceStart;

    /** @type {number[]} */ const init = [];
    /** @type {number[]} */ const content = [];
    /** @type {number[]} */ const commit = [];
    /** @type {number[]} */ const file = [];
    for (let i = 0; i < ROUNDS; i++) {
      const key = `extra/${size}-${i}.csv`;
      const path = `${base}/files/${encodeURIComponent(key)}`;
      const t0 = performance.now();
      await api.json('POST', `${base}/files`, [{ key, size: CONTENT.length }]);
      const t1 = performance.now();
      await api.raw('PUT', `${path}/content`, CONTENT, 'application/octet-stream');
      const t2 = performance.now();
      const committed = await api.json('POST', `${path}/commit`);
      const t3 = performance.now();
      if (committed.size !== CONTENT.length) throw new Error(`${key} committed ${committed.size}`);
      init.push(t1 - t0);
      content.push(t2 - t1);
      commit.push(t3 - t2);
      file.push(t3 - t0);
    }
    announced += ROUNDS;
    const getDraft = await api.timed('GET', base);
    const getFiles = await api.timed('GET', `${base}/files`);
    // The last page of 100 (Cairn's extension; an older server ignores the parameters).
    const lastPage = Math.ceil(announced / 100);
    const getPage = await api.timed('GET', `${base}/files?size=100&page=${lastPage}`);
    const draftJson = JSON.parse(getDraft.text);
    if (draftJson.files?.count !== announced)
      throw new Error(`the draft counts ${draftJson.files?.count} files, not ${announced}`);
    const p50 = (/** @type {number[]} */ xs) =>
      percentile(
        [...xs].sort((a, b) => a - b),
        50,
      );
    rows.push({
      engine,
      files: size,
      announceFilesPerSecond: ((size - from) / announceMs) * 1000,
      initP50: p50(init),
      contentP50: p50(content),
      commitP50: p50(commit),
      fileP50: p50(file),
      getDraftMs: getDraft.ms,
      getDraftBytes: getDraft.text.length,
      getFilesMs: getFiles.ms,
      getFilesBytes: getFiles.text.length,
      getPageMs: getPage.ms,
      getPageBytes: getPage.text.length,
    });
  }
  return rows;
}

/** @param {any[]} rows */
function table(rows) {
  const ms = (/** @type {number} */ x) => x.toFixed(x >= 100 ? 0 : 1);
  const kb = (/** @type {number} */ x) => `${(x / 1024).toFixed(0)} KiB`;
  return textTable([
    [
      'engine',
      'files',
      'announce /s',
      'init ms',
      'content ms',
      'commit ms',
      'one file ms',
      'GET draft',
      'GET files',
      'GET last page of 100',
    ],
    ...rows.map((r) => [
      r.engine,
      String(r.files),
      r.announceFilesPerSecond.toFixed(0),
      ms(r.initP50),
      ms(r.contentP50),
      ms(r.commitP50),
      ms(r.fileP50),
      `${ms(r.getDraftMs)} ms ${kb(r.getDraftBytes)}`,
      `${ms(r.getFilesMs)} ms ${kb(r.getFilesBytes)}`,
      `${ms(r.getPageMs)} ms ${kb(r.getPageBytes)}`,
    ]),
  ]);
}

/**
 * The browser part's uploads and pages as two tables.
 * @param {any[]} rows
 */
function browserTables(rows) {
  const uploads = rows.filter((r) => r.part === 'upload');
  const pages = rows.filter((r) => r.part !== 'upload');
  return [
    "Chromium, the deposit page's uploader, SQLite:",
    textTable([
      [
        'upload',
        'done',
        'seconds',
        'files/s',
        'MiB/s',
        'choose ms',
        'requests',
        'draft reads',
        'heap MiB before / end / kept',
      ],
      ...uploads.map((u) => [
        u.name,
        `${u.completed}/${u.files}`,
        u.seconds.toFixed(1),
        u.filesPerSecond.toFixed(1),
        u.mibPerSecond.toFixed(2),
        String(u.chooseMs),
        String(u.requests),
        String(u.draftReads),
        `${u.heapBeforeMiB} / ${u.heapEndMiB} / ${u.heapKeptMiB}`,
      ]),
    ]),
    '',
    'Pages, cold loads (medians): deposit page interactive; landing page FCP and TTI (as `pages`):',
    textTable([
      [
        'record',
        'deposit ms',
        'landing FCP ms',
        'landing TTI ms',
        'long tasks',
        'all deposit',
        'all TTI',
      ],
      ...pages.map((p) => [
        p.name,
        String(p.depositInteractiveMedianMs),
        String(p.landingFcpMedianMs),
        String(p.landingTtiMedianMs),
        String(p.landingLongTasksMedian),
        p.depositInteractiveMs.join(' '),
        p.landingTtiMs.join(' '),
      ]),
    ]),
  ].join('\n');
}

/**
 * @param {string} baseUrl
 * @param {string} token
 */
function client(baseUrl, token) {
  /**
   * @param {string} method
   * @param {string} path
   * @param {Buffer | string} [body]
   * @param {string} [type]
   */
  async function raw(method, path, body, type = 'application/json') {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': type } : {}),
      },
      body,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return text;
  }
  return {
    raw,
    /**
     * @param {string} method
     * @param {string} path
     * @param {unknown} [body]
     */
    async json(method, path, body) {
      return JSON.parse(
        await raw(method, path, body === undefined ? undefined : JSON.stringify(body)),
      );
    },
    /**
     * @param {string} method
     * @param {string} path
     */
    async timed(method, path) {
      const t0 = performance.now();
      const text = await raw(method, path);
      return { text, ms: performance.now() - t0 };
    },
  };
}
