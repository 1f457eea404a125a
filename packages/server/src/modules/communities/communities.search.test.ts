import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseSearchText } from '../vocabularies/search-text.js';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import type { Caller } from '../../test/files.js';

/**
 * Community search answers from each engine's trigram index (FTS5 / pg_trgm) with the meaning it
 * had as a scan: every query word is a substring of the community's text. Checked against that
 * rule computed here, over words short and long, accents, wildcards and every kind of write.
 */
const COMMUNITIES: Array<[slug: string, title: string, description?: string]> = [
  ['glacier-lab', 'Glacier Lab', 'Ice cores and firn'],
  ['glaciology', 'Glaciology network'],
  ['cafe-sciences', 'Café des Sciences', 'Réseau de vulgarisation'],
  ['muenchen-geo', 'Münchner Geowissenschaften'],
  ['ai-ml', 'AI and ML methods', 'Machine learning, 3D scans'],
  ['percent', '100% reproducible', 'under_score and 50% off'],
  ['river-delta', 'River delta observatory', 'Sediment flux'],
];

const QUERIES = [
  'glacier',
  'glac',
  'GLACIER lab',
  'cores ice',
  'ci',
  'ai',
  'café',
  'cafe',
  'reseau',
  'münchner',
  'muenchner',
  '3d',
  '100%',
  '%',
  'under_score',
  'delta observ',
  'ology',
  'sediment zzz',
  'xyz',
];

describe.each(ENGINES)('community search by trigram index on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  const texts = new Map<string, string>();

  const search = async (q: string) => {
    const res = await t.request({
      method: 'GET',
      url: `/api/communities?q=${encodeURIComponent(q)}&size=100&sort=oldest`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().hits.hits as Array<{ slug: string }>).map((h) => h.slug);
  };
  /** The rule the index must keep: every normalised word is a substring of the text. */
  const expected = (q: string) => {
    const words = normaliseSearchText(q).split(' ').filter(Boolean);
    return COMMUNITIES.map(([slug]) => slug).filter((slug) =>
      words.every((w) => texts.get(slug)!.includes(w)),
    );
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    for (const [slug, title, description] of COMMUNITIES) {
      const res = await t.request({
        method: 'POST',
        url: '/api/communities',
        headers: owner.headers,
        body: { slug, metadata: { title, ...(description ? { description } : {}) } },
      });
      expect(res.statusCode, res.body).toBe(201);
      texts.set(slug, normaliseSearchText([slug, title, description].filter(Boolean).join(' ')));
    }
  });
  afterAll(() => t.close());

  it.each(QUERIES)('q=%s finds exactly the communities containing every word', async (q) => {
    const want = expected(q);
    expect(await search(q)).toEqual(
      q.trim() === '' || normaliseSearchText(q) === '' ? COMMUNITIES.map(([s]) => s) : want,
    );
  });

  it('counts every match on each page, and past the last one', async () => {
    for (const page of [1, 2, 3]) {
      const res = await t.request({
        method: 'GET',
        url: `/api/communities?q=glac&size=1&page=${page}`,
      });
      expect(res.json().hits.total).toBe(2);
      expect(res.json().hits.hits).toHaveLength(page <= 2 ? 1 : 0);
    }
  });

  it('keeps the index in step with updates, renames and deletes', async () => {
    const put = await t.request({
      method: 'PUT',
      url: '/api/communities/river-delta',
      headers: owner.headers,
      body: { metadata: { title: 'Estuary observatory' } },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await search('sediment')).toEqual([]);
    expect(await search('river delta')).toEqual(['river-delta']); // the slug still says so
    expect(await search('estuary')).toEqual(['river-delta']);
    const rename = await t.request({
      method: 'POST',
      url: '/api/communities/river-delta/rename',
      headers: owner.headers,
      body: { slug: 'estuaries' },
    });
    expect(rename.statusCode, rename.body).toBe(200);
    expect(await search('river')).toEqual([]);
    expect(await search('estuaries')).toEqual(['estuaries']);
    const del = await t.request({
      method: 'DELETE',
      url: '/api/communities/glaciology',
      headers: owner.headers,
    });
    expect(del.statusCode).toBe(204);
    expect(await search('glac')).toEqual(['glacier-lab']);
  });
});
