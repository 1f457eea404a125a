import { describe, expect, it } from 'vitest';
import { toDataCiteAttributes, type RecordForDataCite } from './datacite-serializer.js';

const OPTIONS = { publisherFallback: 'Cairn Repository', siteUrl: 'https://cairn.example/' };

function minimal(overrides: Partial<RecordForDataCite['metadata']> = {}): RecordForDataCite {
  return {
    id: 'abcd-1234',
    metadata: {
      title: 'Minimal record',
      creators: [{ person_or_org: { type: 'organizational', name: 'Polar Institute' } }],
      publication_date: '2024-03-01',
      resource_type: { id: 'dataset' },
      ...overrides,
    },
  };
}

const FULL: RecordForDataCite = {
  id: 'abcd-1234',
  pids: { doi: { identifier: '10.5072/abcd-1234', provider: 'datacite', client: 'datacite' } },
  parent: {
    id: 'wxyz-0000',
    pids: { doi: { identifier: '10.5072/wxyz-0000', provider: 'datacite' } },
  },
  metadata: {
    title: 'Ice cores from the Weddell Sea',
    creators: [
      {
        person_or_org: {
          type: 'personal',
          name: 'Doe, Jane',
          given_name: 'Jane',
          family_name: 'Doe',
          identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
        },
        affiliations: [{ id: '01ggx4157', name: 'CERN' }, { name: 'Free-text Lab' }],
      },
      {
        person_or_org: {
          type: 'organizational',
          name: 'Alfred Wegener Institute',
          identifiers: [{ scheme: 'ror', identifier: '032e6b942' }],
        },
      },
    ],
    publication_date: '2024-03-01',
    resource_type: {
      id: 'dataset',
      title: { en: 'Dataset' },
      props: { datacite_general: 'Dataset', datacite_type: '' },
    },
    publisher: 'Cairn Polar Data',
    description:
      '<p>Cores drilled in <strong>2023</strong> &amp; 2024.</p><p>See&nbsp;methods&#8230;</p>',
    additional_titles: [
      {
        title: 'Eisbohrkerne aus dem Weddellmeer',
        type: { id: 'translated-title' },
        lang: { id: 'deu' },
      },
    ],
    additional_descriptions: [
      {
        description: 'Drilled with a <em>thermal</em> drill.',
        type: { id: 'methods' },
        lang: { id: 'eng' },
      },
    ],
    subjects: [
      { id: 'https://id.nlm.nih.gov/mesh/D007035', subject: 'Ice Cover', scheme: 'MeSH' },
      { subject: 'glaciology' },
    ],
    contributors: [
      {
        person_or_org: { type: 'personal', given_name: 'Max', family_name: 'Mustermann' },
        role: { id: 'datacollector' },
      },
      {
        person_or_org: { type: 'organizational', name: 'Some Sponsor' },
        role: { id: 'no-such-role' },
      },
    ],
    dates: [
      { date: '2023-01-01/2023-02-28', type: { id: 'collected' }, description: 'Field season' },
      { date: '2024-06-01', type: { id: 'available' } },
    ],
    languages: [{ id: 'eng', title: { en: 'English' } }, { id: 'deu' }],
    identifiers: [
      { scheme: 'doi', identifier: '10.5072/abcd-1234' },
      { scheme: 'ark', identifier: 'ark:/12345/x54xz321' },
    ],
    related_identifiers: [
      {
        identifier: '10.1234/paper.5678',
        scheme: 'doi',
        relation_type: { id: 'issupplementto' },
        resource_type: { id: 'publication-article' },
      },
      {
        identifier: 'https://github.com/polar/cores',
        scheme: 'url',
        relation_type: { id: 'isderivedfrom' },
      },
      { identifier: 'swh:1:dir:abc', scheme: 'swh', relation_type: { id: 'references' } },
    ],
    rights: [
      {
        id: 'cc-by-4.0',
        title: { en: 'Creative Commons Attribution 4.0 International' },
        props: { url: 'https://creativecommons.org/licenses/by/4.0/legalcode', scheme: 'spdx' },
      },
      { title: { en: 'Custom terms' }, link: 'https://cairn.example/terms' },
    ],
    funding: [
      {
        funder: { id: '00k4n6c32', name: 'European Commission' },
        award: {
          id: '00k4n6c32::101000001',
          number: '101000001',
          title: { en: 'Polar ice memory' },
          identifiers: [
            { scheme: 'url', identifier: 'https://cordis.europa.eu/project/id/101000001' },
          ],
        },
      },
      { funder: { id: '10.13039/501100001659', name: 'Deutsche Forschungsgemeinschaft' } },
    ],
    version: 'v1.0',
  },
};

describe('toDataCiteAttributes', () => {
  const attributes = toDataCiteAttributes(FULL, OPTIONS);

  it('sends the required fields', () => {
    expect(attributes).toMatchObject({
      publisher: 'Cairn Polar Data',
      publicationYear: '2024',
      types: { resourceTypeGeneral: 'Dataset' },
      schemaVersion: 'http://datacite.org/schema/kernel-4',
      version: 'v1.0',
      language: 'en',
    });
    expect(attributes.types).toEqual({ resourceTypeGeneral: 'Dataset' });
  });

  it('sends the title and additional titles with their type and language', () => {
    expect(attributes.titles).toEqual([
      { title: 'Ice cores from the Weddell Sea' },
      { title: 'Eisbohrkerne aus dem Weddellmeer', titleType: 'TranslatedTitle', lang: 'de' },
    ]);
  });

  it('describes a person with ORCID and a ROR affiliation', () => {
    expect(attributes.creators[0]).toEqual({
      name: 'Doe, Jane',
      nameType: 'Personal',
      givenName: 'Jane',
      familyName: 'Doe',
      nameIdentifiers: [
        {
          nameIdentifier: 'https://orcid.org/0000-0002-1825-0097',
          nameIdentifierScheme: 'ORCID',
          schemeUri: 'https://orcid.org',
        },
      ],
      affiliation: [
        {
          name: 'CERN',
          affiliationIdentifier: 'https://ror.org/01ggx4157',
          affiliationIdentifierScheme: 'ROR',
          schemeUri: 'https://ror.org',
        },
        { name: 'Free-text Lab' },
      ],
    });
  });

  it('describes an organisation with ROR', () => {
    expect(attributes.creators[1]).toEqual({
      name: 'Alfred Wegener Institute',
      nameType: 'Organizational',
      nameIdentifiers: [
        {
          nameIdentifier: 'https://ror.org/032e6b942',
          nameIdentifierScheme: 'ROR',
          schemeUri: 'https://ror.org',
        },
      ],
    });
  });

  it('strips HTML from descriptions and sends the main one as the abstract', () => {
    expect(attributes.descriptions).toEqual([
      { description: 'Cores drilled in 2023 & 2024.\nSee methods…', descriptionType: 'Abstract' },
      { description: 'Drilled with a thermal drill.', descriptionType: 'Methods', lang: 'en' },
    ]);
  });

  it('sends subjects with their scheme and value URI', () => {
    expect(attributes.subjects).toEqual([
      {
        subject: 'Ice Cover',
        subjectScheme: 'MeSH',
        valueUri: 'https://id.nlm.nih.gov/mesh/D007035',
      },
      { subject: 'glaciology' },
    ]);
  });

  it('gives contributors DataCite’s contributorType, Other for unknown roles', () => {
    expect(attributes.contributors).toEqual([
      {
        name: 'Mustermann, Max',
        nameType: 'Personal',
        givenName: 'Max',
        familyName: 'Mustermann',
        contributorType: 'DataCollector',
      },
      { name: 'Some Sponsor', nameType: 'Organizational', contributorType: 'Other' },
    ]);
  });

  it('sends the publication date as Issued, then the record’s dates', () => {
    expect(attributes.dates).toEqual([
      { date: '2024-03-01', dateType: 'Issued' },
      { date: '2023-01-01/2023-02-28', dateType: 'Collected', dateInformation: 'Field season' },
      { date: '2024-06-01', dateType: 'Available' },
    ]);
  });

  it('sends the landing page and other identifiers, but not the DOI itself, as alternate identifiers', () => {
    expect(attributes.alternateIdentifiers).toEqual([
      {
        alternateIdentifier: 'https://cairn.example/records/abcd-1234',
        alternateIdentifierType: 'URL',
      },
      { alternateIdentifier: 'ark:/12345/x54xz321', alternateIdentifierType: 'ARK' },
    ]);
  });

  it('maps related identifiers to DataCite’s types and relations, and links the parent DOI', () => {
    expect(attributes.relatedIdentifiers).toEqual([
      {
        relatedIdentifier: '10.1234/paper.5678',
        relatedIdentifierType: 'DOI',
        relationType: 'IsSupplementTo',
        resourceTypeGeneral: 'JournalArticle',
      },
      {
        relatedIdentifier: 'https://github.com/polar/cores',
        relatedIdentifierType: 'URL',
        relationType: 'IsDerivedFrom',
      },
      // swh is no DataCite relatedIdentifierType: left out, not sent for DataCite to reject.
      {
        relatedIdentifier: '10.5072/wxyz-0000',
        relatedIdentifierType: 'DOI',
        relationType: 'IsVersionOf',
      },
    ]);
  });

  it('sends SPDX licences with their identifier, and custom licences by title and link', () => {
    expect(attributes.rightsList).toEqual([
      {
        rights: 'Creative Commons Attribution 4.0 International',
        rightsUri: 'https://creativecommons.org/licenses/by/4.0/legalcode',
        rightsIdentifier: 'cc-by-4.0',
        rightsIdentifierScheme: 'SPDX',
        schemeUri: 'https://spdx.org/licenses/',
      },
      { rights: 'Custom terms', rightsUri: 'https://cairn.example/terms' },
    ]);
  });

  it('sends funding with ROR and Crossref funder ids and the award', () => {
    expect(attributes.fundingReferences).toEqual([
      {
        funderName: 'European Commission',
        funderIdentifier: 'https://ror.org/00k4n6c32',
        funderIdentifierType: 'ROR',
        awardNumber: '101000001',
        awardUri: 'https://cordis.europa.eu/project/id/101000001',
        awardTitle: 'Polar ice memory',
      },
      {
        funderName: 'Deutsche Forschungsgemeinschaft',
        funderIdentifier: 'https://doi.org/10.13039/501100001659',
        funderIdentifierType: 'Crossref Funder ID',
      },
    ]);
  });
});

describe('toDataCiteAttributes with a minimal record', () => {
  it('falls back to the configured publisher and leaves optional lists out', () => {
    const attributes = toDataCiteAttributes(minimal({ publisher: '  ' }), OPTIONS);
    expect(attributes).toEqual({
      titles: [{ title: 'Minimal record' }],
      creators: [{ name: 'Polar Institute', nameType: 'Organizational' }],
      publisher: 'Cairn Repository',
      publicationYear: '2024',
      types: { resourceTypeGeneral: 'Dataset' },
      dates: [{ date: '2024-03-01', dateType: 'Issued' }],
      alternateIdentifiers: [
        {
          alternateIdentifier: 'https://cairn.example/records/abcd-1234',
          alternateIdentifierType: 'URL',
        },
      ],
      schemaVersion: 'http://datacite.org/schema/kernel-4',
    });
  });

  it.each([
    ['dataset', { resourceTypeGeneral: 'Dataset' }],
    ['software', { resourceTypeGeneral: 'Software' }],
    ['publication-article', { resourceTypeGeneral: 'JournalArticle' }],
    ['publication-patent', { resourceTypeGeneral: 'Text', resourceType: 'Patent' }],
    ['image-photo', { resourceTypeGeneral: 'Image', resourceType: 'Photo' }],
    ['image-map', { resourceTypeGeneral: 'Image' }],
    ['video', { resourceTypeGeneral: 'Audiovisual' }],
    ['poster', { resourceTypeGeneral: 'Text', resourceType: 'Poster' }],
    ['presentation', { resourceTypeGeneral: 'Text', resourceType: 'Presentation' }],
    ['lesson', { resourceTypeGeneral: 'InteractiveResource' }],
    ['workflow', { resourceTypeGeneral: 'Workflow' }],
    ['model', { resourceTypeGeneral: 'Model' }],
    ['physicalobject', { resourceTypeGeneral: 'PhysicalObject' }],
    ['instrument', { resourceTypeGeneral: 'Instrument' }],
    ['other', { resourceTypeGeneral: 'Other' }],
    ['unheard-of', { resourceTypeGeneral: 'Other' }],
  ])('maps resource type %s without props to %o', (id, types) => {
    expect(toDataCiteAttributes(minimal({ resource_type: { id } }), OPTIONS).types).toEqual(types);
  });

  it('prefers the props an expanded resource type carries', () => {
    const record = minimal({
      resource_type: {
        id: 'dataset',
        props: { datacite_general: 'Collection', datacite_type: 'Survey' },
      },
    });
    expect(toDataCiteAttributes(record, OPTIONS).types).toEqual({
      resourceTypeGeneral: 'Collection',
      resourceType: 'Survey',
    });
  });

  it('names a person "Family, Given" when the record has no computed name', () => {
    const record = minimal({
      creators: [
        { person_or_org: { type: 'personal', given_name: 'Ada', family_name: 'Lovelace' } },
      ],
    });
    expect(toDataCiteAttributes(record, OPTIONS).creators[0]?.name).toBe('Lovelace, Ada');
  });

  it('keeps an ISO 639-3 code when ISO 639-1 has none', () => {
    expect(toDataCiteAttributes(minimal({ languages: [{ id: 'gsw' }] }), OPTIONS).language).toBe(
      'gsw',
    );
  });

  it('drops script and style content from descriptions', () => {
    const record = minimal({
      description: '<style>p{}</style><p>Safe</p><script>alert(1)</script>',
    });
    expect(toDataCiteAttributes(record, OPTIONS).descriptions).toEqual([
      { description: 'Safe', descriptionType: 'Abstract' },
    ]);
  });
  it('leaves out a relation of type "other", which DataCite has no relationType for', () => {
    const record = minimal({
      related_identifiers: [
        { identifier: '10.1234/x', scheme: 'doi', relation_type: { id: 'other' } },
        { identifier: '10.1234/y', scheme: 'doi', relation_type: { id: 'cites' } },
      ],
    });
    expect(toDataCiteAttributes(record, OPTIONS).relatedIdentifiers).toEqual([
      { relatedIdentifier: '10.1234/y', relatedIdentifierType: 'DOI', relationType: 'Cites' },
    ]);
  });

  it('sends sizes, formats, and locations as places and GeoJSON points', () => {
    const record = minimal({
      sizes: ['12 cores', ' '],
      formats: ['text/csv'],
      locations: {
        features: [
          { place: 'Weddell Sea', geometry: { type: 'Point', coordinates: [-45.5, -73.25] } },
          { geometry: { type: 'Point', coordinates: [12, 52] } },
          { place: 'Polygon only', geometry: { type: 'Polygon', coordinates: [] } },
          { geometry: { type: 'Point', coordinates: [200, 0] } },
        ],
      },
    });
    const a = toDataCiteAttributes(record, OPTIONS);
    expect(a.sizes).toEqual(['12 cores']);
    expect(a.formats).toEqual(['text/csv']);
    expect(a.geoLocations).toEqual([
      {
        geoLocationPlace: 'Weddell Sea',
        geoLocationPoint: { pointLongitude: -45.5, pointLatitude: -73.25 },
      },
      { geoLocationPoint: { pointLongitude: 12, pointLatitude: 52 } },
      { geoLocationPlace: 'Polygon only' },
    ]);
    expect(toDataCiteAttributes(minimal(), OPTIONS)).not.toHaveProperty('geoLocations');
  });
});
