import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';

/*
 * Records store references to the large vocabularies as `{id}` and show them as InvenioRDM dumps
 * them: affiliations with their name, subjects with their text and scheme, funders with their
 * name, awards with title, number and identifiers — on drafts, records, searches and exports.
 */
describe.each(ENGINES)('references to the large vocabularies (%s)', (engine) => {
  let t: TestApp;
  let owner: Awaited<ReturnType<TestApp['user']>>;
  let draftId: string;

  const metadata = {
    title: 'Glacier mass balance',
    publication_date: '2024-05-01',
    resource_type: { id: 'dataset' },
    creators: [
      {
        person_or_org: { type: 'personal', family_name: 'Curie', given_name: 'Marie' },
        // InvenioRDM's deposit form sends the name it displayed along with the id; the stored
        // reference is the id, the name shown is the vocabulary's.
        affiliations: [{ id: '01ggx4157', name: 'Stale name' }, { name: 'Free-text lab' }],
      },
    ],
    subjects: [{ id: 'https://id.nlm.nih.gov/mesh/D000001' }, { subject: 'glaciology' }],
    funding: [{ funder: { id: '00k4n6c32' }, award: { id: '00k4n6c32::101000001' } }],
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    const items = t.services.vocabularyItems;
    await items.create('affiliations', { id: '01ggx4157', name: 'CERN', country: 'CH' });
    await items.create('funders', { id: '00k4n6c32', name: 'European Commission' });
    await items.create('awards', {
      id: '00k4n6c32::101000001',
      number: '101000001',
      title: { en: 'Ice in a warming world' },
      acronym: 'ICEWARM',
      funder: { id: '00k4n6c32' },
      identifiers: [{ scheme: 'url', identifier: 'https://cordis.europa.eu/project/id/101000001' }],
    });
    await items.create('subjects', {
      id: 'https://id.nlm.nih.gov/mesh/D000001',
      subject: 'Calcimycin',
      scheme: 'MeSH',
    });
    const created = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: owner.headers,
      body: { metadata, files: { enabled: false } },
    });
    expect(created.statusCode, created.body).toBe(201);
    draftId = created.json().id as string;
  });
  afterAll(() => t.close());

  function expectDereferenced(m: Record<string, any>) {
    expect(m.creators[0].affiliations).toEqual([
      { id: '01ggx4157', name: 'CERN' },
      { name: 'Free-text lab' },
    ]);
    expect(m.subjects).toEqual([
      { id: 'https://id.nlm.nih.gov/mesh/D000001', subject: 'Calcimycin', scheme: 'MeSH' },
      { subject: 'glaciology' },
    ]);
    expect(m.funding[0].funder).toEqual({ id: '00k4n6c32', name: 'European Commission' });
    expect(m.funding[0].award).toMatchObject({
      id: '00k4n6c32::101000001',
      number: '101000001',
      title: { en: 'Ice in a warming world' },
      acronym: 'ICEWARM',
      identifiers: [{ scheme: 'url', identifier: 'https://cordis.europa.eu/project/id/101000001' }],
    });
  }

  it('stores the ids only and shows the names on the draft, twice (cached render)', async () => {
    const user = await t.services.users.findById(owner.id);
    const stored = await t.services.drafts.readDraft(user, draftId);
    expect(JSON.stringify(stored.row.data)).not.toContain('Stale name');
    for (let i = 0; i < 2; i++) {
      const res = await t.request({
        method: 'GET',
        url: `/api/records/${draftId}/draft`,
        headers: owner.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      expectDereferenced(res.json().metadata);
    }
  });

  it('shows the names on the published record, in searches, in the ui and in exports', async () => {
    const published = await t.request({
      method: 'POST',
      url: `/api/records/${draftId}/draft/actions/publish`,
      headers: owner.headers,
    });
    expect(published.statusCode, published.body).toBe(202);
    expectDereferenced(published.json().metadata);

    const record = await t.request({
      method: 'GET',
      url: `/api/records/${draftId}`,
      headers: { accept: 'application/vnd.inveniordm.v1+json' },
    });
    expectDereferenced(record.json().metadata);
    expect(record.json().ui.creators.affiliations).toEqual([
      [1, 'CERN'],
      [2, 'Free-text lab'],
    ]);

    const search = await t.request({ method: 'GET', url: '/api/records?q=glacier' });
    expectDereferenced(search.json().hits.hits[0].metadata);
    const mine = await t.request({
      method: 'GET',
      url: '/api/user/records',
      headers: owner.headers,
    });
    expectDereferenced(mine.json().hits.hits[0].metadata);

    const datacite = await t.request({
      method: 'GET',
      url: `/api/records/${draftId}`,
      headers: { accept: 'application/vnd.datacite.datacite+json' },
    });
    expect(datacite.statusCode, datacite.body).toBe(200);
    expect(datacite.body).toContain('CERN');
    expect(datacite.body).toContain('European Commission');
  });
});
