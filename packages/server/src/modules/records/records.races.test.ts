import { afterAll, beforeAll, describe, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
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

/** Each race runs this many times: an interleaving that breaks a rule may not come every time. */
const ROUNDS = 3;

// Every state-changing action that can race, fired many times at once at one app through
// app.inject: the requests interleave at every database round trip, as they do on a busy server.
describe.each(ENGINES)('races between requests on %s', (engine) => {
  let t: TestApp;
  let world: RaceWorld;

  beforeAll(async () => {
    t = await createTestApp(engine);
    const send: Send = async (_via, method, url, caller, body, headers = {}) => {
      const res = await t.app.inject({ method, url, ...encodeRequest(caller, body, headers) });
      return decodeReply(res.statusCode, String(res.headers['content-type']), res.rawPayload);
    };
    const racer = async (): Promise<Racer> => ({ headers: (await t.user()).headers });
    const admin = { headers: (await t.user(undefined, { admin: true })).headers };
    world = await createRaceWorld(send, await racer(), await racer(), admin);
  });
  afterAll(() => t?.close());

  for (const scenario of RACE_SCENARIOS) {
    it(scenario.name, async () => {
      for (let round = 0; round < ROUNDS; round++) await scenario.run(world);
    });
  }
});
