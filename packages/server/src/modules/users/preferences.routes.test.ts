import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectValidationFailed } from '../../test/assertions.js';
import { ENGINES } from '../../test/databases.js';

type Caller = Awaited<ReturnType<TestApp['user']>>;

describe.each(ENGINES)('preferences API (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let other: Caller;

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    other = await t.user();
  });
  afterAll(() => t.close());

  const read = async (caller: Caller) => {
    const res = await t.request({
      method: 'GET',
      url: '/api/user/preferences',
      headers: caller.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ locale: string | null; email_notifications: boolean }>();
  };
  const write = (caller: Caller, body: object | string) =>
    t.request({ method: 'PUT', url: '/api/user/preferences', headers: caller.headers, body });

  it('keeps the language a person chose with their account, and only theirs', async () => {
    expect(await read(owner)).toEqual({ locale: null, email_notifications: true });
    const res = await write(owner, { locale: 'de' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ locale: 'de', email_notifications: true });
    expect(await read(owner)).toEqual({ locale: 'de', email_notifications: true });
    expect(await read(other)).toEqual({ locale: null, email_notifications: true });
  });

  it('turns e-mail notifications off and on, keeping what is not sent', async () => {
    const off = await write(other, { email_notifications: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ locale: null, email_notifications: false });
    expect(await read(other)).toEqual({ locale: null, email_notifications: false });
    const both = await write(other, { locale: 'en', email_notifications: true });
    expect(both.json()).toEqual({ locale: 'en', email_notifications: true });
    expect((await write(other, { locale: 'de' })).json()).toEqual({
      locale: 'de',
      email_notifications: true,
    });
    expect(await read(owner)).toMatchObject({ email_notifications: true });
    for (const body of [{ email_notifications: 'no' }, { email_notifications: null }]) {
      expectValidationFailed(await write(other, body), [
        { field: 'email_notifications', messages: ['Not a valid boolean.'] },
      ]);
    }
    expect(await read(other)).toEqual({ locale: 'de', email_notifications: true });
  });

  it('gives parallel changes of both preferences each their effect', async () => {
    const caller = await t.user();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        write(
          caller,
          i % 2 ? { locale: i % 4 === 1 ? 'de' : 'en' } : { email_notifications: false },
        ),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(await read(caller)).toMatchObject({ email_notifications: false });
  });

  it('refuses a language the site does not offer, naming the field, and keeps the last one', async () => {
    await write(owner, { locale: 'de' });
    for (const body of [{ locale: 'fr' }, { locale: 7 }, {}, [1], JSON.stringify('de')]) {
      expectValidationFailed(await write(owner, body), [
        { field: 'locale', messages: ['Must be one of: en, de.'] },
      ]);
    }
    expect(await read(owner)).toEqual({ locale: 'de', email_notifications: true });
  });

  it('needs a signed-in person, whatever the body holds', async () => {
    const res = await t.request({ method: 'GET', url: '/api/user/preferences' });
    expect(res.statusCode).toBe(403);
    for (const body of [{ locale: 'de' }, { locale: 7 }]) {
      const put = await t.request({ method: 'PUT', url: '/api/user/preferences', body });
      expect(put.statusCode, put.body).toBe(403);
    }
  });

  it('is documented as a Cairn extension', async () => {
    const res = await t.request({ method: 'GET', url: '/api/docs/openapi.json' });
    expect(res.statusCode, res.body).toBe(200);
    const path = res.json().paths['/api/user/preferences'] as Record<string, { tags: string[] }>;
    expect(Object.keys(path).sort()).toEqual(['get', 'put']);
    expect(path['put']?.tags).toEqual(['Cairn extension']);
  });
});
