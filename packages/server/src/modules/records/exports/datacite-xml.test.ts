import { describe, expect, it } from 'vitest';
import {
  CTX,
  DATACITE_XSD,
  record,
  restrictedRecord,
  richRecord,
  xmllint,
  xpath,
  xpathStrings,
} from '../../../test/exports.js';
import {
  dateTypeFixtures,
  descriptionTypeFixtures,
  relationTypeFixtures,
  roleFixtures,
  titleTypeFixtures,
} from '../../vocabularies/fixtures/datacite-types.js';
import { resourceTypeFixtures } from '../../vocabularies/fixtures/resource-types.js';
import { toDataCiteJson } from './datacite-json.js';
import { dataCiteResource, toDataCiteXml } from './datacite-xml.js';

const texts = xpathStrings;

/** An element of the DataCite namespace by local name, for XPath without a prefix binding. */
const el = (name: string) => `*[local-name()='${name}']`;

describe('DataCite XML', () => {
  it('is valid DataCite kernel 4 for a record with every field', () => {
    expect(xmllint(toDataCiteXml(richRecord(), CTX), DATACITE_XSD)).toBe('');
  });

  it('is valid for the plain fixture, a restricted record without DOI, and a minimal record', () => {
    const m = record().metadata;
    const minimal = record({
      pids: {},
      metadata: {
        title: 'Only the required',
        creators: [{ person_or_org: { type: 'organizational', name: 'Polar Institute' } }],
        publication_date: '2024',
        resource_type: { id: 'nonesuch' },
      },
    });
    for (const r of [record(), restrictedRecord(), minimal, record({ metadata: { ...m } })])
      expect(xmllint(toDataCiteXml(r, CTX), DATACITE_XSD)).toBe('');
  });

  it('writes the same values as DataCite JSON, the attributes DOI registration sends', () => {
    const r = richRecord();
    const json = toDataCiteJson(r, CTX);
    const xml = toDataCiteXml(r, CTX);
    const root = `/${el('resource')}`;
    expect(texts(xml, `${root}/${el('identifier')}`)).toEqual([json.doi]);
    expect(texts(xml, `${root}/${el('creators')}/${el('creator')}/${el('creatorName')}`)).toEqual(
      json.creators.map((c) => c.name),
    );
    expect(texts(xml, `${root}/${el('titles')}/${el('title')}`)).toEqual(
      json.titles.map((t) => t.title),
    );
    expect(texts(xml, `${root}/${el('publisher')}`)).toEqual([json.publisher]);
    expect(texts(xml, `${root}/${el('publicationYear')}`)).toEqual([json.publicationYear]);
    expect(xpath(xml, `string(${root}/${el('resourceType')}/@resourceTypeGeneral)`)).toBe(
      'Dataset',
    );
    expect(texts(xml, `${root}/${el('subjects')}/${el('subject')}`)).toEqual(
      json.subjects?.map((s) => s.subject),
    );
    expect(
      texts(xml, `${root}/${el('contributors')}/${el('contributor')}/${el('contributorName')}`),
    ).toEqual(json.contributors?.map((c) => c.name));
    expect(texts(xml, `${root}/${el('dates')}/${el('date')}`)).toEqual(
      json.dates?.map((d) => d.date),
    );
    expect(texts(xml, `${root}/${el('language')}`)).toEqual([json.language]);
    expect(
      texts(xml, `${root}/${el('alternateIdentifiers')}/${el('alternateIdentifier')}`),
    ).toEqual(json.alternateIdentifiers?.map((a) => a.alternateIdentifier));
    expect(texts(xml, `${root}/${el('relatedIdentifiers')}/${el('relatedIdentifier')}`)).toEqual(
      json.relatedIdentifiers?.map((r) => r.relatedIdentifier),
    );
    expect(texts(xml, `${root}/${el('sizes')}/${el('size')}`)).toEqual(json.sizes);
    expect(texts(xml, `${root}/${el('formats')}/${el('format')}`)).toEqual(json.formats);
    expect(texts(xml, `${root}/${el('version')}`)).toEqual([json.version]);
    expect(texts(xml, `${root}/${el('rightsList')}/${el('rights')}`)).toEqual(
      json.rightsList?.map((r) => r.rights),
    );
    expect(xpath(xml, `string(${root}/${el('descriptions')}/${el('description')}[1])`)).toBe(
      json.descriptions?.[0]?.description,
    );
    expect(
      texts(
        xml,
        `${root}/${el('fundingReferences')}/${el('fundingReference')}/${el('funderName')}`,
      ),
    ).toEqual(json.fundingReferences?.map((f) => f.funderName));
  });

  it('names creators with ORCID and ROR, affiliations with ROR, and keeps unicode', () => {
    const xml = toDataCiteXml(richRecord(), CTX);
    expect(xml).toContain(
      '<nameIdentifier nameIdentifierScheme="ORCID" schemeURI="https://orcid.org">https://orcid.org/0000-0002-1825-0097</nameIdentifier>',
    );
    expect(xml).toContain(
      '<affiliation affiliationIdentifier="https://ror.org/032e6b942" affiliationIdentifierScheme="ROR" schemeURI="https://ror.org">Alfred Wegener Institute</affiliation>',
    );
    expect(xml).toContain(
      '<nameIdentifier nameIdentifierScheme="ROR" schemeURI="https://ror.org">https://ror.org/01ggx4157</nameIdentifier>',
    );
    expect(xml).toContain('<givenName>Åsa</givenName>');
    expect(xpath(xml, `string(//${el('title')}[1])`)).toBe(richRecord().metadata.title);
  });

  it('carries every optional property Cairn has, with the attributes the kernel names', () => {
    const xml = toDataCiteXml(richRecord(), CTX);
    for (const fragment of [
      '<title titleType="TranslatedTitle" xml:lang="de">Eisbohrkerne des Weddellmeers</title>',
      '<subject subjectScheme="MeSH" valueURI="https://id.nlm.nih.gov/mesh/D007035">Ice Cover</subject>',
      '<contributor contributorType="DataCollector">',
      '<contributor contributorType="Other">',
      '<date dateType="Collected" dateInformation="Field season">2023-01-01/2023-02-28</date>',
      '<language>en</language>',
      '<alternateIdentifier alternateIdentifierType="ARK">ark:/12345/x54xz321</alternateIdentifier>',
      '<relatedIdentifier relatedIdentifierType="DOI" relationType="IsCitedBy" resourceTypeGeneral="JournalArticle">10.1234/paper</relatedIdentifier>',
      '<relatedIdentifier relatedIdentifierType="DOI" relationType="IsVersionOf">10.5072/zz99y-8xw77</relatedIdentifier>',
      '<size>3 GB</size>',
      '<format>application/x-netcdf</format>',
      '<rights rightsURI="https://creativecommons.org/licenses/by/4.0/legalcode" rightsIdentifier="cc-by-4.0" rightsIdentifierScheme="SPDX" schemeURI="https://spdx.org/licenses/">',
      '<description descriptionType="Methods" xml:lang="en">Thermal drill; see #methods.</description>',
      '<geoLocationPlace>Weddell Sea</geoLocationPlace>',
      '<pointLongitude>-45.5</pointLongitude>',
      '<funderIdentifier funderIdentifierType="Crossref Funder ID">https://doi.org/10.13039/501100001659</funderIdentifier>',
      '<awardNumber awardURI="https://cordis.europa.eu/project/id/101000001">101000001</awardNumber>',
      '<awardNumber awardURI="https://example.org/grant"/>',
      '<awardTitle>Polar ice memory</awardTitle>',
    ])
      expect(xml).toContain(fragment);
    // DataCite has no relationType Other and no swh identifiers: such relations are left out.
    expect(xml).not.toContain('https://example.org/other');
    expect(xml).not.toContain('swh:1:dir:abc');
  });

  it('stays valid for every value of the vocabularies Cairn maps to DataCite lists', () => {
    const r = richRecord();
    const ids = (fixtures: Array<{ id: string }>) => fixtures.map((f) => f.id);
    const resourceTypes = ids(resourceTypeFixtures());
    r.metadata.resource_type = { id: resourceTypes[resourceTypes.length - 1] };
    r.metadata.contributors = ids(roleFixtures('contributorsroles')).map((id) => ({
      person_or_org: { type: 'organizational', name: `Role ${id}` },
      role: { id },
    }));
    r.metadata.dates = ids(dateTypeFixtures()).map((id) => ({ date: '2024', type: { id } }));
    r.metadata.additional_titles = ids(titleTypeFixtures()).map((id) => ({
      title: `Title ${id}`,
      type: { id },
    }));
    r.metadata.additional_descriptions = ids(descriptionTypeFixtures()).map((id) => ({
      description: `Description ${id}`,
      type: { id },
    }));
    r.metadata.related_identifiers = ids(relationTypeFixtures()).flatMap((relation, i) =>
      resourceTypes.map((type, j) => ({
        identifier: `10.1234/${i}.${j}`,
        scheme: 'doi',
        relation_type: { id: relation },
        resource_type: { id: type },
      })),
    );
    const xml = toDataCiteXml(r, CTX);
    expect(xmllint(xml, DATACITE_XSD)).toBe('');
    expect(xpath(xml, `count(//${el('contributor')})`)).toBe(
      String(roleFixtures('contributorsroles').length),
    );
    // Every relation but "other", which DataCite's list does not have, for every resource type.
    expect(xpath(xml, `count(//${el('relatedIdentifier')})`)).toBe(
      String((relationTypeFixtures().length - 1) * resourceTypes.length + 1),
    );
    for (const type of resourceTypes) {
      r.metadata.resource_type = { id: type };
      r.metadata.related_identifiers = [];
      expect(xmllint(toDataCiteXml(r, CTX), DATACITE_XSD), type).toBe('');
    }
  });

  it('names a record without a DOI by its landing page, once', () => {
    const xml = toDataCiteXml(restrictedRecord(), CTX);
    expect(xml).toContain(
      '<identifier identifierType="URL">https://cairn.example/records/ab12c-3de45</identifier>',
    );
    expect(xml.split('https://cairn.example/records/ab12c-3de45').length - 1).toBe(1);
    expect(xml).not.toContain('identifierType="DOI"');
  });

  it('offers the resource element alone, for embedding in OAI-PMH', () => {
    const element = dataCiteResource(richRecord(), CTX);
    expect(element).toMatch(/^<resource xmlns="http:\/\/datacite\.org\/schema\/kernel-4" /);
    expect(element).toContain(
      'xsi:schemaLocation="http://datacite.org/schema/kernel-4 http://schema.datacite.org/meta/kernel-4.6/metadata.xsd"',
    );
    expect(element).not.toContain('<?xml');
    expect(toDataCiteXml(richRecord(), CTX)).toBe(
      `<?xml version='1.0' encoding='utf-8'?>\n${element}\n`,
    );
    const wrapped = `<metadata xmlns="http://www.openarchives.org/OAI/2.0/">${element}</metadata>`;
    expect(xmllint(wrapped)).toBe('');
  });

  it('keeps line breaks in descriptions and drops what XML cannot hold', () => {
    const r = richRecord();
    r.metadata.description = '<p>One</p><p>Two\u0001 \ud800end</p>';
    const xml = toDataCiteXml(r, CTX);
    expect(xmllint(xml, DATACITE_XSD)).toBe('');
    expect(xpath(xml, `string(//${el('description')}[1])`)).toBe('One\nTwo end');
  });
});

describe('the DataCite kernel 4 schema the tests use', () => {
  const valid = toDataCiteXml(richRecord(), CTX);

  it.each([
    ['a relationType outside the list', (x: string) => x.replace('"IsCitedBy"', '"IsLovedBy"')],
    ['a resourceTypeGeneral outside the list', (x: string) => x.replace('"Dataset"', '"Data"')],
    ['a contributorType outside the list', (x: string) => x.replace('"Editor"', '"Boss"')],
    ['a dateType outside the list', (x: string) => x.replace('"Collected"', '"Gathered"')],
    ['a missing identifier', (x: string) => x.replace(/ *<identifier [^\n]*\n/, '')],
    ['a missing publisher', (x: string) => x.replace(/ *<publisher>[^\n]*\n/, '')],
    [
      'a five-digit year',
      (x: string) => x.replace('>2024</publicationYear>', '>20245</publicationYear>'),
    ],
    [
      'creator parts out of order',
      (x: string) =>
        x.replace(
          '<givenName>Jürgen</givenName>\n      <familyName>Müller</familyName>',
          '<familyName>Müller</familyName>\n      <givenName>Jürgen</givenName>',
        ),
    ],
    [
      'an element the kernel does not have',
      (x: string) => x.replace('<titles>', '<colour>red</colour>\n  <titles>'),
    ],
    ['a latitude beyond the pole', (x: string) => x.replace('>-73.25<', '>-93.25<')],
  ])('rejects %s', (_label, breakIt) => {
    const broken = breakIt(valid);
    expect(broken).not.toBe(valid);
    expect(xmllint(broken, DATACITE_XSD)).toMatch(/fails to validate/);
  });
});
