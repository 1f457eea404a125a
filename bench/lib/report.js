import os from 'node:os';
/**
 * @typedef {import('./load.js').PhaseResult} PhaseResult
 */

/**
 * A figure the issue sets a bound on.
 * @typedef {object} Target
 * @property {string} label e.g. `GET draft / hello`
 * @property {number} value
 * @property {string} unit `%`, `ms` or `MiB`
 * @property {'≥' | '≤'} comparison
 * @property {number} bound
 * @property {boolean} isMet
 */

/**
 * What every benchmark's `run` resolves with; `bench/run.js` writes it to `bench/results/<name>.json`.
 * @typedef {object} BenchResult
 * @property {string} name
 * @property {string} startedAt ISO date-time
 * @property {{node: string, platform: string, cpus: number, cpuModel: string}} machine
 * @property {PhaseResult[] | object[]} phases what was measured, one entry per phase or case; the
 *   shape is the benchmark's own (`api`: {@link PhaseResult})
 * @property {Target[]} targets
 * @property {Record<string, number | string | undefined>} notes further figures, printed as is
 * @property {string[]} failures why the run cannot be trusted (failed requests); empty when sound
 */

/**
 * @typedef {object} BenchOptions
 * @property {string} [cpuProfDir] profile the server under test into this directory
 */

/**
 * @param {Omit<Target, 'isMet'>} target
 * @returns {Target}
 */
export function target(target) {
  const isMet =
    target.comparison === '≥' ? target.value >= target.bound : target.value <= target.bound;
  return { ...target, isMet };
}

/**
 * The phases as an aligned text table.
 * @param {PhaseResult[]} phases
 */
export function phaseTable(phases) {
  /** @type {string[][]} */
  const rows = [
    ['phase', 'conc', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'srv CPU', 'srv µs/req'],
    ...phases.map((p) => [
      p.name,
      String(p.concurrency),
      String(p.requests),
      p.perSecond.toFixed(p.perSecond >= 100 ? 0 : 1),
      formatMs(p.p50Ms),
      formatMs(p.p99Ms),
      String(p.errors),
      p.serverCpuPercent === undefined ? '-' : `${p.serverCpuPercent.toFixed(0)} %`,
      p.serverCpuUsPerRequest === undefined ? '-' : p.serverCpuUsPerRequest.toFixed(0),
    ]),
  ];
  return textTable(rows);
}

/**
 * Rows of cells as aligned text: the first column left-aligned, the others right-aligned.
 * @param {string[][]} rows the first one is the header
 */
export function textTable(rows) {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
        .join('  '),
    )
    .join('\n');
}

/** @param {Target} t */
export function targetLine(t) {
  const value =
    t.unit === 'ms' ? formatMs(t.value) : t.unit === '×' ? t.value.toFixed(2) : t.value.toFixed(0);
  return `${t.label} = ${value} ${t.unit} (target ${t.comparison} ${t.bound} ${t.unit})  ${t.isMet ? 'PASS' : 'MISS'}`;
}

/** @param {number} ms */
function formatMs(ms) {
  if (Number.isNaN(ms)) return '-';
  return ms.toFixed(ms >= 100 ? 0 : ms >= 10 ? 1 : 2);
}

/** The machine a run measured, recorded with its figures so runs can be compared fairly. */
export function machineInfo() {
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
  };
}
