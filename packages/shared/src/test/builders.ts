import type { Creator } from '../domain/creator.js';
import type { RecordData, ValidationOptions } from '../domain/record.js';

/** Options as an English/German instance sees them on 2025-06-15, without DOI registration. */
export function buildValidationOptions(
  overrides: Partial<ValidationOptions> = {},
): ValidationOptions {
  return { locales: ['en', 'de'], today: '2025-06-15', ...overrides };
}

/** A personal creator with a valid ORCID and a ROR affiliation, numbered so lists stay distinct. */
export function buildCreator(n = 1, overrides: Partial<Creator> = {}): Creator {
  return {
    person_or_org: {
      type: 'personal',
      given_name: `Ada ${n}`,
      family_name: 'Lovelace',
      name: `Lovelace, Ada ${n}`,
      identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
    },
    role: { id: 'researcher' },
    affiliations: [{ id: '01ggx4157' }, { name: `Analytical Engine Society ${n}` }],
    ...overrides,
  };
}

/**
 * A fully valid, publishable record as `loadRecord` stores it (already normalised, so loading it
 * again changes nothing): every metadata field filled, all four custom field groups, public access,
 * files enabled, an external DOI. Override any top-level part.
 */
export function buildRecordData(overrides: Partial<RecordData> = {}): RecordData {
  return {
    metadata: {
      resource_type: { id: 'dataset' },
      title: 'Measurements of the analytical engine',
      additional_titles: [
        { title: 'Engine measurements', type: { id: 'alternative-title' }, lang: { id: 'eng' } },
      ],
      publication_date: '2024-05-01',
      creators: [buildCreator(1), { person_or_org: { type: 'organizational', name: 'CERN' } }],
      contributors: [buildCreator(2, { role: { id: 'datacurator' } })],
      description: '<p>Raw readings of the engine.</p>',
      additional_descriptions: [
        { description: 'Collected by hand.', type: { id: 'methods' }, lang: { id: 'eng' } },
      ],
      rights: [
        { id: 'cc-by-4.0' },
        {
          title: { en: 'House license' },
          description: { en: 'Be nice.' },
          link: 'https://example.org/license',
        },
      ],
      copyright: 'Copyright (C) 2024 The Authors.',
      publisher: 'Cairn',
      subjects: [
        { id: 'http://www.oecd.org/science/inno/38235147.pdf?1.1' },
        { subject: 'engines' },
      ],
      languages: [{ id: 'eng' }],
      dates: [{ date: '1939/1945', type: { id: 'collected' }, description: 'Field work' }],
      version: 'v1.0.0',
      identifiers: [{ scheme: 'arxiv', identifier: 'arXiv:1310.2590' }],
      related_identifiers: [
        {
          identifier: '10.1234/foo.bar',
          scheme: 'doi',
          relation_type: { id: 'iscitedby' },
          resource_type: { id: 'publication-article' },
        },
      ],
      references: [{ reference: 'Babbage, C. (1864). Passages from the Life of a Philosopher.' }],
      funding: [
        { funder: { id: '00k4n6c32' }, award: { id: '00k4n6c32::755021' } },
        {
          funder: { name: 'Royal Society' },
          award: {
            title: { en: 'Engines for all' },
            number: 'RS-42',
            identifiers: [{ scheme: 'url', identifier: 'https://example.org/awards/42' }],
          },
        },
      ],
      locations: {
        features: [{ place: 'London', identifiers: [{ scheme: 'wikidata', identifier: 'Q84' }] }],
      },
      sizes: ['12 pages'],
      formats: ['text/csv'],
    },
    custom_fields: {
      'imprint:imprint': {
        title: 'Engines',
        isbn: '978-3-16-148410-0',
        place: 'London',
        pages: '1-10',
        edition: '2',
      },
      'journal:journal': {
        title: 'Journal of Engines',
        issn: '0317-8471',
        volume: '1',
        issue: '2',
        pages: '3-4',
      },
      'meeting:meeting': {
        title: 'Engine Conference',
        acronym: 'EC',
        dates: '21-22 November 2023',
        place: 'Geneva',
        url: 'https://example.org/ec',
        session: 'A',
        session_part: '1',
      },
      'thesis:thesis': {
        university: 'University of London',
        department: 'Mathematics',
        type: 'PhD',
        date_submitted: '2023-01',
        date_defended: '2023-06-30',
      },
    },
    access: { record: 'public', files: 'public', embargo: { active: false } },
    files: { enabled: true, default_preview: 'readings.csv' },
    pids: { doi: { identifier: '10.1234/engine.1', provider: 'external' } },
    ...overrides,
  };
}
