import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { realisticDraft } from '../api/drafts.js';
import { apiCaller } from '../lib/api.js';
import { launchChromium, logIn } from '../lib/browser.js';
import { percentile } from '../lib/load.js';
import { target } from '../lib/report.js';
import { landingPageTimings } from '../pages/index.js';

/**
 * @typedef {import('playwright-core').Browser} Browser
 * @typedef {import('playwright-core').Page} Page
 * @typedef {import('../lib/server.js').BenchServer} BenchServer
 * @typedef {ReturnType<typeof target>} Target
 */

const EMAIL = 'bench-files@cairn.example';
const PASSWORD = 'cairn-bench-password';
/** Files chosen at once in the uploader, and of a record whose pages are timed. */
export const MANY = Number(process.env.CAIRN_BENCH_FILES_BROWSER_COUNT ?? 10_000);
const FEW = 10;
const SMALL_BYTES = 1024;
const LARGE_BYTES = 10 * 1024 * 1024;
/** Cold loads of each page, taking turns, after one unmeasured load of each. */
const LOADS = Number(process.env.CAIRN_BENCH_FILES_LOADS ?? 5);
/** An upload still running after this long is reported as far as it got, and misses. */
const UPLOAD_TIMEOUT_MS = Number(process.env.CAIRN_BENCH_FILES_UPLOAD_TIMEOUT_S ?? 900) * 1000;
/** Where the page's CPU profile of each upload is written (DevTools opens it), when set. */
const PROFILE_DIR = process.env.CAIRN_BENCH_FILES_PROFILE_DIR;
/** Requests in flight while seeding a record's files through the API. */
const SEED_CONCURRENCY = 8;
const SEED_BATCH = 500;
const FILES_PER_SECOND_MIN = 100;
const DEPOSIT_INTERACTIVE_MAX_MS = 2_000;
const LANDING_TTI_MAX_MS = 1_500;
const RATIO_MAX = 1.5;

/**
 * Installed before any page script of the deposit page (as source: it runs in the browser).
 * Interactive, as `bench/form` defines it for the deposit form: the first idle moment of the
 * main thread once the title input is in the page and the files section shows the record's
 * first file (`__firstKey`, set before the page loads) by its name. A draft of more than 100
 * files carries no entries in its JSON: the uploader reads them from the paged listing, so this
 * counts that too.
 */
const DEPOSIT_INTERACTIVE = `
  const shown = () => {
    const files = document.getElementById('files');
    if (!files || !document.querySelector('[name="metadata.title"]')) return false;
    const walker = document.createTreeWalker(files, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode())
      if (node.nodeValue === window.__firstKey) return true;
    return false;
  };
  const observer = new MutationObserver(() => {
    if (window.__shownAt !== undefined || !shown()) return;
    observer.disconnect();
    window.__shownAt = performance.now();
    requestIdleCallback(() => { window.__interactiveAt = performance.now(); });
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
`;

/**
 * Issue 20, the browser's part: many small files chosen at once in the deposit page's uploader,
 * one large file beside them, and the deposit and landing pages of a record of `MANY` files
 * against the same pages with `FEW`. On SQLite.
 * @param {BenchServer} server a server whose file quota admits `MANY` files per record
 * @returns {Promise<{phases: object[], targets: Target[], notes: Record<string, string | number>}>}
 */
export async function measureBrowser(server) {
  await server.cli(['users', 'create', EMAIL, '--password', PASSWORD, '--name', 'Bench']);
  const token = (await server.cli(['tokens', 'create', EMAIL, '--name', 'bench'])).trim();
  const api = client(server.baseUrl, token);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cairn-bench-files-'));
  const browser = await launchChromium();
  try {
    const small = await writeSmallFiles(dir, MANY);
    const large = path.join(dir, 'large.bin');
    await writeFile(large, patterned(LARGE_BYTES, MANY));
    const storageState = await logIn(browser, server.baseUrl, EMAIL, PASSWORD);
    const open = async () => {
      const context = await browser.newContext({ storageState });
      // Playwright cannot answer Chromium's File System Access pickers: files are chosen through
      // the file input, as in browsers without them; the uploader behind is the same.
      await context.addInitScript({
        content: 'delete window.showOpenFilePicker; delete window.showDirectoryPicker;',
      });
      const page = await context.newPage();
      return { page, close: () => context.close() };
    };

    const one = await uploadThroughPage(open, server.baseUrl, api, [large], 1);
    const many = await uploadThroughPage(open, server.baseUrl, api, small, MANY);
    const uploads = [
      { name: `1 file of ${LARGE_BYTES / 1024 / 1024} MiB`, ...one },
      {
        name: `${MANY.toLocaleString('en')} files of ${SMALL_BYTES / 1024} KiB`,
        ...many,
      },
    ];

    // A record of MANY files and one of FEW, seeded through the API.
    const seedStart = performance.now();
    const manyDraft = await api.seededDraft(MANY);
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const fewDraft = await api.seededDraft(FEW);
    /** @type {Record<'few' | 'many', {deposit: number[], landing: number[], landingFcp: number[], longTasks: number[]}>} */
    const samples = {
      few: { deposit: [], landing: [], landingFcp: [], longTasks: [] },
      many: { deposit: [], landing: [], landingFcp: [], longTasks: [] },
    };
    const ids = { few: fewDraft, many: manyDraft };
    const order = /** @type {const} */ (['few', 'many']);
    for (let i = -1; i < LOADS; i++) {
      for (const name of order) {
        const { page, close } = await open();
        try {
          const ms = await depositInteractive(page, `${server.baseUrl}/uploads/${ids[name]}`);
          if (i >= 0) samples[name].deposit.push(ms);
        } finally {
          await close();
        }
      }
    }
    for (const name of order) await api.publish(ids[name]);
    for (let i = -1; i < LOADS; i++) {
      for (const name of order) {
        const m = await landingPageTimings(browser, `${server.baseUrl}/records/${ids[name]}`);
        if (i >= 0) {
          samples[name].landing.push(m.tti);
          samples[name].landingFcp.push(m.fcp);
          samples[name].longTasks.push(m.longTasks);
        }
      }
    }

    const median = (/** @type {number[]} */ xs) =>
      percentile(
        [...xs].sort((a, b) => a - b),
        50,
      );
    const pages = order.map((name) => ({
      name: `${(name === 'few' ? FEW : MANY).toLocaleString('en')} files`,
      files: name === 'few' ? FEW : MANY,
      depositInteractiveMedianMs: Math.round(median(samples[name].deposit)),
      depositInteractiveMs: samples[name].deposit.map(Math.round),
      landingTtiMedianMs: Math.round(median(samples[name].landing)),
      landingTtiMs: samples[name].landing.map(Math.round),
      landingFcpMedianMs: Math.round(median(samples[name].landingFcp)),
      landingLongTasksMedian: median(samples[name].longTasks),
    }));
    const [fewPage, manyPage] = pages;
    if (!fewPage || !manyPage) throw new Error('a page is missing');
    const targets = [
      target({
        label: `browser: ${MANY.toLocaleString('en')} files of 1 KiB uploaded, files/s`,
        value: many.completed === MANY ? many.filesPerSecond : 0,
        unit: 'files/s',
        comparison: '≥',
        bound: FILES_PER_SECOND_MIN,
      }),
      target({
        label: `browser: deposit page interactive, ${MANY.toLocaleString('en')} files`,
        value: manyPage.depositInteractiveMedianMs,
        unit: 'ms',
        comparison: '≤',
        bound: DEPOSIT_INTERACTIVE_MAX_MS,
      }),
      target({
        label: `browser: deposit page interactive, ${MANY.toLocaleString('en')} / ${FEW} files`,
        value: manyPage.depositInteractiveMedianMs / fewPage.depositInteractiveMedianMs,
        unit: '×',
        comparison: '≤',
        bound: RATIO_MAX,
      }),
      target({
        label: `browser: landing page TTI, ${MANY.toLocaleString('en')} files`,
        value: manyPage.landingTtiMedianMs,
        unit: 'ms',
        comparison: '≤',
        bound: LANDING_TTI_MAX_MS,
      }),
      target({
        label: `browser: landing page TTI, ${MANY.toLocaleString('en')} / ${FEW} files`,
        value: manyPage.landingTtiMedianMs / fewPage.landingTtiMedianMs,
        unit: '×',
        comparison: '≤',
        bound: RATIO_MAX,
      }),
    ];
    return {
      phases: [...uploads.map((u) => ({ part: 'upload', ...u })), ...pages],
      targets,
      notes: {
        seedSeconds: seedSeconds.toFixed(1),
        seedFilesPerSecond: (MANY / seedSeconds).toFixed(0),
      },
    };
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `count` files of SMALL_BYTES, each unlike the others, named flat so that any view of the list
 * shows the first one without opening a folder.
 * @param {string} dir
 * @param {number} count
 */
async function writeSmallFiles(dir, count) {
  const paths = Array.from({ length: count }, (_, i) =>
    path.join(dir, `part-${String(i).padStart(5, '0')}.csv`),
  );
  for (let i = 0; i < count; i += 500) {
    await Promise.all(
      paths.slice(i, i + 500).map((p, j) => writeFile(p, patterned(SMALL_BYTES, i + j))),
    );
  }
  return paths;
}

/**
 * Bytes that differ from file to file: the file's number, repeated.
 * @param {number} size
 * @param {number} n
 */
function patterned(size, n) {
  const bytes = Buffer.alloc(size, `${n},`);
  bytes.write(`n,${n}\n`);
  return bytes;
}

/**
 * Chooses `files` at once in the uploader of a fresh draft's deposit page, as a person does
 * through the file dialog, and times from that moment until the server answered the last file's
 * commit and the page's main thread was next idle. The page's JavaScript heap is read before the
 * files are chosen, at the end, and at the end after a garbage collection (what the page keeps).
 * @param {() => Promise<{page: Page, close: () => Promise<void>}>} open
 * @param {string} baseUrl
 * @param {ReturnType<typeof client>} api
 * @param {string[]} files
 * @param {number} expected files that should be committed
 */
async function uploadThroughPage(open, baseUrl, api, files, expected) {
  const id = await api.draft();
  const { page, close } = await open();
  try {
    await page.addInitScript({ content: `window.__firstKey = '\\u0000';${DEPOSIT_INTERACTIVE}` });
    await page.goto(`${baseUrl}/uploads/${id}`);
    await page.getByRole('textbox', { name: 'Title', exact: true }).waitFor();
    await page.evaluate('new Promise((resolve) => requestIdleCallback(resolve))');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const heap = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN) / 1024 / 1024;
    };
    const heapBefore = await heap();
    let crashed = false;
    page.on('crash', () => {
      crashed = true;
    });
    let committed = 0;
    let lastCommitAt = 0;
    /** Requests (inits, contents, commits, draft reads…): what a file costs on the wire. */
    let requests = 0;
    let draftReads = 0;
    /** @type {string[]} */
    const failed = [];
    page.on('response', (response) => {
      const request = response.request();
      if (!request.url().includes(`/api/records/${id}/`)) return;
      requests++;
      if (request.method() === 'GET' && /\/draft(\?|$)/.test(request.url())) draftReads++;
      if (!response.ok()) failed.push(`${request.method()} ${request.url()} ${response.status()}`);
      else if (request.method() === 'POST' && request.url().endsWith('/draft/files-upload')) {
        // A batch of small files (a Cairn extension): its answer lists those it committed.
        void response.json().then((answer) => {
          committed += answer.entries.length;
          for (const error of answer.errors) failed.push(`${error.key}: ${error.message}`);
          lastCommitAt = performance.now();
        });
      } else if (
        (request.method() === 'POST' && request.url().endsWith('/commit')) ||
        // Cairn's uploader commits a file in one piece with the PUT of its content.
        (request.method() === 'PUT' && request.url().endsWith('/content?commit=true'))
      ) {
        committed++;
        lastCommitAt = performance.now();
      }
    });
    if (PROFILE_DIR) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    const start = performance.now();
    // As a person does: the "Choose files" button and the browser's file dialog.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose files' }).click();
    await (await chooser).setFiles(files);
    const chosenMs = performance.now() - start;
    const deadline = start + UPLOAD_TIMEOUT_MS;
    while (
      committed < expected &&
      failed.length === 0 &&
      !crashed &&
      performance.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (crashed) throw new Error(`the page crashed after ${committed} files`);
    // The page has taken the last answer in once its main thread is next idle.
    await page.evaluate('new Promise((resolve) => requestIdleCallback(resolve))');
    const end = committed === expected ? performance.now() : lastCommitAt;
    const seconds = (end - start) / 1000;
    if (PROFILE_DIR) {
      const { profile } = await cdp.send('Profiler.stop');
      const file = path.join(PROFILE_DIR, `upload-${files.length}-files.cpuprofile`);
      await writeFile(file, JSON.stringify(profile));
    }
    const heapEnd = await heap();
    await cdp.send('HeapProfiler.collectGarbage');
    const heapKept = await heap();
    if (failed.length > 0)
      throw new Error(`upload requests failed: ${failed.slice(0, 3).join('; ')}`);
    const bytes = files.length === 1 ? LARGE_BYTES : SMALL_BYTES * files.length;
    return {
      files: expected,
      completed: committed,
      seconds: Number(seconds.toFixed(2)),
      chooseMs: Math.round(chosenMs),
      requests,
      draftReads,
      filesPerSecond: committed / seconds,
      mibPerSecond: bytes / 1024 / 1024 / seconds,
      heapBeforeMiB: Number(heapBefore.toFixed(1)),
      heapEndMiB: Number(heapEnd.toFixed(1)),
      heapKeptMiB: Number(heapKept.toFixed(1)),
    };
  } finally {
    await close();
  }
}

/**
 * One cold load of a draft's deposit page; resolves with the time from navigation to
 * interactive (see {@link DEPOSIT_INTERACTIVE}).
 * @param {Page} page
 * @param {string} url
 */
async function depositInteractive(page, url) {
  await page.addInitScript({
    content: `window.__firstKey = ${JSON.stringify(smallKey(0))};${DEPOSIT_INTERACTIVE}`,
  });
  await page.goto(url);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const at = await page.evaluate('window.__interactiveAt');
    if (typeof at === 'number') return at;
    if (Date.now() > deadline) throw new Error(`${url}: not interactive within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** @param {number} n */
function smallKey(n) {
  return `part-${String(n).padStart(5, '0')}.csv`;
}

/**
 * @param {string} baseUrl
 * @param {string} token
 */
function client(baseUrl, token) {
  const call = apiCaller(baseUrl, token);
  async function draft() {
    const created = await call(
      'POST',
      '/api/records',
      JSON.stringify({ ...realisticDraft(), files: { enabled: true } }),
    );
    if (created.errors?.length)
      throw new Error(`draft errors: ${JSON.stringify(created.errors).slice(0, 300)}`);
    return /** @type {string} */ (created.id);
  }
  return {
    draft,
    /**
     * A draft with `count` files of SMALL_BYTES: announced in batches, then each one's content
     * and commit, SEED_CONCURRENCY files at a time.
     * @param {number} count
     */
    async seededDraft(count) {
      const id = await draft();
      const base = `/api/records/${id}/draft/files`;
      const keys = Array.from({ length: count }, (_, i) => smallKey(i));
      for (let i = 0; i < count; i += SEED_BATCH) {
        const batch = keys.slice(i, i + SEED_BATCH).map((key) => ({ key, size: SMALL_BYTES }));
        await call('POST', base, JSON.stringify(batch));
      }
      let next = 0;
      const worker = async () => {
        while (next < count) {
          const n = next++;
          const key = keys[n] ?? '';
          await call(
            'PUT',
            `${base}/${key}/content`,
            patterned(SMALL_BYTES, n),
            'application/octet-stream',
          );
          await call('POST', `${base}/${key}/commit`);
        }
      };
      await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
      return id;
    },
    /** @param {string} id */
    async publish(id) {
      const record = await call('POST', `/api/records/${id}/draft/actions/publish`);
      if (!record.files?.count) throw new Error(`${id} was published without its files`);
    },
  };
}
