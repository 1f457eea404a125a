import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/app.js';
import { ENGINES } from '../../test/databases.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';
import { bootstrapOf, createPagesTestApp } from '../../test/pages.js';
import { LATER_STRINGS_MODULE, PAGE_MODULES, type BuildManifest } from './page-assets.js';

// What `vite build` adds after the head marker: the entry script, its chunks and its stylesheet.
const VITE_TAGS = [
  '<script type="module" async crossorigin src="/assets/index-e1.js"></script>',
  '<link rel="modulepreload" crossorigin href="/assets/react-r1.js">',
  '<link rel="stylesheet" crossorigin href="/assets/vendor-v1.css">',
].join('\n    ');

/** A build in which the record and deposit pages import library chunks of their own. */
const MANIFEST: BuildManifest = {
  ...Object.fromEntries(
    Object.values(PAGE_MODULES).map((source) => [source, { file: `assets/${source}.js` }]),
  ),
  'index.html': { file: 'assets/index-e1.js', isEntry: true, imports: ['_react.js'] },
  '_react.js': { file: 'assets/react-r1.js' },
  '_tables.js': { file: 'assets/tables-t1.js', imports: ['_react.js'] },
  '_dnd.js': { file: 'assets/dnd-d1.js', imports: ['_react.js'], css: ['assets/dnd-d1.css'] },
  [PAGE_MODULES.record]: { file: 'assets/RecordPage-p1.js', imports: ['_react.js', '_tables.js'] },
  [PAGE_MODULES.deposit]: { file: 'assets/DepositPage-p2.js', imports: ['_dnd.js', '_tables.js'] },
  [LATER_STRINGS_MODULE]: { file: 'assets/en_US.later-s1.js' },
};

const preload = (file: string) => `<link rel="modulepreload" crossorigin href="/${file}">`;
const BOOTSTRAP = '<script id="cairn-bootstrap"';

/** Where `tag` is in the page's head; fails the test when it is not there. */
function headIndex(html: string, tag: string): number {
  const at = html.slice(0, html.indexOf('</head>')).indexOf(tag);
  expect(at, `${tag} in the head`).toBeGreaterThanOrEqual(0);
  return at;
}

describe.each(ENGINES)('page heads of a build with a manifest (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let api: FilesApi;

  beforeAll(async () => {
    t = await createPagesTestApp(engine, {}, { afterMarker: VITE_TAGS, manifest: MANIFEST });
    owner = await t.user();
    api = new FilesApi(t, owner);
  });
  afterAll(() => t.close());

  /** Asserts that the page names `files` for preloading, all of them before its data. */
  function expectPreloadsBeforeData(html: string, files: string[]) {
    const bootstrap = headIndex(html, BOOTSTRAP);
    for (const file of files) expect(headIndex(html, preload(file))).toBeLessThan(bootstrap);
  }

  const METADATA = {
    ...PUBLISHABLE_METADATA,
    contributors: [
      {
        person_or_org: { type: 'personal', family_name: 'Nansen', given_name: 'Fridtjof' },
        role: { id: 'datacollector' },
      },
    ],
  };

  it("names the landing page's chunks and Vite's links before the record, the entry after", async () => {
    const { id } = await api.createDraft({ metadata: METADATA, files: { enabled: false } });
    await api.publish(id);

    const res = await t.request({ method: 'GET', url: `/records/${id}` });
    expect(res.statusCode).toBe(200);
    expectPreloadsBeforeData(res.body, [
      'assets/RecordPage-p1.js',
      'assets/tables-t1.js',
      'assets/en_US.later-s1.js',
    ]);
    // The entry's own chunk is named by Vite's tags, once; the deposit form's are not named.
    expect(res.body.split('assets/react-r1.js')).toHaveLength(2);
    expect(res.body).not.toContain('DepositPage');
    expect(res.body).not.toContain('dnd-d1.js');
    const bootstrap = headIndex(res.body, BOOTSTRAP);
    expect(headIndex(res.body, 'href="/assets/react-r1.js"')).toBeLessThan(bootstrap);
    expect(headIndex(res.body, 'href="/assets/vendor-v1.css"')).toBeLessThan(bootstrap);
    expect(headIndex(res.body, 'src="/assets/index-e1.js"')).toBeGreaterThan(bootstrap);
  });

  it('names the deposit form’s chunks on a new upload and on a draft, before the data', async () => {
    const deposit = ['assets/DepositPage-p2.js', 'assets/dnd-d1.js', 'assets/tables-t1.js'];
    const fresh = await t.request({ method: 'GET', url: '/uploads/new', headers: owner.headers });
    expect(fresh.statusCode).toBe(200);
    expectPreloadsBeforeData(fresh.body, deposit);
    expect(
      headIndex(fresh.body, 'rel="preload" as="style" crossorigin href="/assets/dnd-d1.css"'),
    ).toBeLessThan(headIndex(fresh.body, BOOTSTRAP));
    expect(fresh.body).not.toContain('RecordPage');
    // The deposit form's strings are in the entry's; the other pages' are not needed here.
    expect(fresh.body).not.toContain('en_US.later');

    const { id } = await api.createDraft({ metadata: { title: 'Gulls' } });
    const draft = await t.request({ method: 'GET', url: `/uploads/${id}`, headers: owner.headers });
    expect(draft.statusCode).toBe(200);
    expectPreloadsBeforeData(draft.body, deposit);
    expect(headIndex(draft.body, preload('assets/DepositPage-p2.js'))).toBeLessThan(
      draft.body.indexOf('<script id="cairn-draft"'),
    );
  });

  it('names each other page’s own chunk', async () => {
    for (const [url, page] of [
      ['/login', PAGE_MODULES.login],
      ['/communities', PAGE_MODULES.communities],
      ['/communities/gulls', PAGE_MODULES.community],
      ['/me/uploads', PAGE_MODULES.uploads],
      ['/account/tokens', PAGE_MODULES.tokens],
    ] as const) {
      const res = await t.request({ method: 'GET', url, headers: owner.headers });
      expect(res.statusCode, url).toBe(200);
      expectPreloadsBeforeData(res.body, [`assets/${page}.js`]);
    }
  });

  it('leaves the labelled people out of the landing page’s record, and only those', async () => {
    const { id } = await api.createDraft({ metadata: METADATA, files: { enabled: false } });
    await api.publish(id);
    // The API's UI serialisation has them: the landing page drops what it does not read.
    const viaApi = await t.request({
      method: 'GET',
      url: `/api/records/${id}`,
      headers: { accept: 'application/vnd.inveniordm.v1+json' },
    });
    expect(viaApi.json().ui).toHaveProperty('creators');
    expect(viaApi.json().ui).toHaveProperty('contributors');

    const landing = bootstrapOf((await t.request({ method: 'GET', url: `/records/${id}` })).body);
    expect(landing.record.ui).not.toHaveProperty('creators');
    expect(landing.record.ui).not.toHaveProperty('contributors');
    expect(landing.record.ui.publication_date_l10n_long).toBe(
      viaApi.json().ui.publication_date_l10n_long,
    );
    expect(landing.record.metadata.creators).toEqual(viaApi.json().metadata.creators);
    expect(landing.record.metadata.contributors).toEqual(viaApi.json().metadata.contributors);

    const { id: draftId } = await api.createDraft({ metadata: METADATA });
    const preview = bootstrapOf(
      (
        await t.request({
          method: 'GET',
          url: `/records/${draftId}?preview=1`,
          headers: owner.headers,
        })
      ).body,
    );
    expect(preview.record.metadata.title).toBe(METADATA.title);
    expect(preview.record.ui).toHaveProperty('publication_date_l10n_long');
    expect(preview.record.ui).not.toHaveProperty('creators');
    expect(preview.record.ui).not.toHaveProperty('contributors');
  });
});
