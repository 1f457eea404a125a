import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AggregationsSchema, type Aggregations } from '@cairn/shared';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createCommunity, requestAs } from '../../test/communities.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';

// The query syntax of `GET /api/records` (fields, phrases, ranges, boolean operators, wildcards),
// its relevance order, its facets and the answers to queries it cannot run, on both engines.

interface Fixture {
  title: string;
  description?: string;
  creators?: Array<{ family: string; given: string }>;
  type: string;
  date: string;
  languages?: string[];
  subjects?: string[];
  files?: string[];
}

const RECORDS = {
  glacier: {
    title: 'Glacier mass balance of the Alps',
    description: '<p>Annual measurements on twelve glaciers.</p>',
    creators: [{ family: 'Müller', given: 'Anna' }],
    type: 'dataset',
    date: '2019-06-01',
    languages: ['eng', 'deu'],
    subjects: ['Glaciology', 'Climate change'],
    files: ['balance.csv', 'readme.txt'],
  },
  ocean: {
    title: 'Ocean heat content',
    description: '<p>Floats near a glacier front and in the open sea.</p>',
    creators: [{ family: 'Okafor', given: 'Chidi' }],
    type: 'dataset',
    date: '2021-03',
    languages: ['eng'],
    subjects: ['Oceanography'],
    files: ['heat.nc'],
  },
  article: {
    title: 'Why sea ice melts',
    description: '<p>An article on mass loss: ice sheet dynamics.</p>',
    creators: [{ family: 'Muller', given: 'Bert' }],
    type: 'publication-article',
    date: '2021',
    languages: ['fra'],
    subjects: ['Climate change'],
    files: ['paper.PDF'],
  },
  photo: {
    title: 'Photographs of the ice sheet',
    description: '<p>Sheet of ice, photographed from the air.</p>',
    type: 'image-photo',
    date: '2023-11-20',
    files: ['a.jpg', 'b.jpg'],
  },
} satisfies Record<string, Fixture>;
type Name = keyof typeof RECORDS;

describe.each(ENGINES)('the records query syntax, relevance and facets (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  const ids = {} as Record<Name, string>;
  const nameOf = (id: string) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? id;
  let communityId: string;

  async function get(url: string) {
    const res = await requestAs(t, 'GET', url);
    return { status: res.statusCode, body: res.json() };
  }
  /** The names of the hits of `url`, in the order found. */
  async function names(url: string): Promise<string[]> {
    const { status, body } = await get(url);
    expect(status, `${url}: ${JSON.stringify(body)}`).toBe(200);
    return (body.hits.hits as Array<{ id: string }>).map((h) => nameOf(h.id));
  }
  const q = (query: string) => `/api/records?q=${encodeURIComponent(query)}`;
  const sorted = async (url: string) => (await names(url)).sort();

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    const files = new FilesApi(t, owner);
    let hour = 0;
    for (const [name, f] of Object.entries(RECORDS) as Array<[Name, Fixture]>) {
      const { id } = await files.createDraft({
        metadata: {
          ...PUBLISHABLE_METADATA,
          title: f.title,
          publication_date: f.date,
          resource_type: { id: f.type },
          ...(f.description ? { description: f.description } : {}),
          ...(f.creators
            ? {
                creators: f.creators.map((c) => ({
                  person_or_org: { type: 'personal', family_name: c.family, given_name: c.given },
                })),
              }
            : {}),
          ...(f.languages ? { languages: f.languages.map((l) => ({ id: l })) } : {}),
          ...(f.subjects ? { subjects: f.subjects.map((s) => ({ subject: s })) } : {}),
        },
        access: { record: 'public', files: 'public' },
        files: { enabled: (f.files ?? []).length > 0 },
      });
      for (const key of f.files ?? []) await files.upload(id, key, 'x');
      await files.publish(id);
      ids[name] = id;
      hour++;
      const at = new Date(Date.UTC(2024, 0, 1, hour)).toISOString();
      await t.services.database.db
        .updateTable('records')
        .set({ publishedAt: at, createdAt: at })
        .where('id', '=', id)
        .execute();
    }
    communityId = await createCommunity(t, owner, 'cryosphere', { review_policy: 'open' });
    for (const id of [ids.glacier, ids.photo]) {
      const res = await requestAs(t, 'POST', `/api/records/${id}/communities`, owner, {
        communities: [{ id: communityId }],
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(() => t?.close());

  it('finds words in any part of the record, stemmed, case- and accent-insensitively', async () => {
    expect(await sorted(q('GLACIERS'))).toEqual(['glacier', 'ocean']);
    // Müller and Muller are one name to a reader typing either.
    expect(await sorted(q('muller'))).toEqual(['article', 'glacier']);
    expect(await sorted(q('Müller'))).toEqual(['article', 'glacier']);
    expect(await sorted(q('oceanography'))).toEqual(['ocean']);
    // Every word must be found (InvenioRDM's default operator is AND).
    expect(await sorted(q('ice sheet'))).toEqual(['article', 'photo']);
    expect(await sorted(q('ice ocean'))).toEqual([]);
  });

  it('matches a field on its own part of the record', async () => {
    expect(await sorted(q('metadata.title:glacier'))).toEqual(['glacier']);
    expect(await sorted(q('metadata.description:glacier'))).toEqual(['glacier', 'ocean']);
    expect(await sorted(q('metadata.creators.person_or_org.family_name:Müller'))).toEqual([
      'article',
      'glacier',
    ]);
    expect(await sorted(q('metadata.creators.person_or_org.name:okafor'))).toEqual(['ocean']);
    expect(await sorted(q('metadata.resource_type.id:dataset'))).toEqual(['glacier', 'ocean']);
    // A type takes its subtypes in; a subtype is matched on its own.
    expect(await sorted(q('metadata.resource_type.id:publication'))).toEqual(['article']);
    expect(await sorted(q('metadata.resource_type.id:image-photo'))).toEqual(['photo']);
    expect(await sorted(q('metadata.languages.id:(fra OR deu)'))).toEqual(['article', 'glacier']);
    expect(await sorted(q('metadata.subjects.subject:"Climate change"'))).toEqual([
      'article',
      'glacier',
    ]);
    expect(await sorted(q(`parent.communities.ids:${communityId}`))).toEqual(['glacier', 'photo']);
    expect(await sorted(q(`id:${ids.ocean}`))).toEqual(['ocean']);
  });

  it('matches phrases, ranges, prefixes and the boolean operators', async () => {
    expect(await sorted(q('"ice sheet"'))).toEqual(['article', 'photo']);
    expect(await sorted(q('"sheet ice"'))).toEqual([]);
    expect(await sorted(q('metadata.title:"ice sheet"'))).toEqual(['photo']);
    expect(await sorted(q('metadata.publication_date:[2020 TO 2021]'))).toEqual([
      'article',
      'ocean',
    ]);
    expect(await sorted(q('metadata.publication_date:{2019 TO *]'))).toEqual([
      'article',
      'ocean',
      'photo',
    ]);
    // A year alone is its first day, as a search engine reads a partial date.
    expect(await sorted(q('metadata.publication_date:[* TO 2021-03}'))).toEqual([
      'article',
      'glacier',
    ]);
    expect(await sorted(q('metadata.publication_date:2021'))).toEqual(['article', 'ocean']);
    expect(await sorted(q('photo*'))).toEqual(['photo']);
    expect(await sorted(q('metadata.title:glac*'))).toEqual(['glacier']);
    expect(await sorted(q('glacier OR photographs'))).toEqual(['glacier', 'ocean', 'photo']);
    expect(await sorted(q('glacier -ocean'))).toEqual(['glacier']);
    expect(await sorted(q('glacier AND NOT metadata.title:glacier'))).toEqual(['ocean']);
    expect(await sorted(q('-ice'))).toEqual(['glacier', 'ocean']);
    expect(await sorted(q('(ice OR ocean) AND metadata.resource_type.id:dataset'))).toEqual([
      'ocean',
    ]);
  });

  it('ranks a word in the title over the description, an exact phrase first, ties newest first', async () => {
    // Both mention a glacier; the one with it in the title comes first.
    expect(await names(q('glacier'))).toEqual(['glacier', 'ocean']);
    // The photo holds "ice sheet" in its title as a phrase; the article only in its description.
    expect(await names(q('ice sheet'))).toEqual(['photo', 'article']);
    // The same score is ordered by publication, newest first.
    expect(await names(`${q('metadata.resource_type.id:dataset')}&sort=bestmatch`)).toEqual([
      'ocean',
      'glacier',
    ]);
  });

  it('answers a query it cannot parse with a 400 that says where, and never a 5xx', async () => {
    for (const [query, where] of [
      ['metadata.title:(', 'character 17'],
      ['"ice sheet', 'character 1'],
      ['metadata.nope:x', 'character 1'],
      ['metadata.publication_date:[2019 TO', 'character 35'],
      ['*lacier', 'character 1'],
      ['metadata.title:[a TO b]', 'character 16'],
    ]) {
      const { status, body } = await get(q(query!));
      expect(status, query).toBe(400);
      expect(body.status).toBe(400);
      expect(body.message, query).toContain('Invalid query string syntax.');
      expect(body.message, query).toContain(where);
    }
    const many = Array.from({ length: 1000 }, (_, i) => `w${i}`).join(' ');
    expect((await get(q(many))).status).toBe(400);
    for (const bad of ['publication_date=21', 'size=0', 'page=x', 'access_status=shut']) {
      expect((await get(`/api/records?${bad}`)).status, bad).toBe(400);
    }
  });

  it('counts every facet over the query, before its filters, each bucket labelled', async () => {
    const { body } = await get(`${q('ice OR glacier')}&resource_type=dataset`);
    expect((body.hits.hits as unknown[]).length).toBe(2);
    const aggs: Aggregations = AggregationsSchema.parse(body.aggregations);
    const buckets = (facet: string) =>
      Object.fromEntries(aggs[facet]!.buckets.map((b) => [b.key, b.doc_count]));
    // Counted over the four records the query finds, not the two the filter keeps.
    expect(buckets('resource_type')).toEqual({ dataset: 2, publication: 1, image: 1 });
    const publication = aggs.resource_type!.buckets.find((b) => b.key === 'publication')!;
    expect(publication.inner?.buckets.map((b) => [b.key, b.doc_count])).toEqual([
      ['publication-article', 1],
    ]);
    expect(aggs.resource_type!.buckets.find((b) => b.key === 'dataset')?.is_selected).toBe(true);
    expect(buckets('file_type')).toEqual({ csv: 1, txt: 1, nc: 1, pdf: 1, jpg: 1 });
    expect(buckets('language')).toEqual({ eng: 2, deu: 1, fra: 1 });
    expect(buckets('subject')).toEqual({ Glaciology: 1, 'Climate change': 2, Oceanography: 1 });
    expect(buckets('community')).toEqual({ [communityId]: 2 });
    expect(buckets('publication_date')).toEqual({ '2019': 1, '2021': 2, '2023': 1 });
    expect(buckets('access_status')).toEqual({ open: 4 });
    for (const facet of Object.values(aggs))
      for (const b of facet.buckets) expect(b.label.length).toBeGreaterThan(0);
    expect(aggs.language!.buckets.find((b) => b.key === 'eng')?.label).toBe('English');
    expect(aggs.community!.buckets[0]!.label).not.toBe(communityId);
    expect(aggs.file_type!.buckets.find((b) => b.key === 'pdf')?.label).toBe('PDF');
  });

  it('filters by several values of one facet (OR) and by several facets (AND)', async () => {
    expect(await sorted('/api/records?language=fra&language=deu')).toEqual(['article', 'glacier']);
    expect(await sorted('/api/records?language=eng&file_type=nc')).toEqual(['ocean']);
    expect(await sorted('/api/records?resource_type=publication')).toEqual(['article']);
    // InvenioRDM's spelling of a subtype as a filter.
    expect(await sorted('/api/records?resource_type=image::image-photo')).toEqual(['photo']);
    expect(await sorted('/api/records?publication_date=2021&subject=Climate%20change')).toEqual([
      'article',
    ]);
    expect(await sorted(`/api/records?community=${communityId}&file_type=jpg`)).toEqual(['photo']);
    expect(await sorted('/api/records?subject=Nothing%20like%20it')).toEqual([]);
  });

  it('sees an edit at once', async () => {
    const draft = await requestAs(t, 'POST', `/api/records/${ids.photo}/draft`, owner);
    expect(draft.statusCode, draft.body).toBe(201);
    const data = draft.json();
    const saved = await requestAs(t, 'PUT', `/api/records/${ids.photo}/draft`, owner, {
      ...data,
      metadata: { ...data.metadata, title: 'Aerial photographs of a moraine' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const published = await requestAs(
      t,
      'POST',
      `/api/records/${ids.photo}/draft/actions/publish`,
      owner,
    );
    expect(published.statusCode, published.body).toBe(202);
    expect(await sorted(q('metadata.title:moraine'))).toEqual(['photo']);
    expect(await sorted(q('metadata.title:sheet'))).toEqual([]);
  });
});
