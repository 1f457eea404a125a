import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { clockTicksPerSecond, cpuSecondsOf, memoryOf } from './proc.js';

const runFile = promisify(execFile);
const serverDir = fileURLToPath(new URL('../../packages/server/', import.meta.url));
const CAIRN = path.join(serverDir, 'bin', 'cairn.js');
const STARTUP_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
// Enough of the child's output to explain why it died, without holding a whole run's logs.
const OUTPUT_TAIL_CHARS = 16_000;

/**
 * @typedef {object} BenchServer
 * @property {string} baseUrl e.g. `http://127.0.0.1:43817`
 * @property {number} pid of the server's own Node process (what /proc is read for)
 * @property {string} dataDir the server's data directory (database and stored files), deleted by
 *   `stop`
 * @property {(args: string[]) => Promise<string>} cli runs `cairn …` on the same data directory and
 *   resolves with its stdout
 * @property {() => Promise<number | undefined>} peakRssBytes the server's VmHWM so far; undefined
 *   where /proc is not available
 * @property {() => number | undefined} cpuSeconds user and system CPU time the server has used so
 *   far; undefined where /proc is not available. Synchronous so that it can be read at the exact
 *   edges of a measured window.
 * @property {() => Promise<void>} stop ends the server and deletes its data directory
 */

/**
 * @typedef {object} StartOptions
 * @property {string} [cpuProfDir] when set, the server runs with `--cpu-prof` and writes its
 *   profile there when it stops
 * @property {Record<string, string>} [env] further environment variables for the server, e.g. a
 *   larger file quota; they override the launcher's own settings
 * @property {string} [databaseUrl] a PostgreSQL database for the server; SQLite otherwise
 */

/**
 * Starts the built server as a child process on a fresh SQLite data directory and a free port,
 * and resolves once `GET /api/hello` answers. A child rather than `buildApp` in this process so
 * that the load generator never competes with the server for one event loop.
 * @param {StartOptions} [options]
 * @returns {Promise<BenchServer>}
 */
export async function startServer(options = {}) {
  if (!existsSync(path.join(serverDir, 'dist', 'cli.js'))) {
    throw new Error('The server is not built. Run: npm run build (npm run bench does this first).');
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cairn-bench-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    CAIRN_DATA_DIR: dataDir,
    CAIRN_SITE_URL: baseUrl,
    CAIRN_LOG_LEVEL: 'warn',
    // Sweeps writing to the database mid-phase would show up as noise in the latencies.
    CAIRN_SWEEP_INTERVAL_SECONDS: '0',
    ...options.env,
  };
  // The figures are promised on SQLite unless asked otherwise; an inherited PostgreSQL URL would
  // silently change that.
  delete env.DATABASE_URL;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;

  const nodeArgs = options.cpuProfDir
    ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(options.cpuProfDir)]
    : [];
  const child = spawn(process.execPath, [...nodeArgs, CAIRN, 'serve'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  /** @param {Buffer} chunk */
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  /** @type {Promise<void>} */
  const exited = new Promise((resolve) => child.once('exit', () => resolve()));
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });

  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${CAIRN}`);

  async function stop() {
    if (!hasExited) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    await rm(dataDir, { recursive: true, force: true });
  }

  const ticksPerSecond = await clockTicksPerSecond();
  try {
    await waitForHello(baseUrl, () => hasExited);
  } catch (error) {
    await stop();
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n--- server output ---\n${output}`,
    );
  }

  return {
    baseUrl,
    pid,
    dataDir,
    async cli(args) {
      const { stdout } = await runFile(process.execPath, [CAIRN, ...args], { env });
      return stdout;
    },
    async peakRssBytes() {
      return memoryOf(pid)?.peakRssBytes;
    },
    cpuSeconds() {
      return cpuSecondsOf(pid, ticksPerSecond);
    },
    stop,
  };
}

/** @returns {Promise<number>} a port that was free a moment ago */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * @param {string} baseUrl
 * @param {() => boolean} hasExited
 */
async function waitForHello(baseUrl, hasExited) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (hasExited()) throw new Error('the server exited during start-up');
    try {
      const response = await fetch(`${baseUrl}/api/hello`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not answer GET /api/hello within ${STARTUP_TIMEOUT_MS} ms`);
}
