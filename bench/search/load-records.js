import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = path.dirname(fileURLToPath(import.meta.url));

/**
 * Loads `records` generated published records into a server's database through the bulk path
 * (`load.js` in a process of its own, as `cairn` would open the database), for the benchmarks that
 * need a repository of a realistic size: the search and the harvest.
 * @param {{dataDir: string, databaseUrl?: string, records: number, owner: string, communities: number}} o
 * @returns {Promise<{seconds: number, generateSeconds: number, insertSeconds: number, analyzeSeconds: number}>} the loader's timings
 */
export function loadRecords(o) {
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, CAIRN_DATA_DIR: o.dataDir, CAIRN_LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  if (o.databaseUrl) env.DATABASE_URL = o.databaseUrl;
  const args = [
    path.join(benchDir, 'load.js'),
    '--records',
    String(o.records),
    '--owner',
    o.owner,
    '--communities',
    String(o.communities),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (/** @type {Buffer} */ chunk) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the loader exited with ${code}: ${out}`));
      else resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}'));
    });
  });
}
