import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { requestAs } from '../../test/communities.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';

// The query syntax of `GET /api/user/records`, the caller's uploads: the same as `/api/records`
// reads, over published records and drafts alike, on both engines. A draft is searched by what
// it holds now: found by a word saved a moment ago, no longer by the words it lost.

describe.each(ENGINES)("the query syntax of the caller's uploads (%s)", (engine) => {
  let t: TestApp;
  let owner: Caller;
  let files: FilesApi;
  const ids: Record<string, string> = {};
  const nameOf = (id: string) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? id;
  const url = (q: string, more = '') => `/api/user/records?q=${encodeURIComponent(q)}${more}`;

  async function get(u: string) {
    const res = await requestAs(t, 'GET', u, owner);
    return { status: res.statusCode, body: res.json() };
  }
  /** The names of the hits, sorted, and the total. */
  async function found(q: string, more = ''): Promise<string[]> {
    const { status, body } = await get(url(q, more));
    expect(status, `${q}: ${JSON.stringify(body)}`).toBe(200);
    const names = (body.hits.hits as Array<{ id: string }>).map((h) => nameOf(h.id)).sort();
    expect(body.hits.total, q).toBe(names.length);
    return names;
  }

  const metadata = (m: Record<string, unknown>) => ({ ...PUBLISHABLE_METADATA, ...m });

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    files = new FilesApi(t, owner);

    // Published, untouched since.
    const glacier = await files.createDraft({
      metadata: metadata({
        title: 'Glacier mass balance of the Alps',
        creators: [
          { person_or_org: { type: 'personal', family_name: 'Müller', given_name: 'Anna' } },
        ],
        publication_date: '2019-06-01',
        languages: [{ id: 'deu' }],
        subjects: [{ subject: 'Glaciology' }],
      }),
      access: { record: 'public', files: 'public' },
      files: { enabled: true },
    });
    await files.upload(glacier.id, 'balance.csv', 'a,b\n');
    await files.publish(glacier.id);
    ids.glacier = glacier.id;

    // Published, then being edited: it shows, and is searched, as its draft.
    ids.ocean = await files.publishedRecord('Ocean temperatures');
    expect((await requestAs(t, 'POST', `/api/records/${ids.ocean}/draft`, owner)).statusCode).toBe(
      201,
    );
    const edit = await requestAs(t, 'PUT', `/api/records/${ids.ocean}/draft`, owner, {
      metadata: metadata({ title: 'Ocean heat content of the fjords', publication_date: '2021' }),
      access: { record: 'public', files: 'public' },
      files: { enabled: false },
    });
    expect(edit.statusCode, edit.body).toBe(200);

    // Never published.
    const notes = await files.createDraft({
      metadata: metadata({
        title: 'Field notes on icebergs',
        resource_type: { id: 'publication-article' },
        creators: [
          { person_or_org: { type: 'personal', family_name: 'Okafor', given_name: 'Chidi' } },
        ],
        publication_date: '2022-03-01',
        languages: [{ id: 'fra' }],
      }),
      access: { record: 'restricted', files: 'restricted' },
      files: { enabled: true },
    });
    await files.upload(notes.id, 'notes.pdf', '%PDF');
    ids.notes = notes.id;

    // Someone else's draft, which the same words would find: never in the owner's uploads.
    const other = new FilesApi(t, await t.user());
    ids.theirs = (
      await other.createDraft({ metadata: metadata({ title: 'Glacier notes on icebergs' }) })
    ).id;
  });
  afterAll(() => t?.close());

  it('finds whole words, stemmed and accent-insensitively, not parts of other words', async () => {
    // "glaciers" is the plural of the title's "Glacier"; "ice" only a part of "icebergs".
    expect(await found('glaciers')).toEqual(['glacier']);
    expect(await found('ice')).toEqual([]);
    expect(await found('iceberg')).toEqual(['notes']);
    expect(await found('muller')).toEqual(['glacier']);
    // Every word must be found; a published record is found by its words as a draft's are.
    expect(await found('notes icebergs')).toEqual(['notes']);
    expect(await found('notes ocean')).toEqual([]);
  });

  it('matches fields, drafts included: texts, terms, dates, access and files', async () => {
    expect(await found('metadata.title:icebergs')).toEqual(['notes']);
    expect(await found('metadata.creators.person_or_org.family_name:Müller')).toEqual(['glacier']);
    expect(await found('metadata.creators.person_or_org.name:okafor')).toEqual(['notes']);
    expect(await found('metadata.resource_type.id:publication')).toEqual(['notes']);
    expect(await found('metadata.resource_type.id:dataset')).toEqual(['glacier', 'ocean']);
    expect(await found('metadata.languages.id:(fra OR deu)')).toEqual(['glacier', 'notes']);
    expect(await found('metadata.subjects.subject:Glaciology')).toEqual(['glacier']);
    expect(await found('files.entries.ext:pdf')).toEqual(['notes']);
    expect(await found('files.entries.ext:csv')).toEqual(['glacier']);
    expect(await found('metadata.publication_date:[2020 TO 2022]')).toEqual(['notes', 'ocean']);
    expect(await found('metadata.publication_date:2019')).toEqual(['glacier']);
    expect(await found('access.status:restricted')).toEqual(['notes']);
    expect(await found('access.status:metadata-only')).toEqual(['ocean']);
    expect(await found(`id:${ids.notes}`)).toEqual(['notes']);
  });

  it('matches phrases, prefixes and the boolean operators', async () => {
    expect(await found('"heat content"')).toEqual(['ocean']);
    expect(await found('"content heat"')).toEqual([]);
    expect(await found('metadata.title:"mass balance"')).toEqual(['glacier']);
    expect(await found('fjord*')).toEqual(['ocean']);
    expect(await found('glacier OR fjords')).toEqual(['glacier', 'ocean']);
    expect(await found('notes -metadata.title:icebergs')).toEqual([]);
    expect(await found('(ocean OR icebergs) AND NOT access.status:restricted')).toEqual(['ocean']);
    // The word the edit removed no longer finds the record while its draft is open.
    expect(await found('temperatures')).toEqual([]);
  });

  it('counts published and unpublished uploads over what the query finds', async () => {
    const { body } = await get(url('glacier OR icebergs OR fjords'));
    expect(body.hits.total).toBe(3);
    const buckets = Object.fromEntries(
      (body.aggregations.is_published.buckets as Array<{ key: string; doc_count: number }>).map(
        (b) => [b.key, b.doc_count],
      ),
    );
    expect(buckets).toEqual({ true: 2, false: 1 });
    expect(await found('glacier OR icebergs', '&is_published=false')).toEqual(['notes']);
    expect(await found('glacier OR icebergs', '&is_published=true')).toEqual(['glacier']);
  });

  it('answers a query it cannot parse with a 400 that says where', async () => {
    for (const [query, where] of [
      ['metadata.title:(', 'character 17'],
      ['"heat content', 'character 1'],
      ['metadata.nope:x', 'character 1'],
      ['*lacier', 'character 1'],
    ]) {
      const { status, body } = await get(url(query!));
      expect(status, query).toBe(400);
      expect(body.status).toBe(400);
      expect(body.message, query).toContain('Invalid query string syntax.');
      expect(body.message, query).toContain(where);
    }
  });

  // Last: these change the fixtures.
  it('finds a draft by a word saved a moment ago, and follows files and a discard', async () => {
    const saved = await requestAs(t, 'PUT', `/api/records/${ids.notes}/draft`, owner, {
      metadata: metadata({ title: 'Moraine survey', publication_date: '2022-03-01' }),
      access: { record: 'restricted', files: 'restricted' },
      files: { enabled: true },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await found('moraine')).toEqual(['notes']);
    expect(await found('icebergs')).toEqual([]);
    // The draft kept its file: its type is still found after the save.
    expect(await found('files.entries.ext:pdf')).toEqual(['notes']);
    expect((await files.delete(ids.notes!, 'notes.pdf')).statusCode).toBe(204);
    expect(await found('files.entries.ext:pdf')).toEqual([]);

    // Discarding the edit: the published record is found again by its own words.
    const discarded = await requestAs(t, 'DELETE', `/api/records/${ids.ocean}/draft`, owner);
    expect(discarded.statusCode, discarded.body).toBe(204);
    expect(await found('fjords')).toEqual([]);
    expect(await found('temperatures')).toEqual(['ocean']);
  });
});
