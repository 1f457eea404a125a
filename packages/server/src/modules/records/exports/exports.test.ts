import { describe, expect, it } from 'vitest';
import { EXPORT_FORMAT_LINKS } from '@cairn/shared';
import { CTX, record } from '../../../test/exports.js';
import { latexEscape, toBibtex } from './bibtex.js';
import { toCslJson } from './csl.js';
import { toDataCiteJson } from './datacite-json.js';
import { toDublinCore } from './dublin-core.js';
import { xmlEscape } from './xml.js';
import { openFiles } from './export-record.js';
import { EXPORT_FORMATS } from './export-formats.js';
import { toSchemaOrg } from './schemaorg.js';

describe('the export registry', () => {
  it('has the formats the landing page lists, in its order and with its labels', () => {
    expect(EXPORT_FORMATS.map(({ name, label }) => ({ name, label }))).toEqual(EXPORT_FORMAT_LINKS);
  });
});

describe('DataCite JSON', () => {
  it('carries the DOI, the landing page and the attributes DOI registration sends', () => {
    const json = toDataCiteJson(record(), CTX);
    expect(json.doi).toBe('10.5072/ab12c-3de45');
    expect(json.url).toBe('https://cairn.example/records/ab12c-3de45');
    expect(json.titles).toEqual([{ title: 'Ice cores & 50% of the_Weddell {Sea}' }]);
    expect(json.publisher).toBe('Cairn Polar Data');
    expect(json.publicationYear).toBe('2024');
    expect(json.types).toEqual({ resourceTypeGeneral: 'Dataset' });
    expect((json.creators as unknown[])[0]).toMatchObject({
      name: 'Müller, Jürgen',
      nameIdentifiers: [{ nameIdentifier: 'https://orcid.org/0000-0002-1825-0097' }],
    });
    expect(json.descriptions).toEqual([
      { description: 'Cores drilled in 2023 & 2024.', descriptionType: 'Abstract' },
    ]);
  });

  it('has no doi key for a record without one', () => {
    expect(toDataCiteJson(record({ pids: {} }), CTX)).not.toHaveProperty('doi');
  });
});

describe('schema.org JSON-LD', () => {
  it('types the record from the resource type and names people with their ORCID and ROR', () => {
    const json = toSchemaOrg(record(), CTX);
    expect(json['@context']).toBe('http://schema.org');
    expect(json['@type']).toBe('https://schema.org/Dataset');
    expect(json['@id']).toBe('https://doi.org/10.5072/ab12c-3de45');
    expect(json.name).toBe('Ice cores & 50% of the_Weddell {Sea}');
    expect(json.creator).toEqual([
      {
        '@type': 'Person',
        '@id': 'https://orcid.org/0000-0002-1825-0097',
        name: 'Müller, Jürgen',
        givenName: 'Jürgen',
        familyName: 'Müller',
        affiliation: [
          { '@type': 'Organization', '@id': 'https://ror.org/01ggx4157', name: 'CERN' },
        ],
      },
      { '@type': 'Organization', name: 'Polar Institute' },
    ]);
    expect(json.description).toBe('Cores drilled in 2023 & 2024.');
    expect(json.keywords).toEqual(['glaciology', 'ice cores']);
    expect(json.license).toBe('https://creativecommons.org/licenses/by/4.0/legalcode');
    expect(json.inLanguage).toEqual({ '@type': 'Language', alternateName: 'en', name: 'English' });
    expect(json.distribution).toEqual([
      {
        '@type': 'DataDownload',
        name: 'cores.csv',
        contentUrl: 'https://cairn.example/api/records/ab12c-3de45/files/cores.csv/content',
        encodingFormat: 'text/csv',
        contentSize: '1234',
      },
      {
        '@type': 'DataDownload',
        name: 'paper.pdf',
        contentUrl: 'https://cairn.example/api/records/ab12c-3de45/files/paper.pdf/content',
        encodingFormat: 'application/pdf',
        contentSize: '5000000',
      },
    ]);
  });

  it.each([
    ['restricted files', { record: 'public', files: 'restricted', embargo: { active: false } }],
    [
      'an embargo',
      { record: 'public', files: 'restricted', embargo: { active: true, until: '2099-01-01' } },
    ],
    [
      'a restricted record',
      { record: 'restricted', files: 'restricted', embargo: { active: false } },
    ],
  ])('names no files of a record with %s', (_label, access) => {
    const r = record({ access });
    expect(openFiles(r, CTX)).toEqual([]);
    const text = JSON.stringify(toSchemaOrg(r, CTX));
    expect(text).not.toContain('cores.csv');
    expect(text).not.toContain('/files/');
  });

  it('uses the landing page as @id without a DOI and CreativeWork for an unknown type', () => {
    const json = toSchemaOrg(
      record({ pids: {}, metadata: { ...record().metadata, resource_type: { id: 'nonesuch' } } }),
      CTX,
    );
    expect(json['@id']).toBe('https://cairn.example/records/ab12c-3de45');
    expect(json['@type']).toBe('https://schema.org/CreativeWork');
    expect(json).not.toHaveProperty('distribution');
  });
});

describe('CSL-JSON', () => {
  it('gives citeproc the type, people, date and DOI', () => {
    expect(toCslJson(record(), CTX)).toEqual({
      id: 'ab12c-3de45',
      type: 'dataset',
      title: 'Ice cores & 50% of the_Weddell {Sea}',
      author: [{ family: 'Müller', given: 'Jürgen' }, { literal: 'Polar Institute' }],
      contributor: [{ family: 'Nansen', given: 'Fridtjof' }],
      issued: { 'date-parts': [[2024, 5, 1]] },
      abstract: 'Cores drilled in 2023 & 2024.',
      DOI: '10.5072/ab12c-3de45',
      URL: 'https://doi.org/10.5072/ab12c-3de45',
      publisher: 'Cairn Polar Data',
      version: 'v1.2',
      language: 'en',
      keyword: 'glaciology, ice cores',
    });
  });

  it('dates an interval by its start and a year-only date by its year', () => {
    const r = (d: string) =>
      toCslJson(record({ metadata: { ...record().metadata, publication_date: d } }), CTX).issued;
    expect(r('2020-03/2021')).toEqual({ 'date-parts': [[2020, 3]] });
    expect(r('2019')).toEqual({ 'date-parts': [[2019]] });
  });

  it('maps a journal article to article-journal', () => {
    const r = record({
      metadata: { ...record().metadata, resource_type: { id: 'publication-article' } },
    });
    expect(toCslJson(r, CTX).type).toBe('article-journal');
  });
});

describe('BibTeX', () => {
  it('writes one entry with an ASCII key and LaTeX-escaped values', () => {
    expect(toBibtex(record(), CTX)).toBe(
      [
        '@dataset{muller_2024_ab12c3de45,',
        '  author    = {Müller, Jürgen and {Polar Institute}},',
        '  title     = {{Ice cores \\& 50\\% of the\\_Weddell \\{Sea\\}}},',
        '  publisher = {Cairn Polar Data},',
        '  year      = {2024},',
        '  month     = may,',
        '  version   = {v1.2},',
        '  doi       = {10.5072/ab12c-3de45},',
        '  url       = {https://doi.org/10.5072/ab12c-3de45}',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('escapes every LaTeX special character', () => {
    expect(latexEscape('a\\b~c^d#e$f')).toBe(
      'a\\textbackslash{}b\\textasciitilde{}c\\textasciicircum{}d\\#e\\$f',
    );
  });

  it('uses @misc, the site as publisher and the landing page without a DOI', () => {
    const m = { ...record().metadata, resource_type: { id: 'image-photo' } };
    delete m.publisher;
    const bib = toBibtex(record({ pids: {}, metadata: m }), CTX);
    expect(bib).toMatch(/^@misc\{/);
    expect(bib).toContain('publisher = {Cairn}');
    expect(bib).toContain('url       = {https://cairn.example/records/ab12c-3de45}');
    expect(bib).not.toContain('doi');
  });
});

describe('Dublin Core XML', () => {
  it('lists the elements in the oai_dc container, escaped', () => {
    const xml = toDublinCore(record(), CTX);
    expect(xml).toMatch(/^<\?xml version='1.0' encoding='utf-8'\?>\n<oai_dc:dc /);
    expect(xml).toContain('<dc:creator>Müller, Jürgen</dc:creator>');
    expect(xml).toContain('<dc:creator>Polar Institute</dc:creator>');
    expect(xml).toContain('<dc:contributor>Nansen, Fridtjof</dc:contributor>');
    expect(xml).toContain('<dc:title>Ice cores &#38; 50% of the_Weddell {Sea}</dc:title>');
    expect(xml).toContain('<dc:identifier>https://doi.org/10.5072/ab12c-3de45</dc:identifier>');
    expect(xml).toContain('<dc:rights>info:eu-repo/semantics/openAccess</dc:rights>');
    expect(xml).toContain('<dc:type>info:eu-repo/semantics/other</dc:type>');
    expect(xml).toContain('<dc:type>Dataset</dc:type>');
    expect(xml).toContain('<dc:relation>doi:10.1234/paper</dc:relation>');
    expect(xml).toContain('<dc:description>Cores drilled in 2023 &#38; 2024.</dc:description>');
    expect(xml.trimEnd().endsWith('</oai_dc:dc>')).toBe(true);
  });

  it('names the embargo end and embargoed access', () => {
    const xml = toDublinCore(
      record({
        access: {
          record: 'public',
          files: 'restricted',
          embargo: { active: true, until: '2099-01-01' },
          status: 'embargoed',
        },
      }),
      CTX,
    );
    expect(xml).toContain('<dc:rights>info:eu-repo/semantics/embargoedAccess</dc:rights>');
    expect(xml).toContain('<dc:date>info:eu-repo/date/embargoEnd/2099-01-01</dc:date>');
  });

  it('drops characters XML cannot hold and escapes markup', () => {
    expect(xmlEscape('a\u0001b<c>"\ud800')).toBe('ab&#60;c&#62;&#34;');
  });
});
