import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { ENGINES } from '../../test/databases.js';

const CSRF = 'a-fixed-csrf-token-for-throttling';
const PASSWORD = 'correct horse battery';
const WINDOW_SECONDS = 900;

type Response = Awaited<ReturnType<TestApp['request']>>;

/** A 429 as the contract words it, with a Retry-After no later than the window's end. */
function expectThrottled(res: Response, windowSeconds = WINDOW_SECONDS): void {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.json()).toEqual({
    status: 429,
    code: 'RATE_LIMITED',
    message: expect.stringMatching(/^Too many attempts\. Try again in \d+ (seconds?|minutes?)\.$/),
  });
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

let addressCounter = 0;
/** An address no other request of this file came from. */
const freshAddress = () => `10.${(++addressCounter >> 8) & 255}.${addressCounter & 255}.7`;

function attempts(t: TestApp) {
  const post = (url: string, body: object, remoteAddress: string, headers = {}) =>
    t.request({
      method: 'POST',
      url,
      remoteAddress,
      headers: { cookie: `csrftoken=${CSRF}`, 'x-csrftoken': CSRF, ...headers },
      body,
    });
  return {
    login: (email: string, password: string, from: string, headers = {}) =>
      post('/api/auth/login', { email, password }, from, headers),
    signup: (email: string, from: string) =>
      post('/api/auth/signup', { email, password: PASSWORD }, from),
    token: (headers: Record<string, string>, from: string) =>
      t.request({
        method: 'POST',
        url: '/api/user/tokens',
        remoteAddress: from,
        headers,
        body: { name: 'script' },
      }),
  };
}

describe.each(ENGINES)('throttling with the default limits (%s)', (engine) => {
  let t: TestApp;
  let send: ReturnType<typeof attempts>;

  beforeAll(async () => {
    t = await createTestApp(engine, {}, {}, { configuredRateLimits: true });
    send = attempts(t);
  });
  afterAll(() => t.close());

  it('throttles guessing one account from many addresses, the right password too', async () => {
    const { email } = await t.user();
    for (let i = 0; i < 10; i++) {
      expect((await send.login(email, `guess ${i}`, freshAddress())).statusCode).toBe(401);
    }
    expectThrottled(await send.login(email, 'guess 10', freshAddress()));
    // The person whose account it is waits too: the limit cannot tell them from the guesser.
    expectThrottled(await send.login(email, PASSWORD, freshAddress()));
    // Spelled differently, it is the same account.
    expectThrottled(await send.login(`  ${email.toUpperCase()} `, PASSWORD, freshAddress()));
    const other = await t.user();
    expect((await send.login(other.email, PASSWORD, freshAddress())).statusCode).toBe(200);
  });

  it('throttles one address trying many accounts', async () => {
    const from = freshAddress();
    for (let i = 0; i < 100; i++) {
      const res = await send.login(`nobody-${i}@example.org`, 'guess', from);
      expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    expectThrottled(await send.login('nobody-100@example.org', 'guess', from));
    const { email } = await t.user();
    expectThrottled(await send.login(email, PASSWORD, from));
    expect((await send.login(email, PASSWORD, freshAddress())).statusCode).toBe(200);
  });

  it('lets a person who mistypes a few times in', async () => {
    const { email } = await t.user();
    const from = freshAddress();
    for (let i = 0; i < 5; i++) {
      expect((await send.login(email, `typo ${i}`, from)).statusCode).toBe(401);
    }
    const res = await send.login(email, PASSWORD, from);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('leaves other routes alone', async () => {
    const from = freshAddress();
    for (let i = 0; i < 100; i++) await send.login(`someone-${i}@example.org`, 'guess', from);
    expectThrottled(await send.login('someone@example.org', 'guess', from));
    const records = await t.request({ method: 'GET', url: '/api/records', remoteAddress: from });
    expect(records.statusCode).toBe(200);
  });

  it('reads the address from X-Forwarded-For only when told to trust a proxy', async () => {
    const from = freshAddress();
    for (let i = 0; i < 100; i++) {
      const res = await send.login(`forwarded-${i}@example.org`, 'guess', from, {
        'x-forwarded-for': freshAddress(),
      });
      expect(res.statusCode).toBe(401);
    }
    expectThrottled(await send.login('forwarded@example.org', 'guess', from));
  });
});

describe.each(ENGINES)('throttling with configured limits (%s)', (engine) => {
  let t: TestApp;
  let send: ReturnType<typeof attempts>;

  beforeAll(async () => {
    t = await createTestApp(
      engine,
      {
        CAIRN_RATE_LIMIT_LOGIN_PER_ACCOUNT: '3',
        CAIRN_RATE_LIMIT_LOGIN_PER_ADDRESS: '5',
        CAIRN_RATE_LIMIT_SIGNUP_PER_ACCOUNT: '2',
        CAIRN_RATE_LIMIT_SIGNUP_PER_ADDRESS: '4',
        CAIRN_RATE_LIMIT_TOKENS_PER_ACCOUNT: '3',
        CAIRN_RATE_LIMIT_TOKENS_PER_ADDRESS: '4',
        CAIRN_TRUST_PROXY: '10.200.0.0/16',
      },
      {},
      { configuredRateLimits: true },
    );
    send = attempts(t);
  });
  afterAll(() => t.close());

  it('throttles sign-ups per address and per e-mail address', async () => {
    const from = freshAddress();
    for (let i = 0; i < 4; i++) {
      expect((await send.signup(`new-${i}-${engine}@example.org`, from)).statusCode).toBe(201);
    }
    expectThrottled(await send.signup(`new-4-${engine}@example.org`, from));
    const taken = `probe-${engine}@example.org`;
    expect((await send.signup(taken, freshAddress())).statusCode).toBe(201);
    expect((await send.signup(taken, freshAddress())).statusCode).toBe(409);
    expectThrottled(await send.signup(taken, freshAddress()));
  });

  it('throttles token creation per person and per address', async () => {
    const person = await t.user();
    for (let i = 0; i < 3; i++) {
      expect((await send.token(person.headers, freshAddress())).statusCode).toBe(201);
    }
    expectThrottled(await send.token(person.headers, freshAddress()));
    // Listing and revoking tokens are not throttled.
    const list = await t.request({
      method: 'GET',
      url: '/api/user/tokens',
      headers: person.headers,
    });
    expect(list.statusCode).toBe(200);

    const from = freshAddress();
    for (let i = 0; i < 4; i++) {
      const someone = await t.user();
      expect((await send.token(someone.headers, from)).statusCode).toBe(201);
    }
    expectThrottled(await send.token((await t.user()).headers, from));
  });

  it('counts an anonymous token request against the address', async () => {
    const from = freshAddress();
    for (let i = 0; i < 4; i++) expect((await send.token({}, from)).statusCode).toBe(403);
    expectThrottled(await send.token({}, from));
  });

  it('counts the client a trusted proxy names, not the proxy', async () => {
    const proxy = '10.200.0.1';
    const client = freshAddress();
    const viaProxy = (email: string, forwardedFor: string) =>
      send.login(email, 'guess', proxy, { 'x-forwarded-for': forwardedFor });
    for (let i = 0; i < 5; i++) {
      expect((await viaProxy(`proxied-${i}@example.org`, client)).statusCode).toBe(401);
    }
    expectThrottled(await viaProxy('proxied-5@example.org', client));
    // Another client behind the same proxy is not held up.
    expect((await viaProxy('proxied-6@example.org', freshAddress())).statusCode).toBe(401);
  });
});

describe.each(ENGINES)('throttling counters (%s)', (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t.close());

  it('count within a window, start again after it, and are swept once it has ended', async () => {
    const counters = t.services.rateLimits;
    const start = new Date('2030-01-01T00:00:00.000Z');
    const at = (ms: number) => new Date(start.getTime() + ms);
    expect(await counters.hit('test:account:a', 1000, start)).toEqual({
      hits: 1,
      resetAt: '2030-01-01T00:00:01.000Z',
    });
    expect((await counters.hit('test:account:a', 1000, at(999))).hits).toBe(2);
    await counters.hit('test:account:b', 5000, at(500));
    expect(await counters.deleteEnded(at(999))).toBe(0);
    expect(await counters.deleteEnded(at(1000))).toBe(1);
    expect(await counters.hit('test:account:a', 1000, at(1000))).toEqual({
      hits: 1,
      resetAt: '2030-01-01T00:00:02.000Z',
    });
    expect((await counters.hit('test:account:b', 5000, at(1000))).hits).toBe(2);
  });

  it('give every one of many simultaneous attempts its own count', async () => {
    const counts = await Promise.all(
      Array.from({ length: 20 }, () => t.services.rateLimits.hit('test:address:c', 60_000)),
    );
    expect(counts.map((count) => count.hits).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });
});

describe.each(ENGINES)('the throttling window (%s)', (engine) => {
  let t: TestApp;
  let send: ReturnType<typeof attempts>;

  beforeAll(async () => {
    t = await createTestApp(
      engine,
      { CAIRN_RATE_LIMIT_WINDOW_SECONDS: '1', CAIRN_RATE_LIMIT_LOGIN_PER_ACCOUNT: '2' },
      {},
      { configuredRateLimits: true },
    );
    send = attempts(t);
  });
  afterAll(() => t.close());

  it('lets the account in again once Retry-After has passed', async () => {
    const { email } = await t.user();
    expect((await send.login(email, 'guess', freshAddress())).statusCode).toBe(401);
    expect((await send.login(email, 'guess', freshAddress())).statusCode).toBe(401);
    const throttled = await send.login(email, PASSWORD, freshAddress());
    expectThrottled(throttled, 1);
    const wait = Number(throttled.headers['retry-after']) * 1000;
    await new Promise((resolve) => setTimeout(resolve, wait + 100));
    const res = await send.login(email, PASSWORD, freshAddress());
    expect(res.statusCode, res.body).toBe(200);
    // A new window: the count starts again.
    expect((await send.login(email, 'guess', freshAddress())).statusCode).toBe(401);
    expectThrottled(await send.login(email, PASSWORD, freshAddress()), 1);
  });
});
