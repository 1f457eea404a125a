// Runs the benchmarks in bench/*/index.js (all of them, or those named) and keeps each one's
// figures in bench/results/<name>.json. `npm run bench` builds first; run this directly only on a
// fresh build, or the figures describe old code.
//
//   node bench/run.js [name…] [--cpu-prof DIR]
//
// Benchmarks: api, communities, files (one more file of 10,000 over the API; uploads and pages of
// 10,000 files in Chromium), form (the deposit form with 10,000 creators), harvest, inbox (the
// curators' requests inbox over 100,000 requests), pages, soak (mixed traffic on PostgreSQL),
// search (the records search over a million records), suggest, upload; each is described in
// bench/README.md.
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * @typedef {import('./lib/report.js').BenchResult} BenchResult
 * @typedef {import('./lib/report.js').BenchOptions} BenchOptions
 * @typedef {{run: (options: BenchOptions) => Promise<BenchResult>}} Benchmark
 */

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const resultsDir = path.join(benchDir, 'results');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'cpu-prof': { type: 'string' } },
});

const available = (await readdir(benchDir, { withFileTypes: true }))
  .filter((entry) => entry.isDirectory() && existsSync(path.join(benchDir, entry.name, 'index.js')))
  .map((entry) => entry.name)
  .sort();
const names = positionals.length > 0 ? positionals : available;
const unknown = names.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  process.stderr.write(`No benchmark ${unknown.join(', ')}; there are: ${available.join(', ')}\n`);
  process.exit(2);
}

let hasFailed = false;
for (const name of names) {
  process.stdout.write(`\n== ${name} ==\n`);
  try {
    const url = pathToFileURL(path.join(benchDir, name, 'index.js')).href;
    const benchmark = /** @type {Benchmark} */ (await import(url));
    const result = await benchmark.run({ cpuProfDir: values['cpu-prof'] });
    await mkdir(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `${name}.json`);
    await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`\nwritten to ${path.relative(process.cwd(), file)}\n`);
    if (result.failures.length > 0) {
      hasFailed = true;
      process.stderr.write(`\n${name}: FAILED, the figures above are not valid\n`);
      for (const failure of result.failures) process.stderr.write(`  ${failure}\n`);
    }
  } catch (error) {
    hasFailed = true;
    process.stderr.write(
      `\n${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
}
// A missed target is a finding, not a broken run: it depends on the machine, failed requests do not.
process.exitCode = hasFailed ? 1 : 0;
