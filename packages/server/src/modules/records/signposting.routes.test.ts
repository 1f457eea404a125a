import LinkHeader from 'http-link-header';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TestApp } from '../../test/app.js';
import { ENGINES } from '../../test/databases.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';
import { createPagesTestApp } from '../../test/pages.js';
import { EXPORT_FORMATS } from './exports/export-formats.js';

const SITE = 'https://cairn.test';
const ORCID = '0000-0002-1825-0097';
const LICENCE = 'https://creativecommons.org/licenses/by/4.0/legalcode';
const CUSTOM_LICENCE = 'https://example.org/licences/field-notes';

const METADATA = {
  ...PUBLISHABLE_METADATA,
  resource_type: { id: 'publication-article' },
  creators: [
    {
      person_or_org: {
        type: 'personal',
        family_name: 'Carberry',
        given_name: 'Josiah',
        identifiers: [{ scheme: 'orcid', identifier: ORCID }],
      },
    },
    { person_or_org: { type: 'personal', family_name: 'Curie', given_name: 'Marie' } },
    { person_or_org: { type: 'organizational', name: 'Polar Institute' } },
  ],
  rights: [{ id: 'cc-by-4.0' }, { title: { en: 'Field notes licence' }, link: CUSTOM_LICENCE }],
};

/** An absolute URI, as RFC 9264 wants anchors and targets. */
const Uri = z.string().refine((s) => URL.canParse(s) && !/[\s<>"]/.test(s), 'absolute URI');

/**
 * RFC 9264 section 4.2: `{"linkset": [context…]}`, each context an `anchor` and relation types
 * holding arrays of target objects; a target's `href` is required, `type` and `title` are
 * strings, `hreflang` and extension attributes are arrays.
 */
const TargetSchema = z.looseObject({
  href: Uri,
  type: z.string().min(1).optional(),
  title: z.string().optional(),
  hreflang: z.array(z.string()).optional(),
  'title*': z.array(z.object({ value: z.string(), language: z.string().optional() })).optional(),
});
const ContextSchema = z.looseObject({ anchor: Uri }).superRefine((context, ctx) => {
  for (const [rel, targets] of Object.entries(context)) {
    if (rel === 'anchor') continue;
    const parsed = z.array(TargetSchema).min(1).safeParse(targets);
    if (!parsed.success) ctx.addIssue({ code: 'custom', message: `${rel}: ${parsed.error}` });
    for (const target of parsed.data ?? []) {
      for (const [name, value] of Object.entries(target)) {
        if (!['href', 'type', 'title', 'media', 'hreflang', 'title*'].includes(name)) {
          if (!Array.isArray(value)) ctx.addIssue({ code: 'custom', message: `${name}: array` });
        }
      }
    }
  }
});
const LinksetSchema = z.strictObject({ linkset: z.array(ContextSchema).min(1) });

type Linkset = { linkset: Array<Record<string, any> & { anchor: string }> };

function links(header: string | string[] | number | undefined) {
  expect(typeof header).toBe('string');
  return LinkHeader.parse(header as string);
}

describe.each(ENGINES)('FAIR Signposting (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let api: FilesApi;

  async function published(
    options: {
      metadata?: Record<string, unknown>;
      access?: Record<string, unknown>;
      files?: string[];
      doi?: boolean;
    } = {},
  ): Promise<string> {
    const { id } = await api.createDraft({
      metadata: options.metadata ?? METADATA,
      ...(options.access ? { access: options.access } : {}),
    });
    if (options.doi !== false) {
      const doi = await t.request({
        method: 'POST',
        url: `/api/records/${id}/draft/pids/doi`,
        headers: owner.headers,
      });
      expect(doi.statusCode, doi.body).toBe(201);
    }
    for (const key of options.files ?? ['paper.pdf']) await api.upload(id, key, `bytes of ${key}`);
    await api.publish(id);
    return id;
  }

  beforeAll(async () => {
    // Two links per relation at most in the header, so that three files show the cap.
    t = await createPagesTestApp(engine, { CAIRN_SIGNPOSTING_MAX_ITEMS: '2' });
    owner = await t.user();
    api = new FilesApi(t, owner);
  });
  afterAll(() => t.close());

  it('signposts a landing page: one cite-as, metadata, types, files, licences, ORCID authors', async () => {
    const id = await published({ files: ['paper.pdf'] });
    const res = await t.request({ method: 'GET', url: `/records/${id}` });
    expect(res.statusCode).toBe(200);
    const link = links(res.headers.link);
    const landing = `${SITE}/records/${id}`;
    const metadata = `${SITE}/api/records/${id}`;

    expect(link.rel('cite-as').map((l) => l.uri)).toEqual([`https://doi.org/10.5072/${id}`]);
    const described = link.rel('describedby');
    expect(described.every((l) => l.uri === metadata)).toBe(true);
    // Every format a client may ask for by Accept, without the parameters of its media type.
    expect(described.map((l) => l.type)).toEqual([
      'application/json',
      ...EXPORT_FORMATS.flatMap((f) => (f.mediaType ? [f.mediaType.split(';')[0]!.trim()] : [])),
    ]);
    expect(link.rel('type').map((l) => l.uri)).toEqual([
      'https://schema.org/ScholarlyArticle',
      'https://schema.org/AboutPage',
    ]);
    expect(link.rel('item')).toEqual([
      {
        uri: `${metadata}/files/paper.pdf/content`,
        rel: 'item',
        type: 'application/pdf',
      },
    ]);
    expect(link.rel('license').map((l) => l.uri)).toEqual([LICENCE, CUSTOM_LICENCE]);
    // Marie Curie has no ORCID and the institute is no person: one author link.
    expect(link.rel('author').map((l) => l.uri)).toEqual([`https://orcid.org/${ORCID}`]);
    expect(link.rel('linkset').map((l) => [l.uri, l.type])).toEqual([
      [metadata, 'application/linkset+json'],
      [metadata, 'application/linkset'],
    ]);
    // Every link is about the landing page itself: none names another anchor.
    expect(link.refs.every((l) => l.anchor === undefined)).toBe(true);
    expect(link.refs.map((l) => l.uri)).not.toContain(landing);

    // The file's content names the landing page it belongs to, and the linkset.
    const content = await t.request({ method: 'GET', url: `${metadata}/files/paper.pdf/content` });
    expect(content.statusCode).toBe(200);
    expect(links(content.headers.link).rel('collection')).toEqual([
      { uri: landing, rel: 'collection', type: 'text/html' },
    ]);
    expect(links(content.headers.link).rel('linkset')).toHaveLength(2);

    // Signposting clients often ask with HEAD.
    const head = await t.request({ method: 'HEAD', url: `/records/${id}` });
    expect(head.headers.link).toBe(res.headers.link);
  });

  it('cites a record without a DOI by its landing page', async () => {
    const id = await published({ doi: false });
    const res = await t.request({ method: 'GET', url: `/records/${id}` });
    expect(links(res.headers.link).rel('cite-as')).toEqual([
      { uri: `${SITE}/records/${id}`, rel: 'cite-as' },
    ]);
  });

  it('lists at most CAIRN_SIGNPOSTING_MAX_ITEMS files and authors in the header, all in the linkset', async () => {
    const people = ['0000-0001-5109-3700', '0000-0002-1694-233X', ORCID].map((orcid, i) => ({
      person_or_org: {
        type: 'personal',
        family_name: `Author ${i}`,
        identifiers: [{ scheme: 'orcid', identifier: orcid }],
      },
    }));
    const id = await published({
      metadata: { ...METADATA, creators: people },
      files: ['a.csv', 'b.csv', 'c.csv'],
    });
    const link = links((await t.request({ method: 'GET', url: `/records/${id}` })).headers.link);
    expect(link.rel('item')).toHaveLength(2);
    expect(link.rel('author').map((l) => l.uri)).toEqual([
      'https://orcid.org/0000-0001-5109-3700',
      'https://orcid.org/0000-0002-1694-233X',
    ]);
    const set = (
      await t.request({
        method: 'GET',
        url: `/api/records/${id}`,
        headers: { accept: 'application/linkset+json' },
      })
    ).json<Linkset>();
    expect(set.linkset[0]!.item).toHaveLength(3);
    expect(set.linkset[0]!.author).toHaveLength(3);
  });

  it('lists no files of a record whose files are restricted or embargoed', async () => {
    const until = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    for (const access of [
      { record: 'public', files: 'restricted', embargo: { active: false } },
      { record: 'public', files: 'restricted', embargo: { active: true, until } },
    ]) {
      const id = await published({ access });
      const res = await t.request({ method: 'GET', url: `/records/${id}` });
      expect(res.statusCode).toBe(200);
      const link = links(res.headers.link);
      expect(link.rel('item')).toEqual([]);
      expect(link.rel('cite-as')).toHaveLength(1);
      expect(String(res.headers.link)).not.toContain('paper.pdf');
    }
  });

  it('gives a restricted record the owner reads its signposts without files, strangers nothing', async () => {
    const id = await published({
      access: { record: 'restricted', files: 'restricted', embargo: { active: false } },
    });
    const mine = await t.request({ method: 'GET', url: `/records/${id}`, headers: owner.headers });
    expect(mine.statusCode).toBe(200);
    const link = links(mine.headers.link);
    expect(link.rel('cite-as')).toHaveLength(1);
    expect(link.rel('item')).toEqual([]);
    expect(link.rel('linkset')).toHaveLength(2);
    const stranger = await t.request({ method: 'GET', url: `/records/${id}` });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.headers.link).toBeUndefined();
    const linkset = await t.request({
      method: 'GET',
      url: `/api/records/${id}`,
      headers: { accept: 'application/linkset+json' },
    });
    expect(linkset.statusCode).toBe(403);
  });

  it('signposts no draft preview, missing record or redirect', async () => {
    const { id } = await api.createDraft({ metadata: { ...METADATA } });
    const preview = await t.request({
      method: 'GET',
      url: `/records/${id}?preview=1`,
      headers: owner.headers,
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.headers.link).toBeUndefined();
    const missing = await t.request({ method: 'GET', url: '/records/abcde-12345' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.link).toBeUndefined();
    // The latest version's address only redirects; the page it leads to carries the links.
    const record = await published();
    const latest = await t.request({ method: 'GET', url: `/records/${record}/latest` });
    expect(latest.statusCode).toBe(302);
    expect(latest.headers.link).toBeUndefined();
    const target = await t.request({ method: 'GET', url: String(latest.headers.location) });
    expect(links(target.headers.link).rel('cite-as')).toHaveLength(1);
  });

  it('answers the linkset in RFC 9264 JSON, with a context for each file and the metadata', async () => {
    const id = await published({ files: ['paper.pdf', 'data.csv'] });
    const res = await t.request({
      method: 'GET',
      url: `/api/records/${id}`,
      headers: { accept: 'application/linkset+json' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/linkset\+json\b/);
    LinksetSchema.parse(res.json());
    const set = res.json<Linkset>();
    const landing = `${SITE}/records/${id}`;
    const metadata = `${SITE}/api/records/${id}`;
    const [page, ...others] = set.linkset;
    expect(page!.anchor).toBe(landing);
    expect(page!['cite-as']).toEqual([{ href: `https://doi.org/10.5072/${id}` }]);
    expect(page!.author).toEqual([{ href: `https://orcid.org/${ORCID}` }]);
    expect(page!.license).toEqual([{ href: LICENCE }, { href: CUSTOM_LICENCE }]);
    expect(page!.item.map((i: { type: string }) => i.type).sort()).toEqual([
      'application/pdf',
      'text/csv',
    ]);
    // The linkset does not link to itself.
    expect(page).not.toHaveProperty('linkset');
    const back = [{ href: landing, type: 'text/html' }];
    expect(others).toEqual(
      expect.arrayContaining([
        { anchor: `${metadata}/files/paper.pdf/content`, collection: back },
        { anchor: `${metadata}/files/data.csv/content`, collection: back },
        { anchor: metadata, describes: back },
      ]),
    );
    expect(others).toHaveLength(3);
    // The level 1 header says the same of the landing page.
    const header = links((await t.request({ method: 'GET', url: `/records/${id}` })).headers.link);
    for (const rel of ['cite-as', 'describedby', 'type', 'item', 'license', 'author']) {
      expect(header.rel(rel).map((l) => l.uri)).toEqual(
        page![rel].map((target: { href: string }) => target.href),
      );
    }
  });

  it('answers the linkset in RFC 9264 text form, which an RFC 8288 parser reads whole', async () => {
    const id = await published({ files: ['paper.pdf'] });
    const [json, text] = await Promise.all(
      ['application/linkset+json', 'application/linkset'].map((accept) =>
        t.request({ method: 'GET', url: `/api/records/${id}`, headers: { accept } }),
      ),
    );
    expect(text!.statusCode).toBe(200);
    expect(text!.headers['content-type']).toMatch(/^application\/linkset(;|$)/);
    const parsed = LinkHeader.parse(text!.body);
    const expected = json!.json<Linkset>().linkset.flatMap(({ anchor, ...rels }) =>
      Object.entries(rels).flatMap(([rel, targets]) =>
        (targets as Array<{ href: string; type?: string }>).map((target) => ({
          uri: target.href,
          rel,
          anchor,
          ...(target.type ? { type: target.type } : {}),
        })),
      ),
    );
    expect(parsed.refs).toEqual(expected);
    expect(text!.body.split(',\n')).toHaveLength(expected.length);
  });

  it('keeps the other Accept types and refuses unknown ones as before', async () => {
    const id = await published();
    const record = await t.request({ method: 'GET', url: `/api/records/${id}` });
    expect(record.statusCode).toBe(200);
    expect(record.json()).toMatchObject({ id });
    const link = links(record.headers.link);
    expect(link.rel('describes')).toEqual([
      { uri: `${SITE}/records/${id}`, rel: 'describes', type: 'text/html' },
    ]);
    expect(link.rel('linkset')).toHaveLength(2);
    const bibtex = await t.request({
      method: 'GET',
      url: `/api/records/${id}`,
      headers: { accept: 'application/x-bibtex' },
    });
    expect(bibtex.headers['content-type']).toContain('application/x-bibtex');
    expect(links(bibtex.headers.link).rel('describes')).toHaveLength(1);
    const download = await t.request({ method: 'GET', url: `/records/${id}/export/bibtex` });
    expect(download.statusCode).toBe(200);
    expect(links(download.headers.link).rel('linkset')).toHaveLength(2);
    const refused = await t.request({
      method: 'GET',
      url: `/api/records/${id}`,
      headers: { accept: 'application/linkset+xml' },
    });
    expect(refused.statusCode).toBe(406);
    expect(refused.json().message).toContain('application/linkset+json');
  });
});
