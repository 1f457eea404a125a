import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import {
  createProcessDatabase,
  processUser,
  startServerProcess,
  tempDataDir,
  type ServerProcess,
} from '../../test/server-process.js';

const CSRF = 'a-fixed-csrf-token-for-two-processes';

/**
 * Two app servers on one database, as behind a load balancer: an attacker whose attempts are
 * spread over both must meet the same limit as one who talks to a single server.
 */
describe.each(ENGINES)('throttling across two cairn serve processes (%s)', (engine) => {
  const servers: ServerProcess[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    const data = await tempDataDir();
    cleanups.push(data.remove);
    env = { CAIRN_DATA_DIR: data.dir };
    if (engine === 'postgres') {
      const database = await createProcessDatabase();
      cleanups.push(database.drop);
      env.DATABASE_URL = database.url;
    }
    // The first one creates the schema and the demo data; the second finds them.
    servers.push(await startServerProcess({ ...env, CAIRN_RATE_LIMIT_LOGIN_PER_ACCOUNT: '4' }));
    servers.push(await startServerProcess({ ...env, CAIRN_RATE_LIMIT_LOGIN_PER_ACCOUNT: '4' }));
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  const login = (server: ServerProcess, email: string, password: string) =>
    fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `csrftoken=${CSRF}`,
        'x-csrftoken': CSRF,
      },
      body: JSON.stringify({ email, password }),
    });

  it('counts attempts at one account on either server together', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const { email } = await processUser(env);
    for (const server of [a, b, a, b]) {
      expect((await login(server, email, 'a guess')).status).toBe(401);
    }
    for (const server of [a, b]) {
      const res = await login(server, email, 'correct horse battery');
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await res.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    }
  });
});
