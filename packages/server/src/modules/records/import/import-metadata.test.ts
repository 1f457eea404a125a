import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/databases.js';
import type { Engine } from '../../../database/database.js';
import { StatementCounter } from '../../../test/statements.js';
import { createTestApp, type TestApp } from '../../../test/app.js';

// POST /api/records/{id}/draft/actions/import-metadata: every format from a realistic sample,
// DOIs through stand-ins for DataCite's and Crossref's REST APIs over real HTTP, and every way
// an import goes wrong; the draft is never changed by it.

const SAMPLES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../samples/import',
);
const sample = (name: string) => readFileSync(path.join(SAMPLES, name), 'utf8');

const CERN = '01ggx4157';
const CARBERRY = '0000-0002-1825-0097';
const SNF = '00yjd3n13';
const DATACITE_DOI = '10.5061/dryad.x3ffbg7m8';
const CROSSREF_DOI = '10.1017/jog.2024.12';
/** DataCite answers 503 for it; Crossref does not know it. */
const BROKEN_DOI = '10.5555/unavailable';
/** Neither registry ever answers for it. */
const SILENT_DOI = '10.5555/silent';

type Caller = Awaited<ReturnType<TestApp['user']>>;

/**
 * DataCite's `GET /dois/{doi}` and Crossref's `GET /works/{doi}` answering the samples, and 404
 * (with each API's own 404 body) for any other DOI, as the public APIs do.
 */
class RegistriesStandIn {
  readonly seen: string[] = [];
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const url = decodeURIComponent(req.url ?? '');
      this.seen.push(url);
      if (url.toLowerCase() === `/datacite/dois/${DATACITE_DOI}`) {
        res.writeHead(200, { 'content-type': 'application/vnd.api+json; charset=utf-8' });
        res.end(sample('datacite.json'));
        return;
      }
      if (url.toLowerCase() === `/crossref/works/${CROSSREF_DOI}`) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(sample('crossref-work.json'));
        return;
      }
      if (url === `/datacite/dois/${BROKEN_DOI}`) {
        res.writeHead(503, { 'content-type': 'text/html' });
        res.end('<html><body>Service Unavailable</body></html>');
        return;
      }
      // Never answered: the import's timeout ends the wait (the server's close ends the socket).
      if (url.endsWith(`/${SILENT_DOI}`)) return;
      if (url.startsWith('/datacite/')) {
        res.writeHead(404, { 'content-type': 'application/vnd.api+json; charset=utf-8' });
        res.end(
          JSON.stringify({
            errors: [{ status: '404', title: "The resource you are looking for doesn't exist." }],
          }),
        );
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Resource not found.');
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/** A loopback port nothing listens on: a connection to it is refused at once. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** The names, affiliations and funders an import is matched against. */
async function seedVocabularies(t: TestApp): Promise<void> {
  const items = t.services.vocabularyItems;
  await items.create('affiliations', {
    id: CERN,
    name: 'European Organization for Nuclear Research',
    acronym: 'CERN',
    country: 'CH',
  });
  await items.create('funders', {
    id: SNF,
    name: 'Swiss National Science Foundation',
    identifiers: [{ scheme: 'doi', identifier: '10.13039/501100001711' }],
  });
  await items.create('names', {
    given_name: 'Josiah',
    family_name: 'Carberry',
    identifiers: [{ scheme: 'orcid', identifier: CARBERRY }],
    affiliations: [{ id: CERN }],
  });
}

/** An app of its own (other registry settings), its owner's draft, and an import into it. */
async function appWithDraft(
  engine: Engine,
  env: Record<string, string>,
  observer?: StatementCounter,
) {
  const t = await createTestApp(engine, env, {}, observer ? { observer } : {});
  const user = await t.user();
  const draft = await t.request({
    method: 'POST',
    url: '/api/records',
    headers: user.headers,
    body: { metadata: { title: 'Another draft' }, files: { enabled: false } },
  });
  const id = draft.json().id as string;
  const importInto = (body: object) =>
    t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/actions/import-metadata`,
      headers: user.headers,
      body,
    });
  return { t, importInto };
}

describe.each(ENGINES)('import metadata into a draft (%s)', (engine) => {
  const registries = new RegistriesStandIn();
  let t: TestApp;
  let owner: Caller;
  let draftId: string;
  let draftBefore: string;

  const importInto = (body: string | object, headers = owner.headers, id = draftId) =>
    t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/actions/import-metadata`,
      headers,
      body,
    });
  const importFile = async (content: string, format?: string) => {
    const res = await importInto({ content, ...(format ? { format } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Record<string, any>>();
  };
  const readDraft = async () => {
    const res = await t.request({
      method: 'GET',
      url: `/api/records/${draftId}/draft`,
      headers: owner.headers,
    });
    expect(res.statusCode).toBe(200);
    const { metadata, revision_id, updated } = res.json();
    return JSON.stringify({ metadata, revision_id, updated });
  };

  beforeAll(async () => {
    await registries.start();
    t = await createTestApp(engine, {
      CAIRN_DATACITE_API_URL: `${registries.url}/datacite`,
      CAIRN_CROSSREF_API_URL: `${registries.url}/crossref/`,
    });
    await seedVocabularies(t);
    owner = await t.user();
    const res = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: owner.headers,
      body: { metadata: { title: 'What I typed myself' }, files: { enabled: false } },
    });
    expect(res.statusCode, res.body).toBe(201);
    draftId = res.json().id as string;
    draftBefore = await readDraft();
  });
  afterAll(async () => {
    // Nothing any import in this file did changed the draft.
    expect(await readDraft()).toBe(draftBefore);
    await t?.close();
    await registries.stop();
  });

  describe('from a DOI', () => {
    it('reads DataCite first, matching the creator by ORCID and the affiliation by ROR', async () => {
      const res = await importInto({ doi: `https://doi.org/${DATACITE_DOI.toUpperCase()}` });
      expect(res.statusCode, res.body).toBe(200);
      const answer = res.json();
      expect(answer.source).toEqual({
        format: 'doi',
        doi: DATACITE_DOI.toUpperCase(),
        agency: 'datacite',
        url: `${registries.url}/datacite/dois/${DATACITE_DOI.toUpperCase()}`,
      });
      const m = answer.metadata;
      expect(m.title).toBe('Snow depth and density along an elevation transect');
      expect(m.resource_type).toEqual({ id: 'dataset' });
      expect(m.publication_date).toBe('2022-02-14');
      expect(m.creators[0]).toEqual({
        person_or_org: {
          type: 'personal',
          name: 'Carberry, Josiah',
          given_name: 'Josiah',
          family_name: 'Carberry',
          identifiers: [{ scheme: 'orcid', identifier: CARBERRY }],
        },
        affiliations: [{ id: CERN }],
      });
      expect(m.creators[1].affiliations).toEqual([{ name: 'Institute of Unlisted Studies' }]);
      expect(m.contributors[0].role).toEqual({ id: 'datacollector' });
      expect(m.rights).toEqual([{ id: 'cc0-1.0' }]);
      expect(m.languages).toEqual([{ id: 'eng' }]);
      expect(m.funding).toEqual([
        {
          funder: { id: SNF },
          award: { number: '200021_188888', title: { en: 'Snow on slopes' } },
        },
      ]);
      expect(answer.unmatched).toEqual(
        expect.arrayContaining([
          {
            field: 'metadata.creators.1.person_or_org',
            value: 'Mulligan, Zoë',
            kept: 'free_text',
          },
          {
            field: 'metadata.creators.1.affiliations.0',
            value: 'Institute of Unlisted Studies',
            kept: 'free_text',
          },
        ]),
      );
      expect(answer.suggested_related_identifiers).toEqual([
        {
          scheme: 'doi',
          identifier: DATACITE_DOI.toUpperCase(),
          relation_type: { id: 'isderivedfrom' },
          resource_type: { id: 'dataset' },
        },
        {
          scheme: 'doi',
          identifier: DATACITE_DOI.toUpperCase(),
          relation_type: { id: 'issupplementto' },
          resource_type: { id: 'dataset' },
        },
      ]);
    });

    it('falls back to Crossref for a DOI DataCite does not know', async () => {
      const before = registries.seen.length;
      const res = await importInto({ doi: `doi:${CROSSREF_DOI}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(registries.seen.slice(before)).toEqual([
        `/datacite/dois/${CROSSREF_DOI}`,
        `/crossref/works/${CROSSREF_DOI}`,
      ]);
      const answer = res.json();
      expect(answer.source.agency).toBe('crossref');
      const m = answer.metadata;
      expect(m.title).toBe('Outflow discharge of the Rhône Glacier, 2019–2023');
      expect(m.resource_type).toEqual({ id: 'publication-article' });
      expect(m.publication_date).toBe('2024-03');
      expect(m.description).toBe(
        '<p>We report daily outflow discharge of the Rhône Glacier measured at three stations.</p>',
      );
      expect(m.creators[0].person_or_org.identifiers).toEqual([
        { scheme: 'orcid', identifier: CARBERRY },
      ]);
      expect(m.creators[0].affiliations).toEqual([{ id: CERN }]);
      expect(m.rights).toEqual([{ id: 'cc-by-4.0' }]);
      expect(m.funding[0].funder).toEqual({ id: SNF });
      expect(m.references).toHaveLength(2);
      expect(m.related_identifiers).toEqual([
        { scheme: 'issn', identifier: '0022-1430', relation_type: { id: 'ispublishedin' } },
      ]);
    });

    it('answers 404 for a DOI neither registry knows, and 400 for what is no DOI', async () => {
      const unknown = await importInto({ doi: '10.9999/nothing.here' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({
        status: 404,
        code: 'NOT_FOUND',
        message: 'Neither DataCite nor Crossref knows the DOI 10.9999/nothing.here.',
      });
      const notDoi = await importInto({ doi: 'glacier data' });
      expect(notDoi.statusCode).toBe(400);
      expect(notDoi.json().message).toBe('glacier data is not a DOI.');
    });
  });

  describe('from a file', () => {
    it('reads BibTeX', async () => {
      const answer = await importFile(sample('glacier-article.bib'));
      expect(answer.source).toEqual({ format: 'bibtex', doi: CROSSREF_DOI });
      const m = answer.metadata;
      expect(m.title).toBe('Outflow Discharge of the Rhône Glacier, 2019–2023');
      expect(m.resource_type).toEqual({ id: 'publication-article' });
      expect(m.publication_date).toBe('2024-03');
      expect(m.creators.map((c: { person_or_org: unknown }) => c.person_or_org)).toEqual([
        {
          type: 'personal',
          name: 'Carberry, Josiah',
          family_name: 'Carberry',
          given_name: 'Josiah',
        },
        { type: 'personal', name: 'Müller, Anna', family_name: 'Müller', given_name: 'Anna' },
        { type: 'organizational', name: 'European Organization for Nuclear Research' },
      ]);
      expect(m.subjects).toEqual([
        { subject: 'glaciers' },
        { subject: 'hydrology' },
        { subject: 'meltwater' },
      ]);
      expect(m.languages).toEqual([{ id: 'eng' }]);
      expect(m.publisher).toBe('Cambridge University Press');
      expect(answer.suggested_related_identifiers).toHaveLength(2);
    });

    it('reads RIS', async () => {
      const answer = await importFile(sample('station-data.ris'));
      expect(answer.source.format).toBe('ris');
      const m = answer.metadata;
      expect(m.title).toBe('Automatic weather station records, Rhône Glacier forefield');
      expect(m.resource_type).toEqual({ id: 'dataset' });
      expect(m.publication_date).toBe('2023-06-14');
      expect(m.languages).toEqual([{ id: 'deu' }]);
      expect(m.subjects).toEqual([{ subject: 'weather station' }, { subject: 'air temperature' }]);
      expect(m.identifiers).toEqual([
        { scheme: 'url', identifier: 'https://example.org/stations/rhone' },
      ]);
      expect(answer.source.doi).toBe('10.5281/zenodo.1234567');
    });

    it('reads CITATION.cff', async () => {
      const answer = await importFile(sample('CITATION.cff'), 'cff');
      const m = answer.metadata;
      expect(m.resource_type).toEqual({ id: 'software' });
      expect(m.version).toBe('2.4.1');
      expect(m.rights).toEqual([{ id: 'apache-2.0' }]);
      expect(m.creators[0]).toMatchObject({
        person_or_org: { identifiers: [{ scheme: 'orcid', identifier: CARBERRY }] },
        affiliations: [{ id: CERN }],
      });
      expect(m.creators[1].person_or_org).toEqual({
        type: 'personal',
        name: 'von Lüdenscheidt, Jürgen',
        family_name: 'von Lüdenscheidt',
        given_name: 'Jürgen',
      });
      expect(m.creators[2].person_or_org).toEqual({
        type: 'organizational',
        name: 'Swiss Glacier Monitoring Network',
      });
      expect(m.related_identifiers).toEqual([
        {
          scheme: 'url',
          identifier: 'https://github.com/example/meltwater',
          relation_type: { id: 'issupplementto' },
        },
      ]);
      expect(answer.source.doi).toBe('10.5281/zenodo.7654321');
    });

    it('reads DataCite XML into what its JSON gives', async () => {
      const xml = await importFile(sample('datacite.xml'));
      const json = await importFile(sample('datacite.json'), 'datacite-json');
      expect(xml.source.format).toBe('datacite-xml');
      expect(json.source.format).toBe('datacite-json');
      expect(xml.metadata).toEqual(json.metadata);
      expect(xml.unmatched).toEqual(json.unmatched);
      expect(xml.metadata.dates).toEqual([
        { date: '2020-11-01/2021-04-30', type: { id: 'collected' } },
        { date: '2022-02-14', type: { id: 'updated' } },
      ]);
      expect(xml.metadata.additional_titles).toEqual([
        { title: 'Supplementary data', type: { id: 'subtitle' }, lang: { id: 'eng' } },
      ]);
      expect(xml.metadata.additional_descriptions).toEqual([
        {
          description: 'Density from 100 cm³ cutters; depth from probes.',
          type: { id: 'methods' },
        },
      ]);
    });

    it('reads CodeMeta', async () => {
      const answer = await importFile(sample('codemeta.json'));
      expect(answer.source).toEqual({
        format: 'codemeta',
        doi: 'https://doi.org/10.5281/zenodo.7654321',
      });
      const m = answer.metadata;
      expect(m.title).toBe('meltwater');
      expect(m.resource_type).toEqual({ id: 'software' });
      expect(m.rights).toEqual([{ id: 'apache-2.0' }]);
      expect(m.creators[0].affiliations).toEqual([{ id: CERN }]);
      expect(m.dates).toEqual([{ date: '2024-10-02', type: { id: 'updated' } }]);
      expect(m.funding).toEqual([
        {
          // Matched by the funder's whole name, as no identifier was given.
          funder: { id: SNF },
          award: { number: '200021_188888' },
        },
      ]);
    });

    it('reads an InvenioRDM record, leaving out vocabulary ids this site lacks', async () => {
      const answer = await importFile(sample('inveniordm-record.json'));
      expect(answer.source).toEqual({ format: 'inveniordm', doi: '10.48550/inv.a7kmw-3e516' });
      const m = answer.metadata;
      expect(m.resource_type).toEqual({ id: 'dataset' });
      expect(m.creators[0].affiliations).toEqual([{ id: CERN }]);
      expect(m.creators[1]).toEqual({
        person_or_org: { type: 'organizational', name: 'Glacier Monitoring Office' },
        role: { id: 'hostinginstitution' },
      });
      expect(m.rights).toEqual([{ id: 'cc-by-4.0' }]);
      expect(m.languages).toEqual([{ id: 'eng' }]);
      expect(m.subjects).toEqual([{ subject: 'glaciology' }]);
      expect(m.related_identifiers).toEqual([
        {
          scheme: 'doi',
          identifier: '10.1017/jog.2024.12',
          relation_type: { id: 'iscitedby' },
          resource_type: { id: 'publication-article' },
        },
      ]);
      expect(answer.unmatched).toEqual(
        expect.arrayContaining([
          { field: 'metadata.languages.1', value: 'xx-unknown', kept: 'dropped' },
          {
            field: 'metadata.subjects',
            value: 'https://id.nlm.nih.gov/mesh/D000001',
            kept: 'dropped',
          },
          { field: 'metadata.funding.0.funder', value: 'European Commission', kept: 'free_text' },
        ]),
      );
    });

    it('reads a Zenodo legacy record', async () => {
      const answer = await importFile(sample('zenodo-legacy.json'), 'inveniordm');
      const m = answer.metadata;
      expect(m.resource_type).toEqual({ id: 'dataset' });
      expect(m.creators[0]).toMatchObject({
        person_or_org: {
          family_name: 'Carberry',
          identifiers: [{ scheme: 'orcid', identifier: CARBERRY }],
        },
        affiliations: [{ id: CERN }],
      });
      expect(m.creators[1].person_or_org).toEqual({
        type: 'personal',
        name: 'Mulligan, Zoë',
        family_name: 'Mulligan',
        given_name: 'Zoë',
      });
      expect(m.languages).toEqual([{ id: 'deu' }]);
      expect(m.rights).toEqual([{ id: 'cc-by-4.0' }]);
      expect(m.related_identifiers[0].relation_type).toEqual({ id: 'issupplementto' });
      expect(answer.source.doi).toBe('10.5281/zenodo.1234567');
    });

    it('takes what the names vocabulary knows of an ORCID iD the file gives alone', async () => {
      const answer = await importFile(
        JSON.stringify({
          titles: [{ title: 'Snow pits' }],
          creators: [
            {
              name: 'Carberry, J.',
              nameIdentifiers: [{ nameIdentifier: CARBERRY, nameIdentifierScheme: 'ORCID' }],
            },
          ],
        }),
      );
      expect(answer.source.format).toBe('datacite-json');
      expect(answer.metadata.creators).toEqual([
        {
          person_or_org: {
            type: 'personal',
            name: 'Carberry, J.',
            family_name: 'Carberry',
            given_name: 'J.',
            identifiers: [{ scheme: 'orcid', identifier: CARBERRY }],
          },
          affiliations: [{ id: CERN }],
        },
      ]);
      expect(answer.unmatched).toEqual([]);
    });

    it("leaves out what the draft could not store, with the draft's own message", async () => {
      const answer = await importFile(
        'cff-version: 1.2.0\ntitle: Tool\nauthors:\n  - family-names: Doe\n    orcid: 0000-0002-1825-0098\n',
      );
      expect(answer.metadata.creators).toEqual([
        { person_or_org: { type: 'personal', name: 'Doe', family_name: 'Doe' } },
      ]);
      expect(answer.errors).toEqual([
        {
          field: 'metadata.creators.0.person_or_org.identifiers.0.identifier',
          messages: ['Invalid ORCID identifier.'],
        },
      ]);
    });

    it('keeps an unknown licence, type and language as the source said, and says so', async () => {
      const bib = `@misc{x, title = {Field notes}, author = {Nobody, Ann}, type = {diorama}, language = {Parseltongue}, note = {see also}, year = {2021}}`;
      const answer = await importFile(bib);
      expect(answer.metadata.title).toBe('Field notes');
      expect(answer.unmatched).toEqual(
        expect.arrayContaining([
          { field: 'metadata.resource_type', value: 'document', kept: 'dropped' },
          { field: 'metadata.languages.0', value: 'Parseltongue', kept: 'dropped' },
          { field: 'metadata.creators.0.person_or_org', value: 'Nobody, Ann', kept: 'free_text' },
        ]),
      );
      const cff = await importFile(
        'cff-version: 1.2.0\ntitle: Tool\nlicense: My-Own-Licence\nauthors:\n  - name: Lab\n',
      );
      expect(cff.metadata.rights).toEqual([{ title: { en: 'My-Own-Licence' } }]);
      expect(cff.unmatched).toContainEqual({
        field: 'metadata.rights.0',
        value: 'My-Own-Licence',
        kept: 'free_text',
      });
    });
  });

  describe('bad input', () => {
    it('refuses a malformed file with the format it was read as', async () => {
      const cases: Array<[object, string]> = [
        [
          { content: '@article{broken, title = {unclosed', format: 'bibtex' },
          'The file is not valid BibTeX: no BibTeX entry found.',
        ],
        [
          { content: 'TY  - JOUR\nTI  no dash\n', format: 'ris' },
          'The file is not valid RIS: no RIS record found.',
        ],
        [
          { content: '<resource><titles><title>x</titles>' },
          'The file is not valid DataCite XML: not well-formed XML with a DataCite resource element.',
        ],
        [
          { content: '{"metadata": {"title": "x"' },
          'The file is none of the formats Cairn imports (BibTeX, RIS, CITATION.cff, DataCite JSON, DataCite XML, CodeMeta JSON, InvenioRDM or Zenodo record JSON).',
        ],
        [
          { content: 'cff-version: [1.2.0\ntitle: x', format: 'cff' },
          'The file is not valid CITATION.cff: a CITATION.cff is YAML with a cff-version key.',
        ],
        [
          { content: 'just some words' },
          'The file is none of the formats Cairn imports (BibTeX, RIS, CITATION.cff, DataCite JSON, DataCite XML, CodeMeta JSON, InvenioRDM or Zenodo record JSON).',
        ],
      ];
      for (const [body, message] of cases) {
        const res = await importInto(body);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toEqual({
          status: 400,
          code: 'VALIDATION_FAILED',
          message,
          errors: [{ field: 'content', messages: [message] }],
        });
      }
    });

    it('refuses a file that lies about its type', async () => {
      const cases: Array<[string, string, string]> = [
        ['bibtex', sample('datacite.json'), 'The file is not valid BibTeX: no BibTeX entry found.'],
        ['ris', sample('glacier-article.bib'), 'The file is not valid RIS: no RIS record found.'],
        [
          'datacite-json',
          sample('codemeta.json'),
          'The file is not valid DataCite JSON: it reads as CodeMeta JSON.',
        ],
        [
          'codemeta',
          sample('inveniordm-record.json'),
          'The file is not valid CodeMeta JSON: it reads as InvenioRDM or Zenodo record JSON.',
        ],
        [
          'datacite-xml',
          sample('CITATION.cff'),
          'The file is not valid DataCite XML: not well-formed XML with a DataCite resource element.',
        ],
        [
          'cff',
          sample('station-data.ris'),
          'The file is not valid CITATION.cff: a CITATION.cff is YAML with a cff-version key.',
        ],
        [
          'inveniordm',
          '{"title": "x"}',
          'The file is not valid InvenioRDM or Zenodo record JSON: none of its required keys is there.',
        ],
      ];
      for (const [format, content, message] of cases) {
        const res = await importInto({ format, content });
        expect(res.statusCode, `${format}: ${res.body}`).toBe(400);
        expect(res.json().message).toBe(message);
      }
    });

    it('refuses an unknown format and a body that is neither a DOI nor a file', async () => {
      const format = await importInto({ format: 'endnote-xml', content: '<xml/>' });
      expect(format.statusCode).toBe(400);
      expect(format.json().message).toBe(
        'Unknown format "endnote-xml": one of bibtex, ris, cff, datacite-json, datacite-xml, codemeta, inveniordm.',
      );
      const neither = await importInto({ url: 'https://example.org' });
      expect(neither.statusCode).toBe(400);
      expect(neither.json().message).toMatch(/^Send \{"doi": "10\.…"\} or \{"content"/);
    });

    it('refuses a file over 5 MB, and a 50 MB body before reading it', async () => {
      const message =
        'The file is larger than 5 MB, the most an import reads. Metadata files are far smaller: is it the right file?';
      const padded = `${sample('glacier-article.bib')}\n%${'x'.repeat(5 * 1024 * 1024)}`;
      const over = await importInto({ content: padded, format: 'bibtex' });
      expect(over.statusCode).toBe(413);
      expect(over.json()).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE', message });
      const huge = await importInto(JSON.stringify({ content: 'x'.repeat(50 * 1024 * 1024) }), {
        ...owner.headers,
        'content-type': 'application/json',
      });
      expect(huge.statusCode).toBe(413);
      expect(huge.json()).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE', message });
    });

    it("answers a stranger and an anonymous caller as the draft's other actions do", async () => {
      const stranger = await t.user();
      const publish = await t.request({
        method: 'POST',
        url: `/api/records/${draftId}/draft/actions/publish`,
        headers: stranger.headers,
      });
      const before = registries.seen.length;
      const res = await importInto({ doi: DATACITE_DOI }, stranger.headers);
      expect(res.statusCode).toBe(publish.statusCode);
      expect(res.statusCode).toBe(403);
      const anonymous = await importInto({ content: sample('glacier-article.bib') }, {});
      expect(anonymous.statusCode).toBe(403);
      // Whatever the body holds: the draft's permission is judged first.
      const nonsense = await importInto({ url: 'https://example.org' }, stranger.headers);
      expect(nonsense.statusCode).toBe(403);
      // Refused before any registry was asked.
      expect(registries.seen.length).toBe(before);
      const missing = await importInto({ doi: DATACITE_DOI }, owner.headers, 'zzzzz-zzzzz');
      expect(missing.statusCode).toBe(404);
    });

    it('answers parallel imports alike, and changes nothing', async () => {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          i % 2 === 0
            ? importInto({ doi: DATACITE_DOI })
            : importInto({ content: sample('datacite.xml') }),
        ),
      );
      for (const res of answers) expect(res.statusCode, res.body).toBe(200);
      const [first, second] = answers.map((r) => r.json<{ metadata: unknown }>().metadata);
      expect(second).toEqual(first);
    });
  });

  describe('with a registry failing', () => {
    it('answers 502 saying which registry failed how', async () => {
      const res = await importInto({ doi: BROKEN_DOI });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({
        status: 502,
        code: 'UPSTREAM_FAILED',
        message: "The DOI's metadata could not be read: DataCite answered 503. Please retry later.",
      });
    });

    it('answers 504 when neither answers within the configured time', async () => {
      const slow = await appWithDraft(engine, {
        CAIRN_DATACITE_API_URL: `${registries.url}/datacite`,
        CAIRN_CROSSREF_API_URL: `${registries.url}/crossref`,
        CAIRN_IMPORT_TIMEOUT_SECONDS: '1',
      });
      try {
        const res = await slow.importInto({ doi: SILENT_DOI });
        expect(res.statusCode).toBe(504);
        expect(res.json()).toEqual({
          status: 504,
          code: 'UPSTREAM_TIMEOUT',
          message:
            "The DOI's metadata could not be read: DataCite did not answer within 1 s. Crossref did not answer within 1 s. Please retry later.",
        });
      } finally {
        await slow.t.close();
      }
    });
  });

  describe('an author list at collaboration scale', () => {
    it('is matched in a few queries, not one per author', async () => {
      const counter = new StatementCounter();
      const big = await appWithDraft(engine, {}, counter);
      try {
        await seedVocabularies(big.t);
        const creators = Array.from({ length: 1200 }, (_, i) => ({
          nameType: 'Personal',
          givenName: 'Ann',
          familyName: `Author ${i}`,
          nameIdentifiers: [
            {
              nameIdentifier: `0009-0000-${String(i).padStart(4, '0')}-0000`,
              nameIdentifierScheme: 'ORCID',
            },
          ],
          affiliation: [{ name: i % 2 ? 'CERN' : `Laboratory ${i % 40}` }],
        }));
        const content = JSON.stringify({ titles: [{ title: 'Many hands' }], creators });
        const { result, statements } = await counter.measure(() => big.importInto({ content }));
        expect(result.statusCode, result.body).toBe(200);
        const answer = result.json<{ metadata: { creators: Array<{ affiliations: unknown }> } }>();
        expect(answer.metadata.creators).toHaveLength(1200);
        expect(answer.metadata.creators[1]!.affiliations).toEqual([{ id: CERN }]);
        // Before batching: two or more lookups per author (over 2,400 statements).
        expect(statements.length).toBeLessThan(40);
      } finally {
        await big.t.close();
      }
    });
  });

  describe('with the registries unreachable', () => {
    let down: Awaited<ReturnType<typeof appWithDraft>>;

    beforeAll(async () => {
      const nowhere = await closedPort();
      down = await appWithDraft(engine, {
        CAIRN_DATACITE_API_URL: nowhere,
        CAIRN_CROSSREF_API_URL: nowhere,
      });
    });
    afterAll(async () => down?.t.close());

    it('answers 502 naming both registries, and still reads files', async () => {
      const res = await down.importInto({ doi: DATACITE_DOI });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({
        status: 502,
        code: 'UPSTREAM_FAILED',
        message:
          "The DOI's metadata could not be read: DataCite could not be reached. Crossref could not be reached. Please retry later.",
      });
      const file = await down.importInto({ content: sample('station-data.ris') });
      expect(file.statusCode, file.body).toBe(200);
    });
  });
});
