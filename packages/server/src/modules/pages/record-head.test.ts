import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/app.js';
import { ENGINES } from '../../test/databases.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';
import { createPagesTestApp } from '../../test/pages.js';

const HOSTILE = `Gulls </script><script>alert(1)</script> & "quotes" <b>`;

/** The landing page's <head>, and the JSON-LD script in it parsed. */
function headOf(html: string) {
  const head = html.slice(0, html.indexOf('</head>'));
  const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(head)?.[1];
  const metas = [...head.matchAll(/<meta name="([^"]+)" content="([^"]*)">/g)].map((m) => [
    m[1],
    m[2],
  ]);
  return { head, ld: ld ? JSON.parse(ld) : undefined, metas };
}

describe.each(ENGINES)('landing page head (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let api: FilesApi;

  async function published(
    metadata: Record<string, unknown>,
    access?: Record<string, unknown>,
  ): Promise<string> {
    const { id } = await api.createDraft({ metadata, ...(access ? { access } : {}) });
    const doi = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/pids/doi`,
      headers: owner.headers,
    });
    expect(doi.statusCode, doi.body).toBe(201);
    await api.upload(id, 'paper.pdf', '%PDF-1.4 minimal');
    await api.publish(id);
    return id;
  }

  beforeAll(async () => {
    t = await createPagesTestApp(engine);
    owner = await t.user();
    api = new FilesApi(t, owner);
  });
  afterAll(() => t.close());

  it('gives Google Scholar its citation tags and search engines the schema.org JSON-LD', async () => {
    const id = await published({
      ...PUBLISHABLE_METADATA,
      title: 'Seabird colony counts',
      creators: [
        { person_or_org: { type: 'personal', family_name: 'Lovelace', given_name: 'Ada' } },
        { person_or_org: { type: 'organizational', name: 'Polar Institute' } },
      ],
      publisher: 'Cairn Press',
      subjects: [{ subject: 'ornithology' }],
    });
    const res = await t.request({ method: 'GET', url: `/records/${id}` });
    expect(res.statusCode).toBe(200);
    const { head, ld, metas } = headOf(res.body);
    expect(head).toContain('<title>Seabird colony counts | Cairn</title>');
    expect(head).toContain(`<link rel="canonical" href="https://cairn.test/records/${id}">`);
    const pdf = `https://cairn.test/api/records/${id}/files/paper.pdf/content`;
    expect(metas).toEqual(
      expect.arrayContaining([
        ['citation_title', 'Seabird colony counts'],
        ['citation_author', 'Lovelace, Ada'],
        ['citation_author', 'Polar Institute'],
        ['citation_publication_date', '2024/05/01'],
        ['citation_doi', `10.5072/${id}`],
        ['citation_publisher', 'Cairn Press'],
        ['citation_keywords', 'ornithology'],
        ['citation_pdf_url', pdf],
      ]),
    );
    expect(metas.filter(([name]) => name === 'citation_author')).toHaveLength(2);
    expect(head).toContain(
      `<link rel="alternate" type="application/x-bibtex" title="BibTeX" href="https://cairn.test/records/${id}/export/bibtex">`,
    );
    const exported = await t.request({
      method: 'GET',
      url: `/api/records/${id}`,
      headers: { accept: 'application/ld+json' },
    });
    expect(ld).toEqual(exported.json());
    expect(ld.distribution[0].contentUrl).toBe(pdf);
  });

  it('escapes what the depositor wrote, in attributes, the title and the JSON-LD', async () => {
    const id = await published({
      ...PUBLISHABLE_METADATA,
      title: HOSTILE,
      creators: [{ person_or_org: { type: 'organizational', name: HOSTILE } }],
    });
    const res = await t.request({ method: 'GET', url: `/records/${id}` });
    const { head, ld, metas } = headOf(res.body);
    expect(head).not.toContain('<script>alert(1)');
    expect(head).not.toContain('<b>');
    expect(head).toContain(
      '<title>Gulls &#60;/script&#62;&#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;quotes&#34; &#60;b&#62; | Cairn</title>',
    );
    expect(metas).toContainEqual([
      'citation_title',
      'Gulls &#60;/script&#62;&#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;quotes&#34; &#60;b&#62;',
    ]);
    expect(ld.name).toBe(HOSTILE);
    // One ld+json script, one bootstrap script, and the module entry: nothing the title added.
    expect(res.body.match(/<script/g)).toHaveLength(3);
  });

  it('names no PDF of a record whose files are restricted or embargoed', async () => {
    const until = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    for (const access of [
      { record: 'public', files: 'restricted', embargo: { active: false } },
      { record: 'public', files: 'restricted', embargo: { active: true, until } },
    ]) {
      const id = await published({ ...PUBLISHABLE_METADATA }, access);
      const { head, metas, ld } = headOf(
        (await t.request({ method: 'GET', url: `/records/${id}` })).body,
      );
      expect(metas.map(([name]) => name)).not.toContain('citation_pdf_url');
      expect(ld).not.toHaveProperty('distribution');
      const beforeBootstrap = head.slice(0, head.indexOf('id="cairn-bootstrap"'));
      expect(beforeBootstrap).not.toContain('paper.pdf');
    }
  });

  it('tells a stranger nothing about a restricted record', async () => {
    const id = await published(
      { ...PUBLISHABLE_METADATA, title: 'Secret colony' },
      { record: 'restricted', files: 'restricted', embargo: { active: false } },
    );
    const res = await t.request({ method: 'GET', url: `/records/${id}` });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('Secret colony');
    expect(res.body).not.toContain('citation_');
    expect(res.body).not.toContain('application/ld+json');
  });

  it('keeps a draft preview out of search engines and citation indexes', async () => {
    const { id } = await api.createDraft({ metadata: { ...PUBLISHABLE_METADATA } });
    const res = await t.request({
      method: 'GET',
      url: `/records/${id}?preview=1`,
      headers: owner.headers,
    });
    expect(res.statusCode).toBe(200);
    const { head } = headOf(res.body);
    expect(head).toContain('<meta name="robots" content="noindex">');
    expect(head).not.toContain('citation_');
    expect(head).not.toContain('application/ld+json');
  });

  it('sends a link to all versions to the latest one and still shows an older version', async () => {
    const { id: first } = await api.createDraft({
      metadata: { ...PUBLISHABLE_METADATA, title: 'Ice cores, first release' },
    });
    await api.upload(first, 'cores.csv', 'depth,age');
    await api.publish(first);
    const next = await t.request({
      method: 'POST',
      url: `/api/records/${first}/versions`,
      headers: owner.headers,
    });
    expect(next.statusCode, next.body).toBe(201);
    const draft = next.json<{
      id: string;
      parent: { id: string };
      metadata: Record<string, unknown>;
    }>();
    const { id: second, parent } = draft;
    const titled = await t.request({
      method: 'PUT',
      url: `/api/records/${second}/draft`,
      headers: owner.headers,
      payload: { ...draft, metadata: { ...draft.metadata, title: 'Ice cores, second release' } },
    });
    expect(titled.statusCode, titled.body).toBe(200);
    await api.upload(second, 'cores.csv', 'depth,age,dust');
    await api.publish(second);

    const all = await t.request({ method: 'GET', url: `/records/${parent.id}` });
    expect(all.statusCode).toBe(302);
    expect(all.headers.location).toBe(`/records/${second}`);
    const older = await t.request({ method: 'GET', url: `/records/${first}` });
    expect(older.statusCode).toBe(200);
    expect(headOf(older.body).head).toContain('Ice cores, first release');
    const stranger = await t.request({ method: 'GET', url: '/records/abcde-12345' });
    expect(stranger.statusCode).toBe(404);
  });
});
