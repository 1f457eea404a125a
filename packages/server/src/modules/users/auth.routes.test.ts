import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { hashSecret } from './users.service.js';

function cookiesOf(res: {
  cookies: Array<{ name: string; value: string }>;
}): Record<string, string> {
  return Object.fromEntries(res.cookies.map((c) => [c.name, c.value]));
}

describe.each(ENGINES)('accounts, sessions, CSRF and tokens on %s', (engine) => {
  let t: TestApp;
  const csrf = 'a-fixed-csrf-token-for-tests-0001';

  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t.close());

  async function signup(email: string) {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      headers: { cookie: `csrftoken=${csrf}`, 'x-csrftoken': csrf },
      body: { email, password: 'long enough pw', name: 'Tester' },
    });
    return res;
  }

  it('signs up, sets an HttpOnly SameSite=Lax session cookie, and the session authenticates', async () => {
    const res = await signup('signup@example.org');
    expect(res.statusCode).toBe(201);
    const session = res.cookies.find((c) => c.name === 'cairn_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    const me = await t.request({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: `cairn_session=${session?.value}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('signup@example.org');
  });

  it('reports every sign-up problem at once and refuses a taken address with 409', async () => {
    const bad = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      headers: { cookie: `csrftoken=${csrf}`, 'x-csrftoken': csrf },
      body: { email: 'nope', password: 'short' },
    });
    expect(bad.statusCode).toBe(400);
    expect((bad.json().errors as Array<{ field: string }>).map((e) => e.field).sort()).toEqual([
      'email',
      'password',
    ]);
    await signup('taken@example.org');
    const again = await signup('TAKEN@example.org');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('EMAIL_TAKEN');
  });

  it('logs in with the right password only', async () => {
    await signup('login@example.org');
    const wrong = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { cookie: `csrftoken=${csrf}`, 'x-csrftoken': csrf },
      body: { email: 'login@example.org', password: 'wrong password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Invalid email or password.');
    const right = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { cookie: `csrftoken=${csrf}`, 'x-csrftoken': csrf },
      body: { email: 'login@example.org', password: 'long enough pw' },
    });
    expect(right.statusCode).toBe(200);
    expect(cookiesOf(right).cairn_session).toBeTruthy();
  });

  it('refuses an address PostgreSQL could not store (400 naming it), not a 500', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { cookie: `csrftoken=${csrf}`, 'x-csrftoken': csrf },
      payload: JSON.stringify({ email: 'nobody\u0000@example.org', password: 'x\ud800' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { field: 'email', messages: ['Text must not contain the NUL character (U+0000).'] },
      {
        field: 'password',
        messages: ['Text must be well-formed Unicode: this holds an unpaired UTF-16 surrogate.'],
      },
    ]);
  });

  it('requires the CSRF header on unsafe cookie-authenticated requests and changes nothing without it', async () => {
    const res = await signup('csrf@example.org');
    const session = cookiesOf(res).cairn_session;
    const noHeader = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: { cookie: `cairn_session=${session}; csrftoken=${csrf}` },
      body: { metadata: { title: 'Nope' } },
    });
    expect(noHeader.statusCode).toBe(403);
    expect(noHeader.json().code).toBe('CSRF_FAILED');
    const wrongHeader = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: { cookie: `cairn_session=${session}; csrftoken=${csrf}`, 'x-csrftoken': 'other' },
      body: { metadata: { title: 'Nope' } },
    });
    expect(wrongHeader.statusCode).toBe(403);
    const list = await t.request({
      method: 'GET',
      url: '/api/user/records',
      headers: { cookie: `cairn_session=${session}` },
    });
    expect(list.json().hits.total).toBe(0);
    const ok = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: { cookie: `cairn_session=${session}; csrftoken=${csrf}`, 'x-csrftoken': csrf },
      body: { metadata: { title: 'Yes' } },
    });
    expect(ok.statusCode).toBe(201);
  });

  it('treats an unknown session as anonymous', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/user/records',
      headers: { cookie: 'cairn_session=forged' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Permission denied.');
  });

  it('treats an expired session as anonymous, and it changes nothing', async () => {
    const session = cookiesOf(await signup('expired@example.org')).cairn_session!;
    const cookie = `cairn_session=${session}; csrftoken=${csrf}`;
    const before = await t.request({
      method: 'GET',
      url: '/api/user/records',
      headers: { cookie },
    });
    expect(before.statusCode).toBe(200);

    await t.services.database.db
      .updateTable('sessions')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', hashSecret(session))
      .execute();

    const list = await t.request({ method: 'GET', url: '/api/user/records', headers: { cookie } });
    expect(list.statusCode).toBe(403);
    expect(list.json()).toEqual({
      status: 403,
      code: 'PERMISSION_DENIED',
      message: 'Permission denied.',
    });
    const me = await t.request({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.statusCode).toBe(403);
    const create = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: { cookie, 'x-csrftoken': csrf },
      body: { metadata: { title: 'Too late' } },
    });
    expect(create.statusCode).toBe(403);
    expect(create.json().code).toBe('PERMISSION_DENIED');
    const owned = await t.services.database.db
      .selectFrom('parents')
      .innerJoin('users', 'users.id', 'parents.ownerId')
      .select('parents.id')
      .where('users.email', '=', 'expired@example.org')
      .execute();
    expect(owned).toEqual([]);
  });

  it.each(['/api/auth/login', '//api/auth/login', '/api/auth/login/'])(
    'requires the CSRF header on %s, however the path is spelt',
    async (url) => {
      await signup('spelt@example.org');
      const res = await t.request({
        method: 'POST',
        url,
        body: { email: 'spelt@example.org', password: 'long enough pw' },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('CSRF_FAILED');
      expect(res.cookies.find((c) => c.name === 'cairn_session')).toBeUndefined();
    },
  );

  it('accepts bearer tokens without CSRF, and treats a bad token as anonymous (403, not 401)', async () => {
    const user = await t.user();
    const ok = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: user.headers,
      body: { metadata: { title: 'Via token' } },
    });
    expect(ok.statusCode).toBe(201);
    const bad = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: { authorization: 'Bearer not-a-token' },
      body: {},
    });
    expect(bad.statusCode).toBe(403);
    expect(bad.json().message).toBe('Permission denied.');
  });

  it('logs out: the session no longer authenticates', async () => {
    const res = await signup('logout@example.org');
    const session = cookiesOf(res).cairn_session;
    const out = await t.request({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: `cairn_session=${session}; csrftoken=${csrf}`, 'x-csrftoken': csrf },
    });
    expect(out.statusCode).toBe(204);
    const me = await t.request({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: `cairn_session=${session}` },
    });
    expect(me.statusCode).toBe(403);
  });

  it('logs out through the /logout link: the session is deleted, both cookies cleared, and it redirects', async () => {
    const session = cookiesOf(await signup('logout-link@example.org')).cairn_session!;
    // The same person signed in elsewhere: that session must outlive this log-out.
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { cookie: `csrftoken=${csrf}`, 'x-csrftoken': csrf },
      body: { email: 'logout-link@example.org', password: 'long enough pw' },
    });
    const elsewhere = cookiesOf(login).cairn_session!;
    const stored = (token: string) =>
      t.services.database.db
        .selectFrom('sessions')
        .select('id')
        .where('id', '=', hashSecret(token))
        .execute();
    expect(await stored(session)).toHaveLength(1);

    // A plain link: no CSRF header, as a click on "Log out" sends none.
    const out = await t.request({
      method: 'GET',
      url: '/logout',
      headers: { cookie: `cairn_session=${session}; csrftoken=${csrf}` },
    });
    expect(out.statusCode).toBe(302);
    expect(out.headers.location).toBe('/');
    const cleared = Object.fromEntries(out.cookies.map((c) => [c.name, c]));
    for (const name of ['cairn_session', 'csrftoken']) {
      expect(cleared[name], name).toMatchObject({ value: '', path: '/' });
      expect(cleared[name]!.expires!.getTime(), name).toBeLessThanOrEqual(Date.now());
    }
    expect(await stored(session)).toHaveLength(0);
    const me = await t.request({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: `cairn_session=${session}` },
    });
    expect(me.statusCode).toBe(403);
    const other = await t.request({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: `cairn_session=${elsewhere}` },
    });
    expect(other.statusCode).toBe(200);

    // Without a session (a second click, an expired cookie) it still clears and redirects.
    const again = await t.request({ method: 'GET', url: '/logout' });
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe('/');
  });
  it('finds people by part of their name or their whole address, never showing an address', async () => {
    const make = (email: string, name: string) =>
      t.services.users.createUser({ email, password: 'long enough pw', name });
    const ada = await make('ada.finder@example.org', 'Ada Lovelace-Finder');
    await make('grace.finder@example.org', 'Grace Hopper-Finder');
    const caller = await t.user();
    const find = async (q: string, who: { headers: Record<string, string> } | null = caller) =>
      t.request({
        method: 'GET',
        url: `/api/users?q=${encodeURIComponent(q)}`,
        headers: who?.headers ?? {},
      });
    const byName = await find('finder');
    expect(byName.statusCode, byName.body).toBe(200);
    expect(
      byName.json().hits.hits.map((h: { profile: { full_name: string } }) => h.profile.full_name),
    ).toEqual(['Ada Lovelace-Finder', 'Grace Hopper-Finder']);
    expect(byName.body).not.toContain('@example.org');
    // A whole address finds its person; part of one does not.
    expect((await find('ADA.finder@example.org')).json().hits.hits).toEqual([
      { id: String(ada.id), username: null, profile: { full_name: 'Ada Lovelace-Finder' } },
    ]);
    expect((await find('ada.finder@')).json().hits.total).toBe(0);
    // One letter finds no one; wildcards are taken literally; anonymous callers are refused.
    expect((await find('a')).json().hits.total).toBe(0);
    expect((await find('%%')).json().hits.total).toBe(0);
    expect((await find('finder', null)).statusCode).toBe(403);
    expect(
      (await t.request({ method: 'GET', url: '/api/users?size=21', headers: caller.headers }))
        .statusCode,
    ).toBe(400);
  });
});
