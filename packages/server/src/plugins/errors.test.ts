import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../test/databases.js';
import { createTestApp, type TestApp } from '../test/app.js';

const INTERNAL_MESSAGE =
  'The server encountered an internal error and was unable to complete your request.';
const SECRET = 'connection to 10.0.0.7:5432 refused for user cairn_admin';

describe.each(ENGINES)('error handler (%s)', (engine) => {
  let t: TestApp;
  const logLines: Array<Record<string, any>> = [];

  beforeAll(async () => {
    t = await createTestApp(
      engine,
      {},
      {},
      {
        logger: {
          level: 'error',
          stream: { write: (line: string) => void logLines.push(JSON.parse(line)) },
        },
        beforeReady(app) {
          app.get('/api/test/throws', () => {
            throw new Error(SECRET);
          });
          app.post('/api/test/rejects', async () => {
            await Promise.resolve();
            throw new TypeError(`Cannot read properties of undefined (reading '${SECRET}')`);
          });
          // A plugin's client error carries a status and no code of ours.
          app.get('/api/test/plugin-conflict', () => {
            throw Object.assign(new Error('Busy elsewhere.'), { statusCode: 409 });
          });
          app.post('/api/test/duplicate', async () => {
            const user = {
              email: 'twice@example.org',
              name: 'Twice',
              passwordHash: 'x',
              isAdmin: 0,
              createdAt: new Date().toISOString(),
            };
            await t.services.database.db.insertInto('users').values(user).execute();
            await t.services.database.db.insertInto('users').values(user).execute();
          });
        },
      },
    );
  });
  afterAll(() => t.close());

  it.each([
    ['GET', '/api/test/throws'],
    ['POST', '/api/test/rejects'],
  ] as const)(
    'answers an unexpected exception (%s %s) with 500, an error_id and no internals',
    async (method, url) => {
      const res = await t.request({ method, url });
      expect(res.statusCode).toBe(500);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = res.json();
      expect(body).toEqual({
        status: 500,
        code: 'INTERNAL',
        message: INTERNAL_MESSAGE,
        error_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expect(res.body).not.toContain(SECRET);
      expect(res.body).not.toMatch(/stack|\.ts:\d+/);

      // The operator finds the cause by the error_id the user reports.
      const logged = logLines.find((l) => l.reqId === body.error_id && l.err);
      expect(logged?.msg).toBe('unexpected error');
      expect(logged?.err.message).toContain(SECRET);
      expect(logged?.err.stack).toBeDefined();
    },
  );

  it('answers a unique violation from the database with 409, not 500', async () => {
    const res = await t.request({ method: 'POST', url: '/api/test/duplicate' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'The resource was changed at the same time. Please retry.',
    });
  });

  it("gives a plugin's client error the generic code of its status, not a specific one", async () => {
    const res = await t.request({ method: 'GET', url: '/api/test/plugin-conflict' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', message: 'Busy elsewhere.' });
  });

  it('answers an unknown route with the contract body', async () => {
    const res = await t.request({ method: 'GET', url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      status: 404,
      code: 'NOT_FOUND',
      message: 'The requested URL was not found on the server.',
    });
  });
});
