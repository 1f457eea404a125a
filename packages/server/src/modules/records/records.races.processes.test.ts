import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  RGW_START_TIMEOUT_MS,
  createBucket,
  s3Env,
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

// The same races as records.races.test.ts, with the requests alternating between two
// `cairn serve` processes on one PostgreSQL database and one S3 store (Ceph's RADOS Gateway):
// app servers behind a load balancer. Only the database can keep them from both winning.
describe.runIf(ENGINES.includes('postgres'))('races between two server processes', () => {
  let rgw: RgwServer | undefined;
  let database: { url: string; drop: () => Promise<void> } | undefined;
  const dataDirs: Array<{ remove: () => Promise<void> }> = [];
  const servers: ServerProcess[] = [];
  let world: RaceWorld;

  beforeAll(async () => {
    rgw = await startRgw();
    await createBucket(rgw, BUCKET);
    database = await createProcessDatabase();
    const env = {
      DATABASE_URL: database.url,
      ...s3Env(rgw, BUCKET),
    };
    // One after the other: the first migrates the new database and loads the demo data.
    for (let i = 0; i < 2; i++) {
      const data = await tempDataDir();
      dataDirs.push(data);
      servers.push(await startServerProcess({ ...env, CAIRN_DATA_DIR: data.dir }));
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
    const racer = async (): Promise<Racer> => {
      const { headers } = await processUser({ DATABASE_URL: database!.url });
      const me = await send(0, 'GET', '/api/me', { id: '', headers });
      return { id: me.body.id as string, headers };
    };
    world = await createRaceWorld(send, await racer(), await racer());
  }, RGW_START_TIMEOUT_MS + 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill()));
    await database?.drop();
    await rgw?.stop();
    await Promise.all(dataDirs.map((d) => d.remove()));
  }, 60_000);

  for (const scenario of RACE_SCENARIOS) {
    it(scenario.name, async () => {
      for (let round = 0; round < ROUNDS; round++) await scenario.run(world);
    });
  }
});
