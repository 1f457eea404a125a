import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  RGW_START_TIMEOUT_MS,
  createBucket,
  s3Environment,
  startRgw,
  type RgwServer,
} from '../../test/ceph-rgw.js';
import { ENGINES } from '../../test/databases.js';
import {
  RACE_SCENARIOS,
  createRaceWorld,
  decodeReply,
  encodeRequest,
  type RaceWorld,
  type Racer,
  type Send,
} from '../../test/races.js';
import {
  createProcessDatabase,
  processUser,
  startServerProcess,
  tempDataDir,
  type ServerProcess,
} from '../../test/server-process.js';

const BUCKET = 'cairn-races';
/** Fewer rounds than in one process: each costs real HTTP round trips through two servers. */
const ROUNDS = 2;
const START_TIMEOUT_MS = 120_000;

/** What a describe block below sets up, and takes down after the servers are stopped. */
interface Processes {
  servers: ServerProcess[];
  world?: RaceWorld;
  cleanups: Array<() => Promise<void>>;
}

const newProcesses = (): Processes => ({ servers: [], cleanups: [] });

/**
 * Two `cairn serve` processes with `env` (plus a data folder each, unless `env` names a shared
 * one), started one after the other (the first migrates the new database and loads the demo
 * data), two people, and a race world whose requests alternate between the processes.
 */
async function startProcesses(processes: Processes, env: Record<string, string>): Promise<void> {
  const { servers, cleanups } = processes;
  for (let i = 0; i < 2; i++) {
    let dataDir = env.CAIRN_DATA_DIR;
    if (!dataDir) {
      const data = await tempDataDir();
      cleanups.push(data.remove);
      dataDir = data.dir;
    }
    servers.push(await startServerProcess({ ...env, CAIRN_DATA_DIR: dataDir }));
  }
  const send: Send = async (via, method, url, caller, body, headers = {}) => {
    const request = encodeRequest(caller, body, headers);
    const res = await fetch(`${servers[via % servers.length]!.url}${url}`, {
      method,
      headers: request.headers,
      ...(request.payload === undefined ? {} : { body: request.payload }),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    return decodeReply(res.status, res.headers.get('content-type') ?? '', bytes);
  };
  const racer = async (): Promise<Racer> => ({ headers: (await processUser(env)).headers });
  const admin = { headers: (await processUser(env, undefined, { admin: true })).headers };
  processes.world = await createRaceWorld(send, await racer(), await racer(), admin);
}

function raceEveryScenario(processes: Processes): void {
  afterAll(async () => {
    await Promise.all(processes.servers.map((s) => s.kill()));
    for (const cleanup of processes.cleanups.reverse()) await cleanup();
  }, 60_000);
  for (const scenario of RACE_SCENARIOS) {
    it(scenario.name, async () => {
      for (let round = 0; round < ROUNDS; round++) await scenario.run(processes.world!);
    });
  }
}

// The same races as records.races.test.ts, with the requests alternating between two
// `cairn serve` processes: app servers behind a load balancer. Only the database can keep them
// from both winning.
describe.runIf(ENGINES.includes('postgres'))(
  'races between two server processes on one PostgreSQL database and one S3 bucket',
  () => {
    const processes = newProcesses();
    beforeAll(async () => {
      const rgw: RgwServer = await startRgw();
      processes.cleanups.push(() => rgw.stop());
      await createBucket(rgw, BUCKET);
      const database = await createProcessDatabase();
      processes.cleanups.push(database.drop);
      await startProcesses(processes, {
        DATABASE_URL: database.url,
        ...s3Environment(rgw, BUCKET),
      });
    }, RGW_START_TIMEOUT_MS + START_TIMEOUT_MS);
    raceEveryScenario(processes);
  },
);

// SQLite is meant for one process, but two sharing its file and the files folder must still
// never both win: each action's transaction takes the database's write lock first.
describe('races between two server processes on one SQLite database and one files folder', () => {
  const processes = newProcesses();
  beforeAll(async () => {
    const data = await tempDataDir();
    processes.cleanups.push(data.remove);
    await startProcesses(processes, { CAIRN_DATA_DIR: data.dir });
  }, START_TIMEOUT_MS);
  raceEveryScenario(processes);
});
