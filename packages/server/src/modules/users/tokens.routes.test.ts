import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectError, expectValidationFailed } from '../../test/assertions.js';
import { ENGINES } from '../../test/databases.js';

type Caller = Awaited<ReturnType<TestApp['user']>>;

describe.each(ENGINES)('personal access tokens API (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let other: Caller;
  const csrf = 'a-fixed-csrf-token-for-tests-0002';

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    other = await t.user();
  });
  afterAll(() => t.close());

  const list = async (caller: Caller) => {
    const res = await t.request({
      method: 'GET',
      url: '/api/user/tokens',
      headers: caller.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().hits.hits as Array<{ id: string; name: string }>;
  };
  const create = (caller: Caller, body?: object | string) =>
    t.request({ method: 'POST', url: '/api/user/tokens', headers: caller.headers, body });
  const me = (token: string) =>
    t.request({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });

  it('creates a token shown once, lists it without its secret, and revokes it at once', async () => {
    const res = await create(owner, { name: '  laptop scripts  ' });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({ name: 'laptop scripts', last_used: null });
    expect(created.token).toMatch(/^cairn_/);
    expect(created.created).toMatch(/^\d{4}-\d{2}-\d{2}T.*\+00:00$/);
    expect((await me(created.token)).json().email).toBe(owner.email);

    const listed = await list(owner);
    expect(listed.find((x) => x.id === created.id)).toEqual({
      id: created.id,
      name: 'laptop scripts',
      created: created.created,
      last_used: null,
    });
    expect(JSON.stringify(listed)).not.toContain(created.token);
    expect(JSON.stringify(await list(other))).not.toContain('laptop');

    const revoke = await t.request({
      method: 'DELETE',
      url: `/api/user/tokens/${created.id}`,
      headers: owner.headers,
    });
    expect(revoke.statusCode).toBe(204);
    expect((await me(created.token)).statusCode).toBe(403);
    expect((await list(owner)).map((x) => x.id)).not.toContain(created.id);
  });

  it('names a token "token" when no name is given', async () => {
    const res = await create(owner);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().name).toBe('token');
  });

  it.each([
    ['a number as name', { name: 7 }, [{ field: 'name', messages: ['Not a valid string.'] }]],
    [
      'a name too long',
      { name: 'x'.repeat(101) },
      [{ field: 'name', messages: ['Longer than maximum length 100.'] }],
    ],
    ['an array body', [1], [{ field: '_schema', messages: ['Invalid input type.'] }]],
    ['a string body', 'laptop', [{ field: '_schema', messages: ['Invalid input type.'] }]],
  ])('refuses %s with 400 and creates nothing', async (_label, body, errors) => {
    const before = await list(owner);
    const res = await create(owner, typeof body === 'string' ? JSON.stringify(body) : body);
    expectValidationFailed(res, errors);
    expect(await list(owner)).toEqual(before);
  });

  it("answers 404 for an unknown id or someone else's token, which keeps working", async () => {
    const theirs = (await create(other, { name: 'theirs' })).json();
    for (const id of [theirs.id, '999999', 'abc', '1e3']) {
      const res = await t.request({
        method: 'DELETE',
        url: `/api/user/tokens/${id}`,
        headers: owner.headers,
      });
      expectError(res, 404, 'NOT_FOUND', 'Not found.');
    }
    expect((await me(theirs.token)).json().email).toBe(other.email);
  });

  it('is for signed-in people only', async () => {
    for (const [method, url] of [
      ['GET', '/api/user/tokens'],
      ['POST', '/api/user/tokens'],
      ['DELETE', '/api/user/tokens/1'],
    ] as const) {
      const res = await t.request({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    // The body is judged after the caller: a bad one does not turn the 403 into a 400.
    const res = await t.request({ method: 'POST', url: '/api/user/tokens', body: { name: 7 } });
    expect(res.statusCode, res.body).toBe(403);
  });

  it('needs the CSRF header when a browser session creates or revokes one', async () => {
    const signup = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      headers: { cookie: `csrftoken=${csrf}`, 'x-csrftoken': csrf },
      body: { email: `tokens-${engine}@example.org`, password: 'long enough pw' },
    });
    const session = signup.cookies.find((c) => c.name === 'cairn_session')?.value;
    const cookie = `cairn_session=${session}; csrftoken=${csrf}`;
    const forged = await t.request({
      method: 'POST',
      url: '/api/user/tokens',
      headers: { cookie },
      body: { name: 'forged' },
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().code).toBe('CSRF_FAILED');
    const listed = await t.request({ method: 'GET', url: '/api/user/tokens', headers: { cookie } });
    expect(listed.json().hits.total).toBe(0);
    const ok = await t.request({
      method: 'POST',
      url: '/api/user/tokens',
      headers: { cookie, 'x-csrftoken': csrf },
      body: { name: 'from the page' },
    });
    expect(ok.statusCode).toBe(201);
  });
});
