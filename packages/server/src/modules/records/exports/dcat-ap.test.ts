import { describe, expect, it } from 'vitest';
import {
  CTX,
  record,
  restrictedRecord,
  richRecord,
  xmllint,
  xpath,
  xpathStrings,
} from '../../../test/exports.js';
import { toDcatAp } from './dcat-ap.js';

const DATASET = "/*[local-name()='RDF']/*[local-name()='Dataset']";
const child = (name: string) => `${DATASET}/*[name()='${name}']`;

describe('DCAT-AP', () => {
  const xml = toDcatAp(richRecord(), CTX);

  it('is well-formed RDF/XML with one dcat:Dataset named by its DOI', () => {
    expect(xmllint(xml)).toBe('');
    expect(xml).toMatch(/^<\?xml version='1.0' encoding='utf-8'\?>\n<rdf:RDF /);
    expect(xml).toContain('xmlns:dcat="http://www.w3.org/ns/dcat#"');
    expect(xpath(xml, `count(${DATASET})`)).toBe('1');
    expect(xpath(xml, `string(${DATASET}/@*[local-name()='about'])`)).toBe(
      'https://doi.org/10.5072/ab12c-3de45',
    );
  });

  it('carries title, description, identifier, dates, keywords and links', () => {
    const r = richRecord();
    expect(xpathStrings(xml, child('dct:title'))).toEqual([r.metadata.title]);
    expect(xpathStrings(xml, child('dct:description'))).toEqual([
      'Line one: colons, "quotes" & \'apostrophes\'.\nSecond paragraph — 日本語, émigré.',
    ]);
    expect(xpathStrings(xml, child('dct:identifier'))).toEqual([
      'https://doi.org/10.5072/ab12c-3de45',
    ]);
    expect(xml).toContain(
      '<dct:issued rdf:datatype="http://www.w3.org/2001/XMLSchema#date">2024-05-01</dct:issued>',
    );
    expect(xml).toContain(
      '<dct:modified rdf:datatype="http://www.w3.org/2001/XMLSchema#dateTime">2024-05-03T11:00:00.000000+00:00</dct:modified>',
    );
    expect(xpathStrings(xml, child('dcat:keyword'))).toEqual([
      'Ice Cover',
      'glaciology',
      'yes',
      '- not a list: really',
    ]);
    for (const fragment of [
      '<dct:language rdf:resource="http://publications.europa.eu/resource/authority/language/ENG"/>',
      '<dct:language rdf:resource="http://publications.europa.eu/resource/authority/language/DEU"/>',
      '<dct:license rdf:resource="https://creativecommons.org/licenses/by/4.0/legalcode"/>',
      '<dct:accessRights rdf:resource="http://publications.europa.eu/resource/authority/access-right/PUBLIC"/>',
      '<dcat:landingPage rdf:resource="https://cairn.example/records/ab12c-3de45"/>',
      '<dct:type rdf:resource="http://purl.org/dc/dcmitype/Dataset"/>',
    ])
      expect(xml).toContain(fragment);
    expect(
      xpathStrings(xml, `${child('dct:publisher')}/*[name()='foaf:Agent']/*[name()='foaf:name']`),
    ).toEqual(['Cairn Polar Data']);
  });

  it('names creators as foaf:Person with their ORCID and organisations with their ROR id', () => {
    const persons = `${child('dct:creator')}/*[name()='foaf:Person']`;
    expect(xpath(xml, `count(${persons})`)).toBe('7');
    expect(xpath(xml, `string((${persons})[1]/@*[name()='rdf:about'])`)).toBe(
      'https://orcid.org/0000-0002-1825-0097',
    );
    expect(xpath(xml, `string((${persons})[1]/*[name()='foaf:familyName'])`)).toBe('Müller');
    expect(xml).toContain('<foaf:Organization rdf:about="https://ror.org/01ggx4157">');
    expect(xml).toContain('<foaf:Organization rdf:about="https://ror.org/032e6b942">');
    expect(xpath(xml, `count(${child('dct:contributor')})`)).toBe('4');
  });

  it('gives the DOI and other identifiers as adms:identifier', () => {
    const notations = `${child('adms:identifier')}/*[name()='adms:Identifier']/*[name()='skos:notation']`;
    expect(xpathStrings(xml, notations)).toEqual([
      '10.5072/ab12c-3de45',
      'ark:/12345/x54xz321',
      'https://example.org/cores',
    ]);
  });

  it('has one distribution per open file, with its URLs, size, media type and format', () => {
    const dist = `${child('dcat:distribution')}/*[name()='dcat:Distribution']`;
    expect(xpath(xml, `count(${dist})`)).toBe('2');
    expect(xpathStrings(xml, `${dist}/*[name()='dct:title']`)).toEqual(['cores.csv', 'paper.pdf']);
    expect(
      xpath(xml, `string((${dist})[1]/*[name()='dcat:downloadURL']/@*[name()='rdf:resource'])`),
    ).toBe('https://cairn.example/api/records/ab12c-3de45/files/cores.csv/content');
    expect(
      xpath(xml, `string((${dist})[1]/*[name()='dcat:accessURL']/@*[name()='rdf:resource'])`),
    ).toBe('https://cairn.example/records/ab12c-3de45');
    expect(xpath(xml, `string((${dist})[2]/*[name()='dcat:byteSize'])`)).toBe('5000000');
    expect(
      xpath(xml, `string((${dist})[1]/*[name()='dcat:mediaType']/@*[name()='rdf:resource'])`),
    ).toBe('https://www.iana.org/assignments/media-types/text/csv');
    expect(
      xpath(xml, `string((${dist})[2]/*[name()='dct:format']/@*[name()='rdf:resource'])`),
    ).toBe('http://publications.europa.eu/resource/authority/file-type/PDF');
  });

  it('names a restricted record without DOI by its landing page, with no files', () => {
    const restricted = toDcatAp(restrictedRecord(), CTX);
    expect(xmllint(restricted)).toBe('');
    expect(xpath(restricted, `string(${DATASET}/@*[local-name()='about'])`)).toBe(
      'https://cairn.example/records/ab12c-3de45',
    );
    expect(restricted).toContain('/access-right/RESTRICTED"/>');
    expect(restricted).not.toContain('dcat:distribution');
    expect(restricted).not.toContain('/files/');
    expect(restricted).not.toContain('adms:schemeAgency>DOI');
  });

  it('types the issue date by its precision and leaves unknown types and languages out', () => {
    const r = record({
      metadata: {
        ...record().metadata,
        publication_date: '2020-03/2021',
        resource_type: { id: 'nonesuch' },
        languages: [{ id: 'x-klingon' }],
      },
    });
    const out = toDcatAp(r, CTX);
    expect(out).toContain(
      '<dct:issued rdf:datatype="http://www.w3.org/2001/XMLSchema#gYearMonth">2020-03</dct:issued>',
    );
    expect(out).not.toContain('dct:language');
    expect(out).not.toContain('dct:type');
  });
});
