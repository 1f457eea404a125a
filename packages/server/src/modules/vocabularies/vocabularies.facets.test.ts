import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { requestAs } from '../../test/communities.js';
import type { Caller } from '../../test/files.js';

// The filters and sorts of the vocabulary searches not covered beside their routes: `tags` on
// the large vocabularies (taken literally, wildcards included), the scheme facet of subjects,
// and both sorts with a query on the small ones. Results checked on both engines.

describe.each(ENGINES)('vocabulary searches: tags, facets and sorts (%s)', (engine) => {
  let t: TestApp;
  let admin: Caller;

  const ids = async (url: string) => {
    const res = await requestAs(t, 'GET', url, admin);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return (res.json().hits.hits as Array<{ id: string }>).map((h) => h.id);
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.user(undefined, { admin: true });
    for (const subject of [
      { id: 'https://ex.org/s/1', scheme: 'ex', subject: 'Glaciology', tags: ['earth', 'ice'] },
      { id: 'https://ex.org/s/2', scheme: 'ex', subject: 'Glacial lakes', tags: ['water'] },
      { id: 'https://ex.org/s/3', scheme: 'other', subject: 'Glacier physics', tags: ['a_b'] },
      { id: 'https://ex.org/s/4', scheme: 'other', subject: 'Oceanography' },
    ]) {
      const res = await requestAs(t, 'POST', '/api/subjects', admin, subject);
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(() => t?.close());

  it('filters the large vocabularies by tags, one or several, taken literally', async () => {
    expect(await ids('/api/subjects?tags=ice')).toEqual(['https://ex.org/s/1']);
    expect(await ids('/api/subjects?tags=ice&tags=water&sort=subject')).toEqual([
      'https://ex.org/s/2',
      'https://ex.org/s/1',
    ]);
    expect(await ids('/api/subjects?q=glac&tags=water')).toEqual(['https://ex.org/s/2']);
    expect(await ids('/api/subjects?tags=a_b')).toEqual(['https://ex.org/s/3']);
    // LIKE's wildcards in a tag are characters, not patterns.
    expect(await ids('/api/subjects?tags=%25')).toEqual([]);
    expect(await ids('/api/subjects?tags=a%25')).toEqual([]);
    expect(await ids('/api/subjects?tags=_')).toEqual([]);
    expect(await ids('/api/subjects?tags=a_')).toEqual([]);
    expect(await ids('/api/subjects?tags=nope')).toEqual([]);
  });

  it('sorts subjects by subject or best match, within a scheme typed before a colon', async () => {
    expect(await ids('/api/subjects?sort=subject')).toEqual([
      'https://ex.org/s/2',
      'https://ex.org/s/3',
      'https://ex.org/s/1',
      'https://ex.org/s/4',
    ]);
    expect(await ids('/api/subjects?q=glaciology')).toEqual(['https://ex.org/s/1']);
    expect(await ids('/api/subjects?q=glac&sort=subject')).toEqual([
      'https://ex.org/s/2',
      'https://ex.org/s/3',
      'https://ex.org/s/1',
    ]);
    expect(await ids('/api/subjects?suggest=other:glac')).toEqual(['https://ex.org/s/3']);
    expect(await ids('/api/subjects?q=glac&size=2&page=2&sort=subject')).toEqual([
      'https://ex.org/s/1',
    ]);
  });

  it('sorts the small vocabularies by title or best match with a query', async () => {
    const titles = async (url: string) => {
      const res = await requestAs(t, 'GET', url);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().hits.hits as Array<{ title: { en: string } }>).map((h) => h.title.en);
    };
    const bestmatch = await titles('/api/vocabularies/languages?q=german');
    expect(bestmatch[0]).toBe('German');
    const byTitle = await titles('/api/vocabularies/languages?q=german&sort=title');
    expect(byTitle).toEqual([...byTitle].sort((a, b) => a.localeCompare(b, 'en')));
    expect(new Set(byTitle)).toEqual(new Set(bestmatch));
    const tagged = await requestAs(
      t,
      'GET',
      '/api/vocabularies/licenses?tags=recommended&size=100',
    );
    for (const hit of tagged.json().hits.hits as Array<{ tags: string[] }>)
      expect(hit.tags).toContain('recommended');
    expect((await titles('/api/vocabularies/licenses?tags=%25')).length).toBe(0);
  });
});
