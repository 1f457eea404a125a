import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectError, expectValidationFailed } from '../../test/assertions.js';

const VND = { accept: 'application/vnd.inveniordm.v1+json' };
const BASE = 'https://cairn.test/api/vocabularies';

describe.each(ENGINES)('vocabularies API on %s', (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url, headers });
  const ids = (body: Record<string, any>) =>
    (body.hits.hits as Array<{ id: string }>).map((h) => h.id);

  it('finds German by an English word prefix, exact title first', async () => {
    const res = await get('/api/vocabularies/languages?q=germ');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.sortBy).toBe('bestmatch');
    expect(body.aggregations).toEqual({});
    expect(ids(body)).toContain('deu');
    expect(ids(body)[0]).toBe('deu');
    expect(body.hits.total).toBeGreaterThan(1);
  });

  it('matches German titles case-insensitively and localizes them with ln=de', async () => {
    const res = await get('/api/vocabularies/languages?q=DEUTSCH&ln=de', VND);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.hits.hits[0]).toMatchObject({ id: 'deu', title_l10n: 'Deutsch' });
    // Words in a title match by prefix too: Schweizerdeutsch is found only by substring.
    expect(ids(body)).toContain('gsw');
    expect(ids(body).indexOf('gsw')).toBeGreaterThan(ids(body).indexOf('deu'));
  });

  it('ignores accents on both sides', async () => {
    const plain = await get('/api/vocabularies/languages?q=franzosisch');
    // Französisch first; Alt- and Mittelfranzösisch match by substring only.
    expect(ids(plain.json())[0]).toBe('fra');
    const accented = await get(`/api/vocabularies/languages?q=${encodeURIComponent('FRÉNCH')}`);
    expect(ids(accented.json())).toContain('fra');
  });

  it('matches several words in any order and ids exactly', async () => {
    const res = await get('/api/vocabularies/languages?q=swiss+germ');
    expect(ids(res.json())).toContain('gsw');
    const reversed = await get('/api/vocabularies/languages?q=germ+swiss');
    expect(ids(reversed.json())).toEqual(ids(res.json()));
    const byId = await get('/api/vocabularies/licenses?q=cc-by-4.0');
    expect(ids(byId.json())[0]).toBe('cc-by-4.0');
  });

  it('serves suggest like q, and refuses both at once', async () => {
    const res = await get('/api/vocabularies/languages?suggest=germ&size=20');
    expect(res.statusCode).toBe(200);
    expect(res.json().sortBy).toBe('bestmatch');
    expect(ids(res.json())).toContain('deu');
    expect(res.json().links.self).toBe(
      `${BASE}/languages?page=1&size=20&sort=bestmatch&suggest=germ`,
    );
    const both = await get('/api/vocabularies/languages?q=germ&suggest=germ');
    expect(both.statusCode).toBe(400);
  });

  it('filters licences by tag', async () => {
    const res = await get('/api/vocabularies/licenses?tags=recommended&size=100');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(ids(body)).toEqual(expect.arrayContaining(['cc-by-4.0', 'mit']));
    expect(body.hits.hits.every((h: { tags: string[] }) => h.tags.includes('recommended'))).toBe(
      true,
    );
    const all = await get('/api/vocabularies/licenses?size=1');
    expect(all.json().hits.total).toBeGreaterThan(body.hits.total);
  });

  it('sorts by title without a query and pages with the contract links', async () => {
    const first = await get('/api/vocabularies/titletypes?size=1&type=ignored&foo=bar');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    const total = body.hits.total as number;
    expect(total).toBe(4);
    expect(body.sortBy).toBe('title');
    expect(body.links).toEqual({
      self: `${BASE}/titletypes?page=1&size=1&sort=title`,
      next: `${BASE}/titletypes?page=2&size=1&sort=title`,
    });
    const titles: string[] = [];
    for (let page = 1; page <= total; page++) {
      const res = await get(`/api/vocabularies/titletypes?size=1&page=${page}`);
      titles.push(res.json().hits.hits[0].title.en);
      if (page === total) expect(Object.keys(res.json().links).sort()).toEqual(['prev', 'self']);
    }
    expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b)));
    const past = await get(`/api/vocabularies/titletypes?size=1&page=${total + 2}`);
    expect(past.statusCode).toBe(200);
    expect(past.json().hits.hits).toEqual([]);
    expect(Object.keys(past.json().links)).toEqual(['self']);
  });

  it('refuses bad size, page and sort', async () => {
    expectValidationFailed(await get('/api/vocabularies/languages?size=0'), [
      { field: 'size', messages: ['Must be greater than or equal to 1.'] },
    ]);
    expectValidationFailed(await get('/api/vocabularies/languages?page=x'), [
      { field: 'page', messages: ['Not a valid integer.'] },
    ]);
    expectValidationFailed(await get('/api/vocabularies/languages?sort=newest'), [
      { field: 'sort', messages: ["Invalid sort option 'newest'."] },
    ]);
    const big = await get('/api/vocabularies/languages?size=10000');
    expect(big.statusCode).toBe(200);
    expect(big.json().hits.hits.length).toBe(Math.min(10000, big.json().hits.total as number));
  });

  it('answers 404 for an unknown type or id', async () => {
    const message = 'The persistent identifier does not exist.';
    expectError(await get('/api/vocabularies/invalid'), 404, 'PID_DOES_NOT_EXIST', message);
    expectError(await get('/api/vocabularies/invalid/'), 404, 'PID_DOES_NOT_EXIST', message);
    expectError(await get('/api/vocabularies/invalid/deu'), 404, 'PID_DOES_NOT_EXIST', message);
    expectError(await get('/api/vocabularies/languages/nope'), 404, 'PID_DOES_NOT_EXIST', message);
    // An id of another vocabulary is not found in this one.
    expectError(await get('/api/vocabularies/licenses/deu'), 404, 'PID_DOES_NOT_EXIST', message);
  });

  it('survives very long and odd queries', async () => {
    const long = await get(`/api/vocabularies/languages?q=${'ab '.repeat(3400)}`);
    expect(long.statusCode).toBeLessThan(500);
    const words = Array.from({ length: 2000 }, (_, i) => `w${i}`).join('+');
    expect((await get(`/api/vocabularies/languages?q=${words}`)).statusCode).toBeLessThan(500);
    for (const q of ['%00', '%F0%9F%92%A9', '%ED%A0%80', '%E2%80%8B', '***', '%C3%9F', '"(']) {
      const res = await get(`/api/vocabularies/languages?q=${q}`);
      expect(res.statusCode, q).toBeLessThan(500);
    }
  });

  it('reads one entry as plain JSON', async () => {
    const res = await get('/api/vocabularies/licenses/cc-by-4.0');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toMatchObject({
      id: 'cc-by-4.0',
      type: 'licenses',
      title: { en: expect.any(String) },
      links: { self: `${BASE}/licenses/cc-by-4.0` },
    });
    expect(body.tags).toContain('recommended');
    const lang = await get('/api/vocabularies/languages/deu');
    expect(lang.json().title).toEqual({ en: 'German', de: 'Deutsch' });
  });

  it('gives the localized subset with the vnd Accept header', async () => {
    const item = await get('/api/vocabularies/languages/deu?ln=de', VND);
    expect(item.headers['content-type']).toMatch(/^application\/vnd\.inveniordm\.v1\+json/);
    expect(item.json()).toEqual({
      id: 'deu',
      title_l10n: 'Deutsch',
      props: { alpha_2: 'de' },
      tags: [],
    });
    const english = await get('/api/vocabularies/languages/deu', VND);
    expect(english.json().title_l10n).toBe('German');
    const header = await get('/api/vocabularies/languages/deu', {
      ...VND,
      'accept-language': 'de-DE,de;q=0.9',
    });
    expect(header.json().title_l10n).toBe('Deutsch');
    // An unknown locale falls back to the default one.
    const fallback = await get('/api/vocabularies/languages/deu?ln=xx', VND);
    expect(fallback.json().title_l10n).toBe('German');

    const search = await get('/api/vocabularies/licenses?tags=recommended&q=mit', VND);
    const body = search.json();
    expect(Object.keys(body).sort()).toEqual(['hits', 'links', 'sortBy']);
    const hit = body.hits.hits.find((h: { id: string }) => h.id === 'mit');
    expect(
      Object.keys(hit).every((k) =>
        ['id', 'title_l10n', 'description_l10n', 'icon', 'props', 'tags'].includes(k),
      ),
    ).toBe(true);
    expect(hit.title_l10n).toEqual(expect.any(String));
  });

  it('refuses an Accept header it cannot serve', async () => {
    const res = await get('/api/vocabularies/languages', { accept: 'text/html' });
    expect(res.statusCode).toBe(406);
  });
});
