import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../test/databases.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { PUBLISHABLE_METADATA } from '../test/files.js';
import {
  processUser,
  startServerProcess,
  tempDataDir,
  type ServerProcess,
} from '../test/server-process.js';

/** A log line as pino writes it; only the fields these tests read. */
interface LogLine {
  level: number;
  reqId?: string;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  [key: string]: unknown;
}

const PASSWORD = 'correct horse battery';
const CSRF = 'csrf-value-that-must-stay-out-of-logs';

function parseLines(text: string): LogLine[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** The request line and the completion line of one request, found by its method and path. */
function requestLines(lines: LogLine[], method: string, path: string) {
  const incoming = lines.find((l) => l.req?.method === method && l.req.url?.split('?')[0] === path);
  expect(incoming, `no request line for ${method} ${path}`).toBeDefined();
  const completed = lines.find((l) => l.reqId === incoming!.reqId && l.res !== undefined);
  expect(completed, `no completion line for ${method} ${path}`).toBeDefined();
  return { incoming: incoming!, completed: completed! };
}

function expectNoSecret(output: string, secrets: string[]): void {
  for (const secret of secrets) expect(output).not.toContain(secret);
}

describe.each(ENGINES)('secrets never reach the log (%s)', (engine) => {
  let t: TestApp;
  let output = '';
  let token: string;
  let email: string;
  let sessionCookie: string;

  beforeAll(async () => {
    t = await createTestApp(
      engine,
      {},
      {},
      {
        logger: { level: 'info', stream: { write: (line: string) => void (output += line) } },
        beforeReady(app) {
          // Code that logs a request's headers and body, as a debugging session might add.
          app.post('/api/test/echo', async (request, reply) => {
            request.log.info(
              { headers: request.headers, body: request.body, response: reply.getHeaders() },
              'echo',
            );
            return { ok: true };
          });
          // An error whose message repeats the address it was asked for.
          app.get('/api/test/fails', (request) => {
            throw new Error(`could not serve ${request.url}`);
          });
        },
      },
    );
    const user = await t.user();
    email = user.email;
    token = user.headers.authorization!.replace(/^Bearer /, '');
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { cookie: `csrftoken=${CSRF}`, 'x-csrftoken': CSRF },
      body: { email, password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    sessionCookie = login.cookies.find((c) => c.name === 'cairn_session')!.value;
  });
  afterAll(() => t.close());

  it('redacts a token in the query string and keeps method, path and status', async () => {
    const res = await t.request({ method: 'GET', url: `/api/records?access_token=${token}&q=x` });
    expect(res.statusCode).toBe(200);
    const lines = parseLines(output);
    const { incoming, completed } = requestLines(lines, 'GET', '/api/records');
    expect(incoming.req!.url).toBe('/api/records?access_token=[redacted]&q=x');
    expect(completed.res!.statusCode).toBe(200);
    expectNoSecret(output, [token]);
  });

  it('redacts the login password, the session cookie and the CSRF token', async () => {
    const lines = parseLines(output);
    const { completed } = requestLines(lines, 'POST', '/api/auth/login');
    expect(completed.res!.statusCode).toBe(200);
    const me = await t.request({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: `cairn_session=${sessionCookie}` },
    });
    expect(me.statusCode).toBe(200);
    expectNoSecret(output, [PASSWORD, sessionCookie, CSRF]);
  });

  it('redacts headers and body fields wherever code logs them', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/test/echo',
      headers: {
        authorization: `Bearer ${token}`,
        cookie: `cairn_session=${sessionCookie}; csrftoken=${CSRF}`,
        'x-csrftoken': CSRF,
      },
      body: { email, password: PASSWORD, token, nested: { access_token: token } },
    });
    expect(res.statusCode).toBe(200);
    const echo = parseLines(output).find((l) => l.msg === 'echo');
    expect(echo).toBeDefined();
    const headers = echo!.headers as Record<string, unknown>;
    expect(headers['content-type']).toBe('application/json');
    expect(headers.authorization).toBe('[redacted]');
    expect(headers.cookie).toBe('[redacted]');
    expect(headers['x-csrftoken']).toBe('[redacted]');
    expect((echo!.body as Record<string, unknown>).email).toBe(email);
    expectNoSecret(output, [token, PASSWORD, sessionCookie, CSRF]);
  });

  it('redacts a Set-Cookie header someone logs', async () => {
    const signup = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      headers: { cookie: `csrftoken=${CSRF}`, 'x-csrftoken': CSRF },
      body: { email: `fresh-${Date.now()}@example.org`, password: PASSWORD },
    });
    expect(signup.statusCode).toBe(201);
    const fresh = signup.cookies.find((c) => c.name === 'cairn_session')!.value;
    t.app.log.info({ response: { headers: signup.headers } }, 'signup answer');
    const line = parseLines(output).find((l) => l.msg === 'signup answer');
    expect(line).toBeDefined();
    expectNoSecret(output, [fresh]);
  });

  it('redacts a token repeated in an error message and its stack', async () => {
    const res = await t.request({ method: 'GET', url: `/api/test/fails?access_token=${token}` });
    expect(res.statusCode).toBe(500);
    const lines = parseLines(output);
    const error = lines.find((l) => l.msg === 'unexpected error');
    expect(error).toBeDefined();
    const err = error!.err as { message: string; stack: string };
    expect(err.message).toBe('could not serve /api/test/fails?access_token=[redacted]');
    expect(err.stack).toContain('access_token=[redacted]');
    expect(requestLines(lines, 'GET', '/api/test/fails').completed.res!.statusCode).toBe(500);
    expectNoSecret(output, [token]);
  });

  it("redacts a secret link's token in the address, in its cookie and in the link itself", async () => {
    const owner = await t.user();
    const draft = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: owner.headers,
      body: {
        metadata: PUBLISHABLE_METADATA,
        files: { enabled: false },
        access: { record: 'restricted', files: 'restricted' },
      },
    });
    const id = draft.json().id as string;
    const made = await t.request({
      method: 'POST',
      url: `/api/records/${id}/access/links`,
      headers: owner.headers,
      body: { permission: 'preview' },
    });
    expect(made.statusCode).toBe(201);
    const link = made.json();
    t.app.log.info({ link }, 'made a link');
    const read = await t.request({
      method: 'GET',
      url: `/api/records/${id}/draft?token=${link.token}`,
    });
    expect(read.statusCode).toBe(200);
    const byCookie = await t.request({
      method: 'GET',
      url: `/api/records/${id}/draft`,
      headers: { cookie: `cairn_link=${link.token}` },
    });
    expect(byCookie.statusCode).toBe(200);
    t.app.log.info({ request: { headers: { cookie: `cairn_link=${link.token}` } } }, 'cookie');
    const lines = parseLines(output);
    const { incoming } = requestLines(lines, 'GET', `/api/records/${id}/draft`);
    expect(incoming.req!.url).toBe(`/api/records/${id}/draft?token=[redacted]`);
    expectNoSecret(output, [link.token]);
  });

  it('redacts a bearer token in free text', () => {
    t.app.log.warn(`retrying with Authorization: Bearer ${token}`);
    t.app.log.warn({ detail: `client sent ${token} as its key` }, 'odd client');
    const lines = parseLines(output);
    expect(lines.some((l) => l.msg === 'retrying with Authorization: Bearer [redacted]')).toBe(
      true,
    );
    expectNoSecret(output, [token]);
  });
});

describe('secrets never reach the log of cairn serve', () => {
  let data: { dir: string; remove: () => Promise<void> };
  let server: ServerProcess;

  beforeAll(async () => {
    data = await tempDataDir();
    server = await startServerProcess({ CAIRN_DATA_DIR: data.dir, CAIRN_LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await server?.kill();
    await data?.remove();
  });

  it('writes request lines without tokens, passwords or cookies', async () => {
    const env = { CAIRN_DATA_DIR: data.dir };
    const user = await processUser(env);
    const token = user.headers.authorization!.replace(/^Bearer /, '');
    const byQuery = await fetch(`${server.url}/api/records?access_token=${token}`);
    expect(byQuery.status).toBe(200);
    const byHeader = await fetch(`${server.url}/api/user/tokens`, { headers: user.headers });
    expect(byHeader.status).toBe(200);
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `csrftoken=${CSRF}`,
        'x-csrftoken': CSRF,
      },
      body: JSON.stringify({ email: user.email, password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const session = /cairn_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]!;
    const me = await fetch(`${server.url}/api/me`, {
      headers: { cookie: `cairn_session=${session}` },
    });
    expect(me.status).toBe(200);
    // The completion line of the last request is written after its answer was sent.
    await expect.poll(() => parseLines(server.output()).filter((l) => l.res).length).toBe(4);

    const lines = parseLines(server.output());
    const query = requestLines(lines, 'GET', '/api/records');
    expect(query.incoming.req!.url).toBe('/api/records?access_token=[redacted]');
    expect(query.completed.res!.statusCode).toBe(200);
    expect(requestLines(lines, 'GET', '/api/user/tokens').completed.res!.statusCode).toBe(200);
    expect(requestLines(lines, 'POST', '/api/auth/login').completed.res!.statusCode).toBe(200);
    expect(requestLines(lines, 'GET', '/api/me').completed.res!.statusCode).toBe(200);
    expectNoSecret(server.output(), [token, PASSWORD, session, CSRF]);
  });

  it("writes a secret link's use without its token, from the address or the cookie", async () => {
    const user = await processUser({ CAIRN_DATA_DIR: data.dir });
    const json = { ...user.headers, 'content-type': 'application/json' };
    const draft = await fetch(`${server.url}/api/records`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        metadata: PUBLISHABLE_METADATA,
        files: { enabled: false },
        access: { record: 'restricted', files: 'restricted' },
      }),
    });
    const id = ((await draft.json()) as { id: string }).id;
    const made = await fetch(`${server.url}/api/records/${id}/access/links`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ permission: 'preview' }),
    });
    expect(made.status).toBe(201);
    const { token } = (await made.json()) as { token: string };
    const byQuery = await fetch(`${server.url}/api/records/${id}/draft?token=${token}`);
    expect(byQuery.status).toBe(200);
    // As a landing page's own requests send it, in the cookie the page left.
    const byCookie = await fetch(`${server.url}/api/records/${id}/draft`, {
      headers: { cookie: `cairn_link=${token}` },
    });
    expect(byCookie.status).toBe(200);
    const draftLines = () => {
      const lines = parseLines(server.output());
      const asked = lines.filter((l) => l.req?.url?.startsWith(`/api/records/${id}/draft`));
      const done = lines.filter((l) => l.res && asked.some((a) => a.reqId === l.reqId));
      return { urls: asked.map((l) => l.req!.url), completed: done.length };
    };
    // The completion line of the last request is written after its answer was sent.
    await expect.poll(() => draftLines().completed).toBe(2);
    expect(draftLines().urls).toEqual([
      `/api/records/${id}/draft?token=[redacted]`,
      `/api/records/${id}/draft`,
    ]);
    expectNoSecret(server.output(), [token]);
  });
});
