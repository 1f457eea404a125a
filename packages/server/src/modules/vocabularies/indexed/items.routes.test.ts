import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/databases.js';
import { createTestApp, type TestApp } from '../../../test/app.js';
import { expectError, expectValidationFailed } from '../../../test/assertions.js';
import { loadVocabularySamples } from './import/samples.js';

const SITE = 'https://cairn.test';

describe.each(ENGINES)('names, affiliations, funders, awards and subjects on %s', (engine) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let someone: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = (await t.user(undefined, { admin: true })).headers;
    someone = (await t.user()).headers;
    expect(await loadVocabularySamples(t.services.vocabularyItems)).toHaveLength(5);
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url, headers });
  const ids = (body: Record<string, any>) =>
    (body.hits.hits as Array<{ id: string }>).map((h) => h.id);

  it('reads an affiliation imported from ROR, with its self link', async () => {
    const res = await get('/api/affiliations/01ggx4157');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: '01ggx4157',
      name: 'European Organization for Nuclear Research',
      acronym: 'CERN',
      country: 'CH',
      country_name: 'Switzerland',
      location_name: 'Geneva',
      title: { en: 'European Organization for Nuclear Research' },
      identifiers: [{ scheme: 'ror', identifier: '01ggx4157' }],
      revision_id: 1,
      links: { self: `${SITE}/api/affiliations/01ggx4157` },
    });
    expect(res.json().created).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('gives funders their Crossref Funder DOI', async () => {
    const res = await get('/api/funders/00k4n6c32');
    expect(res.json().identifiers).toContainEqual({
      scheme: 'doi',
      identifier: '10.13039/501100000780',
    });
  });

  it('suggests an acronym typed whole first, and by any label word', async () => {
    const cern = await get('/api/affiliations?suggest=cern');
    expect(cern.statusCode, cern.body).toBe(200);
    expect(ids(cern.json())[0]).toBe('01ggx4157');
    expect(cern.json().sortBy).toBe('bestmatch');
    const nuclear = await get('/api/affiliations?suggest=nucl');
    expect(ids(nuclear.json())).toEqual(['01ggx4157']);
    // A German label finds ETH Zurich; accents are ignored both ways.
    const zurich = await get(`/api/affiliations?q=${encodeURIComponent('zürich')}`);
    expect(ids(zurich.json())).toEqual(expect.arrayContaining(['05a28rw58', '02crff812']));
  });

  it('ranks an exact name before a prefix before a word match', async () => {
    // "University of Zurich" exactly; other universities of… by prefix; ETH by a word.
    const res = await get('/api/affiliations?q=university+of+zurich');
    expect(ids(res.json())[0]).toBe('02crff812');
    const prefix = await get('/api/affiliations?q=univers');
    const found = ids(prefix.json());
    // Names starting with "univers" come before those that only contain the word.
    expect(found.indexOf('02crff812')).toBeLessThan(found.indexOf('01hcx6992'));
    expect(found.indexOf('036rp1748')).toBeLessThan(found.indexOf('01hcx6992'));
  });

  it('matches several words in any order, case- and accent-insensitively', async () => {
    const a = await get('/api/names?suggest=muller+anna');
    const b = await get(`/api/names?suggest=${encodeURIComponent('ANNA MÜL')}`);
    expect(ids(a.json())).toEqual(['0009-0000-0000-0009']);
    expect(ids(b.json())).toEqual(['0009-0000-0000-0009']);
    const muller = await get('/api/names?suggest=muller');
    // The exact family name first, then the double-barrelled one; Mulligan does not match.
    expect(ids(muller.json())).toEqual(['0009-0000-0000-0009', '0009-0000-0000-0017']);
    expect(muller.json().hits.total).toBe(2);
  });

  it('gives names their identifiers and resolved affiliations', async () => {
    const res = await get('/api/names/0009-0000-0000-0017');
    expect(res.json()).toMatchObject({
      name: 'Müller-Lüdenscheidt, Jürgen',
      given_name: 'Jürgen',
      family_name: 'Müller-Lüdenscheidt',
      identifiers: [{ scheme: 'orcid', identifier: '0009-0000-0000-0017' }],
      affiliations: [
        { id: '05591te55', name: 'Ludwig-Maximilians-Universität München' },
        { name: 'Independent researcher' },
      ],
    });
    // People are found by their affiliation's name too.
    const byAffiliation = await get('/api/names?suggest=ludwig+jurgen');
    expect(ids(byAffiliation.json())).toEqual(['0009-0000-0000-0017']);
  });

  it('finds an entry by its ORCID, ROR or GND id typed whole', async () => {
    for (const q of [
      '0000-0002-1825-0097',
      'https://orcid.org/0000-0002-1825-0097',
      '0000000218250097',
    ]) {
      const res = await get(`/api/names?q=${encodeURIComponent(q)}`);
      expect(ids(res.json()), q).toEqual(['0000-0002-1825-0097']);
      expect(res.json().hits.total).toBe(1);
    }
    const ror = await get(`/api/affiliations?q=${encodeURIComponent('https://ror.org/01hhn8329')}`);
    expect(ids(ror.json())).toEqual(['01hhn8329']);
    const gnd = await get('/api/names?suggest=118529579');
    expect(ids(gnd.json())).toEqual(['gnd-118580779']);
    const funderDoi = await get(`/api/funders?q=${encodeURIComponent('10.13039/501100001659')}`);
    expect(ids(funderDoi.json())).toEqual(['018mejw64']);
  });

  it('filters awards by funder and shows the funder name', async () => {
    const res = await get('/api/awards?q=open&funders=00k4n6c32');
    expect(res.statusCode, res.body).toBe(200);
    expect(ids(res.json())).toEqual(expect.arrayContaining(['00k4n6c32::777541']));
    expect(res.json().hits.hits[0].funder).toEqual({
      id: '00k4n6c32',
      name: 'European Commission',
    });
    expect(res.json().links.self).toContain('funders=00k4n6c32');
    const none = await get('/api/awards?q=open&funders=021nxhr62');
    expect(none.json().hits.total).toBe(0);
    const byNumber = await get('/api/awards?q=777523');
    expect(ids(byNumber.json())).toEqual(['00k4n6c32::777523']);
  });

  it('suggests subjects from one scheme with a "scheme:" prefix, and by the generic path', async () => {
    const res = await get('/api/subjects?suggest=mesh:abd');
    expect(ids(res.json())).toEqual([
      'https://id.nlm.nih.gov/mesh/D000005',
      'https://id.nlm.nih.gov/mesh/D000006',
    ]);
    const generic = await get('/api/vocabularies/subjects?suggest=calci');
    expect(generic.json().hits.hits[0]).toMatchObject({
      subject: 'Calcimycin',
      scheme: 'MeSH',
      links: {
        self: `${SITE}/api/vocabularies/subjects/${encodeURIComponent('https://id.nlm.nih.gov/mesh/D000001')}`,
      },
    });
    const one = await get(
      `/api/subjects/${encodeURIComponent('https://id.nlm.nih.gov/mesh/D000003')}`,
    );
    expect(one.json()).toMatchObject({ subject: 'Abattoirs' });
  });

  it('browses alphabetically without a query, with the contract envelope and links', async () => {
    const res = await get('/api/subjects?size=2&page=2');
    const body = res.json();
    expect(body.sortBy).toBe('subject');
    expect(body.hits.total).toBe(6);
    expect(body.hits.hits.map((h: { subject: string }) => h.subject)).toEqual([
      'Abdomen',
      'Abdomen, Acute',
    ]);
    expect(body.links).toEqual({
      self: `${SITE}/api/subjects?page=2&size=2&sort=subject`,
      prev: `${SITE}/api/subjects?page=1&size=2&sort=subject`,
      next: `${SITE}/api/subjects?page=3&size=2&sort=subject`,
    });
    const affiliations = await get('/api/affiliations');
    expect(affiliations.json().sortBy).toBe('name');
    const sorted = await get('/api/affiliations?q=university&sort=name');
    const names = sorted.json().hits.hits.map((h: { name: string }) => h.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
  });

  it('pages through ranked matches without repeating an item', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      seen.push(...ids((await get(`/api/affiliations?q=u&size=2&page=${page}`)).json()));
    }
    const all = ids((await get('/api/affiliations?q=u&size=50')).json());
    expect(seen).toEqual(all.slice(0, seen.length));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('answers bad parameters with the contract errors', async () => {
    expectValidationFailed(await get('/api/names?size=0'), [
      { field: 'size', messages: ['Must be greater than or equal to 1.'] },
    ]);
    expectValidationFailed(await get('/api/names?size=10001'), [
      { field: 'size', messages: ['Must be less than or equal to 10000.'] },
    ]);
    expectError(
      await get('/api/names?page=500&size=25'),
      400,
      'INVALID_QUERY',
      'Invalid querystring parameters.',
    );
    expectValidationFailed(await get(`/api/names?q=${'a'.repeat(501)}`), [
      { field: 'q', messages: ['Longer than maximum length 500.'] },
    ]);
    expectValidationFailed(await get('/api/names?q=a&suggest=b'), [
      { field: 'suggest', messages: ['Cannot be used together with q.'] },
    ]);
    expectValidationFailed(await get('/api/names?sort=newest'), [
      { field: 'sort', messages: ["Invalid sort option 'newest'."] },
    ]);
    expectError(
      await get('/api/names/nobody'),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
    expectError(
      await get('/api/vocabularies/nonsense/x'),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
    expectError(
      await get('/api/names', { accept: 'text/csv' }),
      406,
      'NOT_ACCEPTABLE',
      "Invalid 'Accept' header. Expected one of: application/json, application/vnd.inveniordm.v1+json",
    );
  });

  it('survives unusual Unicode in queries', async () => {
    for (const q of ['👩‍🔬', '\uFFFF', 'ﬁ', 'Ｍüller', '𝔪uller', '  ', '%', '_']) {
      const res = await get(`/api/names?q=${encodeURIComponent(q)}`);
      expect(res.statusCode, `${q}: ${res.body}`).toBe(200);
    }
    // U+0000 cannot be stored by PostgreSQL, so no entry holds it: refused where it enters.
    expect((await get('/api/names?q=%00')).statusCode).toBe(400);
    // Full-width and ligature forms normalise to plain letters.
    expect(ids((await get(`/api/names?q=${encodeURIComponent('Ｍüller')}`)).json())).toContain(
      '0009-0000-0000-0009',
    );
    // A LIKE wildcard is not a wildcard.
    expect((await get('/api/names?q=%25')).json().hits.total).toBe(0);
  });

  it('lets admins create, replace and delete entries, and no one else', async () => {
    const body = {
      id: '02nv7yv05',
      name: 'Forschungszentrum Jülich',
      acronym: 'FZJ',
      country: 'DE',
      identifiers: [{ scheme: 'ror', identifier: '02nv7yv05' }],
    };
    const post = (headers: Record<string, string>, b: object = body) =>
      t.request({ method: 'POST', url: '/api/affiliations', headers, body: b });
    expectError(await post({}), 403, 'PERMISSION_DENIED', 'Permission denied.');
    expectError(await post(someone), 403, 'PERMISSION_DENIED', 'Permission denied.');
    const created = await post(admin);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ ...body, revision_id: 1 });
    expect(ids((await get('/api/affiliations?suggest=julich')).json())).toEqual(['02nv7yv05']);
    expectError(
      await post(admin),
      400,
      'PID_ALREADY_EXISTS',
      'A PID already exists for type affiliations and id 02nv7yv05.',
    );

    const put = await t.request({
      method: 'PUT',
      url: '/api/affiliations/02nv7yv05',
      headers: admin,
      body: { ...body, name: 'Forschungszentrum Jülich GmbH' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ name: 'Forschungszentrum Jülich GmbH', revision_id: 2 });
    expect(ids((await get('/api/affiliations?q=gmbh')).json())).toEqual(['02nv7yv05']);

    expectError(
      await t.request({ method: 'DELETE', url: '/api/affiliations/02nv7yv05', headers: someone }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    const del = await t.request({
      method: 'DELETE',
      url: '/api/affiliations/02nv7yv05',
      headers: admin,
    });
    expect(del.statusCode).toBe(204);
    expectError(
      await get('/api/affiliations/02nv7yv05'),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
    expect((await get('/api/affiliations?suggest=julich')).json().hits.total).toBe(0);
    expectError(
      await t.request({ method: 'DELETE', url: '/api/affiliations/02nv7yv05', headers: admin }),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
  });

  it('validates admin bodies field by field and changes nothing', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/names',
      headers: admin,
      body: {
        given_name: 'Ada',
        identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0098' }],
        affiliations: [{ id: 'nosuchror' }],
      },
    });
    expectValidationFailed(res, [
      { field: 'family_name', messages: ['Family name cannot be blank.'] },
      { field: 'identifiers.0.identifier', messages: ['Invalid ORCID identifier.'] },
    ]);
    const unknownAffiliation = await t.request({
      method: 'POST',
      url: '/api/names',
      headers: admin,
      body: { id: 'ada', family_name: 'Lovelace', affiliations: [{ id: 'nosuchror' }] },
    });
    expectValidationFailed(unknownAffiliation, [
      { field: 'affiliations.0.id', messages: ['Unknown affiliation nosuchror.'] },
    ]);
    const award = await t.request({
      method: 'POST',
      url: '/api/awards',
      headers: admin,
      body: { number: '1', funder: { id: 'nosuchfunder' }, extra: 1 },
    });
    expect(award.statusCode).toBe(400);
    expect((await get('/api/names?q=lovelace')).json().hits.total).toBe(0);
  });

  it('lets admins manage the small vocabularies through the generic path', async () => {
    const entry = { id: 'cc-by-nc-9.0', title: { en: 'Imaginary License 9.0' }, tags: ['all'] };
    const url = '/api/vocabularies/licenses';
    expectError(
      await t.request({ method: 'POST', url, headers: someone, body: entry }),
      403,
      'PERMISSION_DENIED',
      'Permission denied.',
    );
    const created = await t.request({ method: 'POST', url, headers: admin, body: entry });
    expect(created.statusCode, created.body).toBe(201);
    expect(ids((await get(`${url}?q=imaginary`)).json())).toEqual(['cc-by-nc-9.0']);
    const replaced = await t.request({
      method: 'PUT',
      url: `${url}/cc-by-nc-9.0`,
      headers: admin,
      body: { title: { en: 'Imaginary License 9.1', de: 'Erfundene Lizenz' } },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect((await get(`${url}/cc-by-nc-9.0`)).json().title.de).toBe('Erfundene Lizenz');
    expectValidationFailed(
      await t.request({ method: 'PUT', url: `${url}/cc-by-nc-9.0`, headers: admin, body: {} }),
      [{ field: 'title', messages: ['Missing data for required field.'] }],
    );
    const del = await t.request({ method: 'DELETE', url: `${url}/cc-by-nc-9.0`, headers: admin });
    expect(del.statusCode).toBe(204);
    expectError(
      await get(`${url}/cc-by-nc-9.0`),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
    expectError(
      await t.request({
        method: 'POST',
        url: '/api/vocabularies/nonsense',
        headers: admin,
        body: entry,
      }),
      404,
      'PID_DOES_NOT_EXIST',
      'The persistent identifier does not exist.',
    );
  });

  it('lets drafts refer to imported entries by id', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: someone,
      body: {
        metadata: {
          title: 'Refers to the vocabularies',
          creators: [
            {
              person_or_org: { type: 'personal', family_name: 'Carberry', given_name: 'Josiah' },
              affiliations: [{ id: '01ggx4157' }],
            },
          ],
          subjects: [{ id: 'https://id.nlm.nih.gov/mesh/D000001' }],
          funding: [{ funder: { id: '00k4n6c32' }, award: { id: '00k4n6c32::777541' } }],
        },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    // A partial save lists what publish still needs; the references themselves are kept.
    const fields = (res.json().errors ?? []).map((e: { field: string }) => e.field);
    expect(fields.filter((f: string) => /creators|subjects|funding/.test(f))).toEqual([]);
    const metadata = res.json().metadata;
    expect(metadata.creators[0].affiliations[0].id).toBe('01ggx4157');
    expect(metadata.subjects[0].id).toBe('https://id.nlm.nih.gov/mesh/D000001');
    expect(metadata.funding[0].award.id).toBe('00k4n6c32::777541');
  });

  it('documents the routes and the admin bodies in the OpenAPI document', async () => {
    const res = await get('/api/docs/openapi.json');
    expect(res.statusCode, res.body).toBe(200);
    const doc = res.json();
    for (const root of ['names', 'affiliations', 'funders', 'awards', 'subjects']) {
      expect(Object.keys(doc.paths[`/api/${root}`] ?? {}), root).toEqual(
        expect.arrayContaining(['get', 'post']),
      );
      expect(Object.keys(doc.paths[`/api/${root}/{id}`] ?? {}), root).toEqual(
        expect.arrayContaining(['get', 'put', 'delete']),
      );
    }
    const body = doc.paths['/api/names'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(['given_name', 'family_name', 'identifiers', 'affiliations']),
    );
  });
});
