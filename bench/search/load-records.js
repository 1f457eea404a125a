import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchPostgres } from '../lib/postgres.js';
import { startServer } from '../lib/server.js';

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

/**
 * A server on `engine` (PostgreSQL: a scratch database of its own) with `records` generated
 * records loaded and `owner` their owner; undefined when PostgreSQL is asked for and there is none
 * at CAIRN_BENCH_POSTGRES_URL. The caller stops the server and drops the database.
 * @param {{name: string, engine: string, options: import('../lib/server.js').StartOptions, records: number, owner: string, communities: number}} o
 */
export async function startLoadedServer(o) {
  const database = o.engine === 'postgres' ? await scratchPostgres(o.name) : undefined;
  if (o.engine === 'postgres' && !database) return undefined;
  const server = await startServer({ ...o.options, databaseUrl: database?.url });
  try {
    await server.cli(['users', 'create', o.owner, '--password', `bench-${o.name}-password`]);
    process.stdout.write(`${o.engine}: loading ${o.records.toLocaleString('en')} records\n`);
    const load = await loadRecords({
      dataDir: server.dataDir,
      databaseUrl: database?.url,
      records: o.records,
      owner: o.owner,
      communities: o.communities,
    });
    return { server, database, load };
  } catch (error) {
    await server.stop();
    await database?.drop();
    throw error;
  }
}
