import { consortiumDraft, realisticDraft } from '../api/drafts.js';
import { apiCaller } from '../lib/api.js';
import { launchChromium } from '../lib/browser.js';
import { machineInfo, target, targetLine, textTable } from '../lib/report.js';
import { startServer } from '../lib/server.js';

/**
 * @typedef {{fcp: number[], tti: number[], longTasks: number[], htmlBytes: number}} Sample
 * @typedef {import('../lib/report.js').BenchResult} BenchResult
 * @typedef {import('../lib/report.js').BenchOptions} BenchOptions
 */

const EMAIL = 'bench-pages@cairn.example';
const PASSWORD = 'cairn-bench-password';
const CREATORS = 2_000;
const FILES = 1_000;
const RUNS = 7;
const RATIO_MAX = 2;
const ABSOLUTE_MAX_MS = 1_500;

/**
 * A quiet window as Lighthouse defines time to interactive: no long task (≥ 50 ms) on the main
 * thread and at most two requests in flight for this long.
 */
const QUIET_MS = 5_000;
const MAX_QUIET_REQUESTS = 2;
/** Long tasks reach the observer after they end; a window is closed only this long after. */
const OBSERVER_LAG_MS = 200;

/**
 * Installed before any page script (as source: it runs in the browser, not in Node): records the
 * main thread's long tasks, which the browser keeps for observers only.
 */
const RECORD_LONG_TASKS = `
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      window.__longTasks.push([entry.startTime, entry.startTime + entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
`;

/**
 * In the page: FCP, and TTI once it is known (Lighthouse's definition): the end of the last long
 * task before the first quiet window after FCP, not before FCP or DOMContentLoaded. Windows start
 * at FCP, where a long task ends or where a request ends: a page whose last long task ends with
 * three requests still in flight is quiet once one of them ends, and interactive since that
 * task. Requests are the page's resource timings, which list a request once it has finished;
 * those still in flight are counted in Node.
 */
const READ_TIMINGS = `((quietMs, maxRequests, lagMs) => {
  const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
  if (fcp === undefined) return undefined;
  const navigation = performance.getEntriesByType('navigation')[0];
  const requests = [
    [0, navigation.responseEnd],
    ...performance.getEntriesByType('resource').map((r) => [r.startTime, r.responseEnd]),
  ];
  const tasks = window.__longTasks;
  const starts = [fcp, ...tasks.map(([, end]) => end), ...requests.map(([, end]) => end)]
    .filter((t) => t >= fcp)
    .sort((a, b) => a - b);
  const now = performance.now();
  for (const start of starts) {
    const end = start + quietMs;
    if (end > now - lagMs) return { fcp };
    if (tasks.some(([s, e]) => s < end && e > start)) continue;
    // The most requests in flight at once within the window: at its start, or as one begins.
    const points = [start, ...requests.map(([s]) => s).filter((s) => s > start && s < end)];
    const busiest = Math.max(
      ...points.map((t) => requests.filter(([s, e]) => s <= t && e > t).length),
    );
    if (busiest > maxRequests) continue;
    const lastTask = Math.max(fcp, ...tasks.map(([, e]) => e).filter((e) => e <= start));
    return {
      fcp,
      tti: Math.max(lastTask, navigation.domContentLoadedEventEnd),
      longTasks: tasks.length,
    };
  }
  return { fcp };
})`;

/**
 * First contentful paint and time to interactive of a landing page with 2,000 creators and
 * 1,000 files against one with 1 creator and 1 file, same server, same browser, alternating.
 * @param {BenchOptions} [options]
 * @returns {Promise<BenchResult>}
 */
export async function run(options = {}) {
  const startedAt = new Date().toISOString();
  const server = await startServer({
    ...options,
    env: { CAIRN_FILES_MAX_PER_RECORD: String(FILES) },
  });
  const browser = await launchChromium();
  try {
    await server.cli(['users', 'create', EMAIL, '--password', PASSWORD, '--name', 'Bench']);
    const token = (await server.cli(['tokens', 'create', EMAIL, '--name', 'bench'])).trim();
    const api = apiClient(server.baseUrl, token);

    const small = realisticDraft();
    small.metadata.creators = small.metadata.creators.slice(0, 1);
    const smallId = await api.publishedWithFiles(small, 1);
    const largeId = await api.publishedWithFiles(consortiumDraft(CREATORS), FILES);

    /** @type {{small: Sample, large: Sample}} */
    const samples = {
      small: { fcp: [], tti: [], longTasks: [], htmlBytes: 0 },
      large: { fcp: [], tti: [], longTasks: [], htmlBytes: 0 },
    };
    for (const [name, id] of /** @type {const} */ ([
      ['small', smallId],
      ['large', largeId],
    ])) {
      samples[name].htmlBytes = (
        await (await fetch(`${server.baseUrl}/records/${id}`)).arrayBuffer()
      ).byteLength;
    }
    // One unmeasured load of each warms the server's caches and the OS's file cache alike.
    for (let i = -1; i < RUNS; i++) {
      for (const [name, id] of /** @type {const} */ ([
        ['small', smallId],
        ['large', largeId],
      ])) {
        const m = await landingPageTimings(browser, `${server.baseUrl}/records/${id}`);
        if (i >= 0) {
          samples[name].fcp.push(m.fcp);
          samples[name].tti.push(m.tti);
          samples[name].longTasks.push(m.longTasks);
        }
      }
    }

    const median = (/** @type {number[]} */ xs) => {
      const s = [...xs].sort((a, b) => a - b);
      return s[Math.floor(s.length / 2)] ?? NaN;
    };
    const phases = Object.entries(samples).map(([name, s]) => ({
      name:
        name === 'small'
          ? '1 creator, 1 file'
          : `${CREATORS.toLocaleString('en')} creators, ${FILES.toLocaleString('en')} files`,
      runs: RUNS,
      fcpMedianMs: Math.round(median(s.fcp)),
      ttiMedianMs: Math.round(median(s.tti)),
      fcpMs: s.fcp.map(Math.round),
      ttiMs: s.tti.map(Math.round),
      longTasksMedian: median(s.longTasks),
      htmlKB: Math.round(s.htmlBytes / 1000),
    }));
    const [smallPhase, largePhase] = phases;
    if (!smallPhase || !largePhase) throw new Error('a phase is missing');
    const targets = [
      target({
        label: 'FCP large / small',
        value: largePhase.fcpMedianMs / smallPhase.fcpMedianMs,
        unit: '×',
        comparison: '≤',
        bound: RATIO_MAX,
      }),
      target({
        label: 'TTI large / small',
        value: largePhase.ttiMedianMs / smallPhase.ttiMedianMs,
        unit: '×',
        comparison: '≤',
        bound: RATIO_MAX,
      }),
      target({
        label: 'FCP large',
        value: largePhase.fcpMedianMs,
        unit: 'ms',
        comparison: '≤',
        bound: ABSOLUTE_MAX_MS,
      }),
      target({
        label: 'TTI large',
        value: largePhase.ttiMedianMs,
        unit: 'ms',
        comparison: '≤',
        bound: ABSOLUTE_MAX_MS,
      }),
    ];

    process.stdout.write(
      `pages: Cairn on SQLite, Chromium headless, ${RUNS} cold loads each (fresh context), medians; ` +
        `TTI ends the last long task before ${QUIET_MS / 1000} s without one\n\n` +
        textTable([
          ['page', 'FCP ms', 'TTI ms', 'HTML kB', 'long tasks', 'all FCP', 'all TTI'],
          ...phases.map((p) => [
            p.name,
            String(p.fcpMedianMs),
            String(p.ttiMedianMs),
            String(p.htmlKB),
            String(p.longTasksMedian),
            p.fcpMs.join(' '),
            p.ttiMs.join(' '),
          ]),
        ]) +
        '\n\n',
    );
    for (const t of targets) process.stdout.write(`${targetLine(t)}\n`);
    return {
      name: 'pages',
      startedAt,
      machine: machineInfo(),
      phases,
      targets,
      notes: {},
      failures: [],
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}

/**
 * One cold load in a fresh browser context: FCP from the paint timing, TTI as Lighthouse defines
 * it (see {@link READ_TIMINGS}), which counts what the page does after its first render (the
 * citation, formatted by citeproc for every creator; the versions list).
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @returns {Promise<{fcp: number, tti: number, longTasks: number}>}
 */
export async function landingPageTimings(browser, url) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    let inFlight = 0;
    page.on('request', () => inFlight++);
    page.on('requestfinished', () => inFlight--);
    page.on('requestfailed', () => inFlight--);
    await page.addInitScript({ content: RECORD_LONG_TASKS });
    await page.goto(url);
    await page.locator('#record-title').waitFor({ timeout: 60_000 });
    const read = `${READ_TIMINGS}(${QUIET_MS}, ${MAX_QUIET_REQUESTS}, ${OBSERVER_LAG_MS})`;
    const deadline = Date.now() + 120_000;
    for (;;) {
      const timings = /** @type {{fcp: number, tti?: number, longTasks: number} | undefined} */ (
        await page.evaluate(read)
      );
      // A window with a request still in flight is not over: the timings do not list it yet.
      if (timings?.tti !== undefined && inFlight <= MAX_QUIET_REQUESTS) {
        return { fcp: timings.fcp, tti: timings.tti, longTasks: timings.longTasks };
      }
      if (Date.now() > deadline) throw new Error(`${url}: no quiet window within 120 s`);
      await page.waitForTimeout(250);
    }
  } finally {
    await context.close();
  }
}

/**
 * @param {string} baseUrl
 * @param {string} token
 */
function apiClient(baseUrl, token) {
  const call = apiCaller(baseUrl, token);
  return {
    /**
     * A published record of `draft` with `count` small CSV files; resolves with its id.
     * @param {any} draft
     * @param {number} count
     */
    async publishedWithFiles(draft, count) {
      const created = await call(
        'POST',
        '/api/records',
        JSON.stringify({ ...draft, files: { enabled: true } }),
      );
      if (created.errors?.length)
        throw new Error(`draft errors: ${JSON.stringify(created.errors).slice(0, 300)}`);
      const id = created.id;
      const keys = Array.from(
        { length: count },
        (_, i) => `data/part-${String(i).padStart(4, '0')}.csv`,
      );
      await call(
        'POST',
        `/api/records/${id}/draft/files`,
        JSON.stringify(keys.map((key) => ({ key }))),
      );
      for (const key of keys) {
        await call(
          'PUT',
          `/api/records/${id}/draft/files/${key}/content`,
          `depth,value\n1,${key.length}\n`,
          'application/octet-stream',
        );
        await call('POST', `/api/records/${id}/draft/files/${key}/commit`);
      }
      const record = await call('POST', `/api/records/${id}/draft/actions/publish`);
      if (record.metadata.creators.length !== draft.metadata.creators.length)
        throw new Error('creators were dropped');
      // Past 100 files the record's JSON leaves its entries out (files.entries_omitted): count.
      if (record.files.count !== count) throw new Error('files are missing');
      return id;
    },
  };
}
