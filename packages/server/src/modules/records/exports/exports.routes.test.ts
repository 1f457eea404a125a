import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/databases.js';
import {
  createFilesTestApp,
  FilesApi,
  PUBLISHABLE_METADATA,
  type Caller,
} from '../../../test/files.js';
import type { TestApp } from '../../../test/app.js';
import { DATACITE_XSD, xmllint } from '../../../test/exports.js';
import { LINKSET_TYPES } from '../signposting.js';
import { formatBibliography } from './bibliography.js';
import { EXPORT_FORMATS, NEGOTIABLE_FORMATS, type ExportFormat } from './export-formats.js';

const CSL_TYPE = 'application/vnd.citationstyles.csl+json';

const METADATA = {
  ...PUBLISHABLE_METADATA,
  title: 'Seabird colony counts',
  creators: [
    {
      person_or_org: {
        type: 'personal',
        family_name: 'Lovelace',
        given_name: 'Ada',
        identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
      },
    },
  ],
  description: '<p>Counts of <em>seabirds</em>.</p>',
};

const ALL_TYPES = [
  'application/json',
  'application/vnd.inveniordm.v1+json',
  ...NEGOTIABLE_FORMATS.map((f) => f.mediaType),
  'text/x-bibliography',
  ...LINKSET_TYPES,
].join(', ');

describe.each(ENGINES)('record exports (%s)', (engine) => {
  let t: TestApp & { storeRoot: string };
  let owner: Caller;
  let stranger: Caller;
  let api: FilesApi;

  /** A published record with one file `counts.csv`, under the given access. */
  async function published(access?: Record<string, unknown>): Promise<string> {
    const { id } = await api.createDraft({
      metadata: METADATA,
      ...(access ? { access } : {}),
    });
    await api.upload(id, 'counts.csv', 'species,count\ngannet,12\n');
    await api.publish(id);
    return id;
  }

  function get(url: string, accept: string | undefined, caller?: Caller) {
    return t.request({
      method: 'GET',
      url,
      headers: { ...(accept ? { accept } : {}), ...(caller?.headers ?? {}) },
    });
  }

  /** A record in a format: through `Accept` where the format answers it, else its download. */
  function exported(id: string, format: ExportFormat, caller?: Caller) {
    return format.negotiable === false
      ? get(`/records/${id}/export/${format.name}`, undefined, caller)
      : get(`/api/records/${id}`, format.mediaType, caller);
  }

  beforeAll(async () => {
    t = await createFilesTestApp(engine);
    owner = await t.user();
    stranger = await t.user();
    api = new FilesApi(t, owner);
  });
  afterAll(() => t.close());

  it('answers each export media type on GET /api/records/{id}, echoing it', async () => {
    const id = await published();
    expect(NEGOTIABLE_FORMATS.map((f) => f.name)).toEqual(
      EXPORT_FORMATS.map((f) => f.name).filter((name) => name !== 'cff'),
    );
    for (const format of NEGOTIABLE_FORMATS) {
      const res = await get(`/api/records/${id}`, format.mediaType);
      expect(res.statusCode, `${format.name}: ${res.body}`).toBe(200);
      expect(res.headers['content-type']).toContain(format.mediaType);
      expect(res.body, format.name).toContain('Seabird colony counts');
    }
    const jsonLd = (await get(`/api/records/${id}`, 'application/ld+json')).json();
    expect(jsonLd['@type']).toBe('https://schema.org/Dataset');
    expect(jsonLd.distribution[0].contentUrl).toBe(
      `https://cairn.test/api/records/${id}/files/counts.csv/content`,
    );
    const csl = (await get(`/api/records/${id}`, 'application/vnd.citationstyles.csl+json')).json();
    expect(csl).toMatchObject({
      id,
      type: 'dataset',
      author: [{ family: 'Lovelace', given: 'Ada' }],
    });
    const bib = await get(`/api/records/${id}`, 'application/x-bibtex');
    expect(bib.body).toMatch(/^@dataset\{lovelace_2024_/);
  });

  it('keeps JSON for no Accept, a wildcard, or JSON listed first', async () => {
    const id = await published();
    for (const accept of [undefined, '*/*', 'application/json, application/x-bibtex']) {
      const res = await get(`/api/records/${id}`, accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json().id).toBe(id);
    }
  });

  it('refuses an unknown Accept with 406 naming every type on offer', async () => {
    const id = await published();
    const res = await get(`/api/records/${id}`, 'application/marcxml+xml');
    expect(res.statusCode).toBe(406);
    expect(res.json()).toMatchObject({
      status: 406,
      message: `Invalid 'Accept' header. Expected one of: ${ALL_TYPES}`,
    });
  });

  it('formats the citation for text/x-bibliography in the style and locale asked, Harvard by default', async () => {
    const id = await published();
    const csl = JSON.parse((await get(`/api/records/${id}`, CSL_TYPE)).body) as unknown;
    const harvard = await get(`/api/records/${id}`, 'text/x-bibliography');
    expect(harvard.statusCode, harvard.body).toBe(200);
    // As InvenioRDM answers it: plain text.
    expect(harvard.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(harvard.body).toBe(formatBibliography(csl, 'harvard1', undefined));
    expect(harvard.body).toMatch(/^Lovelace, A\. \(\d{4}\) “Seabird colony counts\.” /);
    const german = await get(`/api/records/${id}?style=apa&locale=de-DE`, 'text/x-bibliography');
    expect(german.body).toBe(formatBibliography(csl, 'apa', 'de-DE'));
    expect(german.body).not.toBe(harvard.body);
    // The record's other arguments are ignored, as InvenioRDM ignores them.
    const other = await get(`/api/records/${id}?style=ieee&expand=1`, 'text/x-bibliography');
    expect(other.body).toMatch(/^\[1\] A\. Lovelace, “Seabird colony counts,”/);
  });

  it("refuses a citation style it does not know with InvenioRDM's 400", async () => {
    const id = await published();
    const res = await get(`/api/records/${id}?style=nature`, 'text/x-bibliography');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, message: 'Citation string style not found.' });
    const long = await get(`/api/records/${id}?style=${'a'.repeat(101)}`, 'text/x-bibliography');
    expect(long.statusCode).toBe(400);
  });

  it('formats no citation of a record the caller may not read', async () => {
    const id = await published({ record: 'restricted', files: 'restricted' });
    const res = await get(`/api/records/${id}?style=apa`, 'text/x-bibliography', stranger);
    expect([403, 404]).toContain(res.statusCode);
    expect(res.body).not.toContain('Seabird');
    const own = await get(`/api/records/${id}?style=apa`, 'text/x-bibliography', owner);
    expect(own.body).toContain('Seabird colony counts');
  });

  it('offers each format as a download at /records/{id}/export/{name}', async () => {
    const id = await published();
    for (const format of EXPORT_FORMATS) {
      const res = await get(`/records/${id}/export/${format.name}`, undefined);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toContain(format.mediaType);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename=${id}.${format.extension}`,
      );
      const api = await exported(id, format);
      expect(res.body).toBe(api.body);
    }
  });

  it('offers CITATION.cff as a download only, not on Accept', async () => {
    const id = await published();
    const cff = await get(`/records/${id}/export/cff`, undefined);
    expect(cff.statusCode).toBe(200);
    expect(cff.headers['content-type']).toContain('application/yaml');
    expect(cff.headers['content-disposition']).toBe(`attachment; filename=${id}.cff`);
    expect(cff.body).toContain('title: "Seabird colony counts"');
    expect(cff.body).toContain('family-names: "Lovelace"');
    const viaAccept = await get(`/api/records/${id}`, 'application/yaml');
    expect(viaAccept.statusCode).toBe(406);
    expect(viaAccept.json().message).toBe(`Invalid 'Accept' header. Expected one of: ${ALL_TYPES}`);
  });

  it('answers the new formats with their content: valid DataCite XML, DCAT-AP, CodeMeta', async () => {
    const id = await published();
    const datacite = await get(`/api/records/${id}`, 'application/vnd.datacite.datacite+xml');
    expect(xmllint(datacite.body, DATACITE_XSD)).toBe('');
    expect(datacite.body).toContain('<creatorName nameType="Personal">Lovelace, Ada</creatorName>');
    const dcat = await get(`/api/records/${id}`, 'application/dcat+xml');
    expect(xmllint(dcat.body)).toBe('');
    expect(dcat.body).toContain(
      `<dcat:downloadURL rdf:resource="https://cairn.test/api/records/${id}/files/counts.csv/content"/>`,
    );
    const codemeta = (await get(`/api/records/${id}`, 'application/vnd.codemeta.ld+json')).json();
    expect(codemeta).toMatchObject({
      '@context': 'https://w3id.org/codemeta/3.0',
      name: 'Seabird colony counts',
      author: [{ '@id': 'https://orcid.org/0000-0002-1825-0097', familyName: 'Lovelace' }],
    });
  });

  it('lists every Accept media type in the OpenAPI document, and not CFF', async () => {
    const doc = (await get('/api/docs/openapi.json', undefined)).json();
    const operation = doc.paths['/api/records/{id}'].get;
    const documented = Object.keys(operation.responses['200'].content ?? {});
    for (const format of NEGOTIABLE_FORMATS) expect(documented).toContain(format.mediaType);
    expect(documented).not.toContain('application/yaml');
  });

  it('answers 404 for an unknown format, an unknown record and an unpublished draft', async () => {
    const id = await published();
    expect((await get(`/records/${id}/export/marcxml`, undefined)).statusCode).toBe(404);
    const unknown = await get('/records/zzzzz-zzzzz/export/bibtex', undefined);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('The persistent identifier does not exist.');
    const { id: draft } = await api.createDraft({ metadata: METADATA });
    expect((await get(`/records/${draft}/export/bibtex`, undefined)).statusCode).toBe(404);
    expect((await get(`/api/records/${draft}`, 'application/x-bibtex')).statusCode).toBe(404);
  });

  it('gives a restricted record to nobody but its owner, in any format', async () => {
    const id = await published({
      record: 'restricted',
      files: 'restricted',
      embargo: { active: false },
    });
    for (const format of EXPORT_FORMATS) {
      for (const caller of [undefined, stranger]) {
        const viaAccept = await exported(id, format, caller);
        expect(viaAccept.statusCode).toBe(403);
        expect(viaAccept.body).not.toContain('Seabird');
        const viaLink = await get(`/records/${id}/export/${format.name}`, undefined, caller);
        expect(viaLink.statusCode).toBe(403);
        expect(viaLink.body).not.toContain('Seabird');
      }
      const mine = await exported(id, format, owner);
      expect(mine.statusCode).toBe(200);
      // Exports are for passing on: even the owner's names no restricted file.
      expect(mine.body).not.toContain('counts.csv');
    }
  });

  it('names no restricted or embargoed file in any format', async () => {
    const until = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    for (const access of [
      { record: 'public', files: 'restricted', embargo: { active: false } },
      {
        record: 'public',
        files: 'restricted',
        embargo: { active: true, until, reason: 'Peer review' },
      },
    ]) {
      const id = await published(access);
      for (const format of EXPORT_FORMATS) {
        for (const caller of [undefined, stranger, owner]) {
          const res = await exported(id, format, caller);
          expect(res.statusCode).toBe(200);
          expect(res.body, format.name).toContain('Seabird colony counts');
          expect(res.body, format.name).not.toContain('counts.csv');
          expect(res.body, format.name).not.toContain('/files/');
        }
      }
    }
  });

  it('follows a parent id to the latest version', async () => {
    const id = await published();
    const record = (await get(`/api/records/${id}`, undefined)).json();
    const res = await get(`/records/${record.parent.id}/export/bibtex`, undefined);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/records/${id}/export/bibtex`);
  });
});
