import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createCommunity } from '../../test/communities.js';
import { ENGINES } from '../../test/databases.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';
import { schemaErrors } from '../../test/xml.js';

const SITE = 'https://cairn.test';
const XSD = fileURLToPath(new URL('./sitemaps.xsd', import.meta.url));
const URLS_PER_SITEMAP = 2;

/** Fails with xmllint's words unless `xml` is valid against the project's sitemaps schema. */
async function expectValid(xml: string): Promise<void> {
  expect(await schemaErrors(xml, XSD), xml).toBe('');
}

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
const unescape = (s: string) => s.replace(/&amp;/g, '&');

describe('the sitemaps schema', () => {
  it('rejects what the protocol forbids', async () => {
    const ok = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${SITE}/records/a</loc><lastmod>2026-11-27T10:00:00.123Z</lastmod></url></urlset>`;
    await expectValid(ok);
    for (const broken of [
      ok.replace(/<loc>[^<]*<\/loc>/, ''),
      ok.replace('2026-11-27T10:00:00.123Z', 'yesterday'),
      ok.replace(`${SITE}/records/a`, '/records/a'),
      ok.replace('sitemaps.org/schemas', 'example.org/schemas'),
      `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></sitemapindex>`,
    ]) {
      expect(await schemaErrors(broken, XSD), broken).not.toBe('');
    }
  });
});

describe.each(ENGINES)('sitemaps and robots.txt (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let api: FilesApi;
  const publicRecords: string[] = [];

  async function get(url: string) {
    const res = await t.request({ method: 'GET', url: url.replace(SITE, '') });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  }

  /** Every sitemap the index lists, each validated, with the URLs it lists. */
  async function crawl(): Promise<Array<{ url: string; locs: string[]; body: string }>> {
    const index = await get('/sitemap.xml');
    expect(index.headers['content-type']).toMatch(/^application\/xml/);
    await expectValid(index.body);
    const sitemaps = [];
    for (const url of locs(index.body).map(unescape)) {
      const sitemap = await get(url);
      await expectValid(sitemap.body);
      sitemaps.push({ url, locs: locs(sitemap.body), body: sitemap.body });
    }
    return sitemaps;
  }

  beforeAll(async () => {
    t = await createTestApp(engine, {}, { sitemapUrlsPerFile: URLS_PER_SITEMAP });
    owner = await t.user();
    api = new FilesApi(t, owner);
    for (const title of ['One', 'Two', 'Three', 'Four']) {
      publicRecords.push(await api.publishedRecord(title));
    }
  });
  afterAll(() => t.close());

  it('keeps crawlers out of the API, forms and personal pages, and names the sitemap', async () => {
    const res = await get('/robots.txt');
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const lines = res.body.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Disallow: /api/',
        'Disallow: /uploads/',
        'Disallow: /me/',
        'Disallow: /account/',
        // Files the landing pages link stay reachable, as do the community pages' data.
        'Allow: /api/records/*/files/',
        'Allow: /api/communities/',
        `Sitemap: ${SITE}/sitemap.xml`,
      ]),
    );
  });

  it('lists every public record once, 2 a sitemap, without restricted records or drafts', async () => {
    const restricted = await api.createDraft({
      metadata: { ...PUBLISHABLE_METADATA, title: 'Hidden' },
      files: { enabled: false },
      access: { record: 'restricted', files: 'restricted' },
    });
    await api.publish(restricted.id);
    const draft = await api.createDraft();
    await createCommunity(t, owner, 'seabirds', { visibility: 'public' });
    await createCommunity(t, owner, 'secret-club', { visibility: 'restricted' });

    const sitemaps = await crawl();
    const records = sitemaps.filter((s) => s.url.includes('/sitemap-records.xml'));
    // Four records at two a sitemap: two sitemaps, and no empty third.
    expect(records.map((s) => s.locs.length)).toEqual([2, 2]);
    expect(records.flatMap((s) => s.locs).sort()).toEqual(
      publicRecords.map((id) => `${SITE}/records/${id}`).sort(),
    );
    const all = sitemaps.flatMap((s) => s.locs).join('\n');
    expect(all).not.toContain(restricted.id);
    expect(all).not.toContain(draft.id);
    const communities = sitemaps.filter((s) => s.url.includes('/sitemap-communities.xml'));
    expect(communities.flatMap((s) => s.locs)).toEqual([`${SITE}/communities/seabirds`]);

    // Each entry's lastmod is its record's last change.
    const first = publicRecords[0]!;
    const record = (await get(`/api/records/${first}`)).json<{ updated: string }>();
    const entry = new RegExp(`<loc>${SITE}/records/${first}</loc><lastmod>([^<]+)</lastmod>`).exec(
      records.map((s) => s.body).join(''),
    );
    expect(new Date(entry![1]!).getTime()).toBe(new Date(record.updated).getTime());
  });

  it('adds a new record to the last sitemap and leaves the earlier ones as they were', async () => {
    const before = await crawl();
    const fifth = await api.publishedRecord('Five');
    publicRecords.push(fifth);
    const after = await crawl();
    const records = (s: typeof before) => s.filter((x) => x.url.includes('/sitemap-records.xml'));
    expect(records(after).slice(0, -1)).toEqual(records(before));
    expect(records(after).at(-1)!.locs).toEqual([`${SITE}/records/${fifth}`]);
    // The index gives each sitemap its newest change.
    const index = (await get('/sitemap.xml')).body;
    expect(index).toMatch(/<sitemap><loc>[^<]+<\/loc><lastmod>[^<]+<\/lastmod><\/sitemap>/);
  });

  it('answers 404 to a cursor it did not write', async () => {
    const res = await t.request({ method: 'GET', url: '/sitemap-records.xml?after=nonsense' });
    expect(res.statusCode).toBe(404);
  });
});

describe.each(ENGINES)('an empty site (%s)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t.close());

  it('still answers a valid index, naming an empty sitemap', async () => {
    const index = await t.request({ method: 'GET', url: '/sitemap.xml' });
    await expectValid(index.body);
    expect(locs(index.body)).toEqual([`${SITE}/sitemap-records.xml`]);
    const empty = await t.request({ method: 'GET', url: '/sitemap-records.xml' });
    await expectValid(empty.body);
    expect(locs(empty.body)).toEqual([]);
  });
});
