import type { Quad } from '@rdfjs/types';
import fc from 'fast-check';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
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

/**
 * The export read as RDF, by an RDF/XML parser Cairn did not write: the triples a DCAT-AP
 * harvester (the European data portal's, a triple store's) takes from it, not the XML's shape.
 */
async function triples(text: string): Promise<Array<[string, string, string]>> {
  const parser = new RdfXmlParser({ baseIRI: 'https://cairn.example/' });
  const found: Array<[string, string, string]> = [];
  await new Promise<void>((resolve, reject) => {
    parser.on('data', (q: Quad) =>
      found.push([q.subject.value, q.predicate.value, q.object.value]),
    );
    parser.on('error', reject);
    parser.on('end', resolve);
    parser.end(text);
  });
  return found;
}

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const DCAT = 'http://www.w3.org/ns/dcat#';
const DCT = 'http://purl.org/dc/terms/';

describe('DCAT-AP as RDF', () => {
  it('states the dataset, its creators and its distributions as triples', async () => {
    const r = richRecord();
    const found = await triples(toDcatAp(r, CTX));
    const dataset = 'https://doi.org/10.5072/ab12c-3de45';
    const objects = (s: string, p: string) =>
      found.filter(([a, b]) => a === s && b === p).map((t) => t[2]);
    expect(objects(dataset, RDF_TYPE)).toEqual([`${DCAT}Dataset`]);
    expect(objects(dataset, `${DCT}title`)).toEqual([r.metadata.title]);
    expect(objects(dataset, `${DCT}issued`)).toEqual(['2024-05-01']);
    expect(objects(dataset, `${DCAT}landingPage`)).toEqual([
      'https://cairn.example/records/ab12c-3de45',
    ]);
    expect(objects(dataset, `${DCT}creator`)).toContain('https://orcid.org/0000-0002-1825-0097');
    expect(objects('https://orcid.org/0000-0002-1825-0097', RDF_TYPE)).toEqual([
      'http://xmlns.com/foaf/0.1/Person',
    ]);
    const distributions = objects(dataset, `${DCAT}distribution`);
    expect(distributions).toHaveLength(2);
    expect(distributions.flatMap((d) => objects(d, `${DCAT}downloadURL`)).sort()).toEqual([
      'https://cairn.example/api/records/ab12c-3de45/files/cores.csv/content',
      'https://cairn.example/api/records/ab12c-3de45/files/paper.pdf/content',
    ]);
  });

  it('keeps any title and keyword as the same literal, whatever it holds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1 }), async (text) => {
        const r = richRecord();
        r.metadata.title = text;
        r.metadata.subjects = [{ subject: text }];
        const found = await triples(toDcatAp(r, CTX));
        const literal = (p: string) =>
          found.filter(([s, q]) => s === 'https://doi.org/10.5072/ab12c-3de45' && q === p)[0]?.[2];
        // XML cannot carry every character: what it cannot, the export leaves out.
        const carried = text.replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
        // A blank value is left out, as an empty title or keyword says nothing.
        const expected = text.trim() ? carried.replace(/\r\n?/g, '\n') : undefined;
        expect(literal(`${DCT}title`)).toBe(expected);
        expect(literal(`${DCAT}keyword`)).toBe(expected);
      }),
      // A line or paragraph separator once gained the indentation of the lines around it.
      { numRuns: 1000, examples: [['\u2028!'], ['a\u2029b']] },
    );
  });
});
