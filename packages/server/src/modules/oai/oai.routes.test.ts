import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommunity, requestAs } from '../../test/communities.js';
import { ENGINES } from '../../test/databases.js';
import {
  createFilesTestApp,
  FilesApi,
  PUBLISHABLE_METADATA,
  type Caller,
} from '../../test/files.js';
import type { TestApp } from '../../test/app.js';
import { schemaErrors } from '../../test/xml.js';

const SCHEMA = fileURLToPath(new URL('./schemas/OAI-PMH.xsd', import.meta.url));

/** Every value of `element` in document order (Cairn's own output; the schema judges its form). */
function all(xml: string, element: string): string[] {
  return [...xml.matchAll(new RegExp(`<${element}(?: [^>]*)?>([^<]*)</${element}>`, 'g'))].map(
    (m) => m[1]!,
  );
}

/** The identifiers of the records' headers (a format's own identifier elements aside). */
function headerIds(xml: string): string[] {
  return [...xml.matchAll(/<header(?: [^>]*)?><identifier>([^<]*)<\/identifier>/g)].map(
    (m) => m[1]!,
  );
}

function tokenOf(xml: string): { value: string; attributes: string } | undefined {
  const m = /<resumptionToken([^>]*)>([^<]*)<\/resumptionToken>/.exec(xml);
  return m ? { attributes: m[1]!, value: m[2]! } : undefined;
}

function errorCodes(xml: string): string[] {
  return [...xml.matchAll(/<error code="([a-zA-Z]+)">/g)].map((m) => m[1]!);
}

describe.each(ENGINES)('OAI-PMH (%s)', (engine) => {
  let t: TestApp & { storeRoot: string };
  let owner: Caller;
  let api: FilesApi;
  const published: string[] = [];
  let restricted: string;
  let draftId: string;
  let inCommunity: string;

  async function oai(query: string): Promise<string> {
    const res = await t.request({ method: 'GET', url: `/oai2d?${query}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    const problems = await schemaErrors(res.body, SCHEMA);
    expect(problems, res.body).toBe('');
    return res.body;
  }

  /** Every record of a list, page by page; the attributes of each page's token. */
  async function harvest(verb: string, args: string) {
    let xml = await oai(`verb=${verb}&${args}`);
    const ids = headerIds(xml);
    const tokens = [];
    for (let token = tokenOf(xml); token; token = tokenOf(xml)) {
      tokens.push(token.attributes);
      if (token.value === '') break;
      xml = await oai(`verb=${verb}&resumptionToken=${encodeURIComponent(token.value)}`);
      ids.push(...headerIds(xml));
    }
    return { ids, tokens };
  }

  const oaiId = (id: string) => `oai:cairn.test:${id}`;

  beforeAll(async () => {
    t = await createFilesTestApp(engine, { CAIRN_OAI_PAGE_SIZE: '2' });
    owner = await t.user();
    api = new FilesApi(t, owner);
    const communityId = await createCommunity(t, owner, 'glaciology', {
      visibility: 'public',
    });
    await createCommunity(t, owner, 'hidden-group', { visibility: 'restricted' });
    for (const title of ['Ice cores', 'Seabirds', 'Moraines', 'Tides']) {
      published.push(await api.publishedRecord(title));
    }
    const { id } = await api.createDraft({
      metadata: { ...PUBLISHABLE_METADATA, title: 'Restricted survey' },
      files: { enabled: false },
      access: { record: 'restricted', files: 'restricted' },
    });
    await api.publish(id);
    restricted = id;
    inCommunity = published[1]!;
    const added = await requestAs(t, 'POST', `/api/records/${inCommunity}/communities`, owner, {
      communities: [{ id: communityId }],
    });
    expect(added.statusCode, added.body).toBe(200);
    const requestId = added.json().processed[0].request_id as string;
    const accepted = await requestAs(
      t,
      'POST',
      `/api/requests/${requestId}/actions/accept`,
      owner,
      {},
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    draftId = (await api.createDraft()).id;
  }, 120_000);
  afterAll(() => t.close());

  it('identifies the repository', async () => {
    const xml = await oai('verb=Identify');
    expect(all(xml, 'repositoryName')).toEqual(['Cairn']);
    expect(all(xml, 'baseURL')).toEqual(['https://cairn.test/oai2d']);
    expect(all(xml, 'protocolVersion')).toEqual(['2.0']);
    expect(all(xml, 'adminEmail')).toEqual(['admin@cairn.test']);
    expect(all(xml, 'deletedRecord')).toEqual(['persistent']);
    expect(all(xml, 'granularity')).toEqual(['YYYY-MM-DDThh:mm:ssZ']);
    expect(all(xml, 'repositoryIdentifier')).toEqual(['cairn.test']);
    expect(all(xml, 'earliestDatestamp')[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(xml).toContain('<request verb="Identify">https://cairn.test/oai2d</request>');
  });

  it('lists every published version once, through resumption tokens, and no draft', async () => {
    const { ids, tokens } = await harvest('ListIdentifiers', 'metadataPrefix=oai_dc');
    const expected = [...published, restricted].map(oaiId);
    expect(ids.sort()).toEqual(expected.sort());
    expect(ids).not.toContain(oaiId(draftId));
    // 5 records in pages of 2: two tokens, then the empty one that ends the list.
    expect(tokens).toHaveLength(3);
    expect(tokens[0]).toMatch(/completeListSize="5" cursor="0" expirationDate="[^"]+Z"/);
    expect(tokens[1]).toMatch(/completeListSize="5" cursor="2"/);
    expect(tokens[2]).toBe(' completeListSize="5" cursor="4"');
  });

  it('gives each record in Dublin Core, and a restricted one as deleted', async () => {
    const { ids } = await harvest('ListRecords', 'metadataPrefix=oai_dc');
    expect(ids).toHaveLength(5);
    const one = await oai(
      `verb=GetRecord&metadataPrefix=oai_dc&identifier=${oaiId(published[0]!)}`,
    );
    expect(all(one, 'dc:title')).toEqual(['Ice cores']);
    expect(all(one, 'dc:identifier')).toContain(`https://cairn.test/records/${published[0]}`);
    const hidden = await oai(
      `verb=GetRecord&metadataPrefix=oai_dc&identifier=${oaiId(restricted)}`,
    );
    expect(hidden).toContain('<header status="deleted">');
    expect(hidden).not.toContain('<metadata>');
    expect(hidden).not.toContain('Restricted survey');
  });

  it.each(['datacite', 'oai_datacite'])(
    'gives every record in %s, valid against the DataCite kernel',
    async (prefix) => {
      const { ids } = await harvest('ListRecords', `metadataPrefix=${prefix}`);
      expect(ids).toHaveLength(5);
      const one = await oai(
        `verb=GetRecord&metadataPrefix=${prefix}&identifier=${oaiId(published[0]!)}`,
      );
      expect(one).toContain('<resource xmlns="http://datacite.org/schema/kernel-4"');
      expect(one).toContain('<title>Ice cores</title>');
      if (prefix === 'oai_datacite') {
        expect(all(one, 'schemaVersion')).toEqual(['4.6']);
        expect(all(one, 'datacentreSymbol')).toEqual(['Cairn']);
      }
    },
  );

  it("puts records in their public communities' sets and selects by set", async () => {
    const sets = await oai('verb=ListSets');
    expect(all(sets, 'setSpec')).toEqual(['community-glaciology']);
    expect(all(sets, 'setName')).toEqual(['glaciology']);
    const record = await oai(
      `verb=GetRecord&metadataPrefix=oai_dc&identifier=${oaiId(inCommunity)}`,
    );
    expect(all(record, 'setSpec')).toEqual(['community-glaciology']);
    const { ids } = await harvest(
      'ListIdentifiers',
      'metadataPrefix=oai_dc&set=community-glaciology',
    );
    expect(ids).toEqual([oaiId(inCommunity)]);
    const none = await oai('verb=ListRecords&metadataPrefix=oai_dc&set=community-hidden-group');
    expect(errorCodes(none)).toEqual(['noRecordsMatch']);
  });

  it('selects by the last change, inclusively at either granularity', async () => {
    const { ids: everything } = await harvest('ListIdentifiers', 'metadataPrefix=oai_dc');
    const first = await oai(`verb=GetRecord&metadataPrefix=oai_dc&identifier=${everything[0]}`);
    const stamp = all(first, 'datestamp')[0]!;
    const upTo = await harvest('ListIdentifiers', `metadataPrefix=oai_dc&until=${stamp}`);
    expect(upTo.ids).toContain(everything[0]);
    const day = stamp.slice(0, 10);
    const sameDay = await harvest(
      'ListIdentifiers',
      `metadataPrefix=oai_dc&from=${day}&until=${day}`,
    );
    expect(sameDay.ids.sort()).toEqual([...everything].sort());
    const future = await oai('verb=ListIdentifiers&metadataPrefix=oai_dc&from=2999-01-01');
    expect(errorCodes(future)).toEqual(['noRecordsMatch']);
    const past = await oai('verb=ListIdentifiers&metadataPrefix=oai_dc&until=2000-01-01T00:00:00Z');
    expect(errorCodes(past)).toEqual(['noRecordsMatch']);
    // The set and the window together.
    const both = await harvest(
      'ListIdentifiers',
      `metadataPrefix=oai_dc&set=community-glaciology&from=${day}`,
    );
    expect(both.ids).toEqual([oaiId(inCommunity)]);
  });

  it("moves a record to its community's set with a new datestamp", async () => {
    const before = await oai(
      `verb=GetRecord&metadataPrefix=oai_dc&identifier=${oaiId(inCommunity)}`,
    );
    const stamps = await harvest('ListIdentifiers', 'metadataPrefix=oai_dc');
    // Listed in change order: the record joined its community after the others were published.
    expect(stamps.ids.at(-1)).toBe(oaiId(inCommunity));
    expect(all(before, 'setSpec')).toEqual(['community-glaciology']);
  });

  it('lists its formats, for the repository and for one record', async () => {
    const xml = await oai('verb=ListMetadataFormats');
    expect(all(xml, 'metadataPrefix')).toEqual(['oai_dc', 'datacite', 'oai_datacite']);
    const forOne = await oai(`verb=ListMetadataFormats&identifier=${oaiId(published[0]!)}`);
    expect(all(forOne, 'metadataPrefix')).toEqual(all(xml, 'metadataPrefix'));
  });

  it.each([
    ['', 'badVerb'],
    ['verb=Frobnicate', 'badVerb'],
    ['verb=Identify&verb=Identify', 'badVerb'],
    ['verb=Identify&metadataPrefix=oai_dc', 'badArgument'],
    ['verb=ListRecords', 'badArgument'],
    ['verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=oai_dc', 'badArgument'],
    ['verb=ListRecords&metadataPrefix=oai_dc&from=2024-13-01', 'badArgument'],
    ['verb=ListRecords&metadataPrefix=oai_dc&from=2024-02-30', 'badArgument'],
    ['verb=ListRecords&metadataPrefix=oai_dc&from=2024-01-01T00:00:00', 'badArgument'],
    [
      'verb=ListRecords&metadataPrefix=oai_dc&from=2024-01-01&until=2024-06-01T00:00:00Z',
      'badArgument',
    ],
    ['verb=ListRecords&metadataPrefix=oai_dc&from=2024-06-01&until=2024-01-01', 'badArgument'],
    ['verb=ListRecords&resumptionToken=x&metadataPrefix=oai_dc', 'badArgument'],
    ['verb=GetRecord&identifier=oai:cairn.test:abcde-12345', 'badArgument'],
    ['verb=ListRecords&resumptionToken=not-a-token', 'badResumptionToken'],
    ['verb=ListSets&resumptionToken=e30', 'badResumptionToken'],
    ['verb=ListRecords&metadataPrefix=marc21', 'cannotDisseminateFormat'],
    [
      'verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:cairn.test:abcde-12345',
      'idDoesNotExist',
    ],
    [
      'verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:elsewhere.org:abcde-12345',
      'idDoesNotExist',
    ],
    ['verb=ListMetadataFormats&identifier=nothing', 'idDoesNotExist'],
  ])('answers %s with %s', async (query, code) => {
    const xml = await oai(query);
    expect(errorCodes(xml)).toContain(code);
    const request = /<request([^>]*)>/.exec(xml)![1];
    // The request's arguments are echoed, unless they were themselves the error.
    if (code === 'badVerb' || code === 'badArgument') expect(request).toBe('');
    else expect(request).toContain('verb=');
  });

  it('refuses a token resumed with another verb, and a lapsed one', async () => {
    const xml = await oai('verb=ListIdentifiers&metadataPrefix=oai_dc');
    const token = tokenOf(xml)!.value;
    const other = await oai(`verb=ListRecords&resumptionToken=${token}`);
    expect(errorCodes(other)).toEqual(['badResumptionToken']);
    const state = JSON.parse(Buffer.from(token, 'base64url').toString()) as { e: string };
    state.e = new Date(Date.now() - 1000).toISOString();
    const lapsed = Buffer.from(JSON.stringify(state)).toString('base64url');
    const expired = await oai(`verb=ListIdentifiers&resumptionToken=${lapsed}`);
    expect(errorCodes(expired)).toEqual(['badResumptionToken']);
    expect(expired).toContain('expired');
  });

  it('answers POST with a form body as GET, without a CSRF token even with a session', async () => {
    const body = `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(oaiId(published[0]!))}`;
    const post = await t.request({
      method: 'POST',
      url: '/oai2d',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'session=whatever' },
      payload: body,
    });
    expect(post.statusCode, post.body).toBe(200);
    expect(await schemaErrors(post.body, SCHEMA)).toBe('');
    const get = await oai(body);
    const strip = (xml: string) => xml.replace(/<responseDate>[^<]*<\/responseDate>/, '');
    expect(strip(post.body)).toBe(strip(get));
  });

  it('takes no form body on any other route', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: { ...owner.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'metadata=x',
    });
    expect(res.statusCode).toBe(415);
  });

  it('rejects a broken document with its schema', async () => {
    const xml = await oai('verb=Identify');
    const broken = xml.replace(
      '<protocolVersion>2.0</protocolVersion>',
      '<protocolVersion>1.1</protocolVersion>',
    );
    expect(await schemaErrors(broken, SCHEMA)).toContain('protocolVersion');
  });
});

describe.each(ENGINES)('OAI identifiers of a site served on a port (%s)', (engine) => {
  let t: TestApp & { storeRoot: string };
  let api: FilesApi;

  beforeAll(async () => {
    t = await createFilesTestApp(engine, { CAIRN_SITE_URL: 'http://localhost:8080' });
    api = new FilesApi(t, await t.user());
  });
  afterAll(() => t.close());

  it('names the host without its port, and finds the record by that identifier', async () => {
    const id = await api.publishedRecord('Firn density');
    const record = await t.request({ method: 'GET', url: `/api/records/${id}` });
    expect(record.json().pids.oai).toEqual({ identifier: `oai:localhost:${id}`, provider: 'oai' });
    const res = await t.request({
      method: 'GET',
      url: `/oai2d?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:localhost:${id}`,
    });
    expect(await schemaErrors(res.body, SCHEMA)).toBe('');
    expect(res.body).toContain('<dc:title>Firn density</dc:title>');
    // localhost is no domain name, so Identify cannot describe identifiers in the oai scheme.
    const identify = await t.request({ method: 'GET', url: '/oai2d?verb=Identify' });
    expect(await schemaErrors(identify.body, SCHEMA)).toBe('');
    expect(identify.body).not.toContain('oai-identifier');
  });

  it('answers the derived identifier for a record stored with the old, ported one', async () => {
    const id = await api.publishedRecord('Old identifier');
    const row = await t.services.database.db
      .selectFrom('records')
      .select('data')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const data = typeof row.data === 'string' ? JSON.parse(row.data) : row.data;
    data.pids.oai = { identifier: `oai:localhost:8080:${id}`, provider: 'oai' };
    await t.services.database.db
      .updateTable('records')
      .set({ data: JSON.stringify(data), revisionId: 99 })
      .where('id', '=', id)
      .execute();
    const record = await t.request({ method: 'GET', url: `/api/records/${id}` });
    expect(record.json().pids.oai.identifier).toBe(`oai:localhost:${id}`);
  });
});
