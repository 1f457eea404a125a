import { describe, expect, it } from 'vitest';
import { loadRecord } from './load-record.js';
import { buildRecordData, buildValidationOptions } from '../test/builders.js';
import { byField } from '../test/field-errors.js';

const options = buildValidationOptions();

/** Loads a valid record whose metadata has `patch` applied; any error comes from the patch. */
function loadMetadata(patch: Record<string, unknown>) {
  const record = buildRecordData();
  const { data, errors } = loadRecord(
    { ...record, metadata: { ...record.metadata, ...patch } },
    options,
  );
  return { metadata: data.metadata, errors: byField(errors) };
}

describe('title', () => {
  it('is required', () => {
    const { metadata, errors } = loadMetadata({ title: undefined });
    expect(errors).toEqual({ 'metadata.title': ['Missing data for required field.'] });
    expect(metadata.title).toBeUndefined();
  });

  it('must be at least 3 characters after trimming; a shorter one is dropped', () => {
    const { metadata, errors } = loadMetadata({ title: '  ab ' });
    expect(errors).toEqual({ 'metadata.title': ['Shorter than minimum length 3.'] });
    expect(metadata.title).toBeUndefined();
  });

  it('answers an empty title as InvenioRDM does: too short, not missing', () => {
    expect(loadMetadata({ title: '' }).errors).toEqual({
      'metadata.title': ['Shorter than minimum length 3.'],
    });
    expect(loadMetadata({ title: '   ' }).errors).toEqual({
      'metadata.title': ['Shorter than minimum length 3.'],
    });
  });

  it('must be a string', () => {
    const { metadata, errors } = loadMetadata({ title: 42 });
    expect(errors).toEqual({ 'metadata.title': ['Not a valid string.'] });
    expect(metadata.title).toBeUndefined();
  });

  it('is stored trimmed', () => {
    expect(loadMetadata({ title: '  A fine title ' }).metadata.title).toBe('A fine title');
  });
});

describe('publication_date', () => {
  it('is required', () => {
    expect(loadMetadata({ publication_date: undefined }).errors).toEqual({
      'metadata.publication_date': ['Missing data for required field.'],
    });
  });

  it.each(['2020', '2020-06', '2020-06-01', '1939/1945', '2018/2020-09'])('accepts %s', (date) => {
    const { metadata, errors } = loadMetadata({ publication_date: date });
    expect(errors).toEqual({});
    expect(metadata.publication_date).toBe(date);
  });

  it.each(['2020-13', '2020-02-30', '2020-06-01T10:00', 'yesterday', '1945/1939-13'])(
    'rejects and drops %s',
    (date) => {
      const { metadata, errors } = loadMetadata({ publication_date: date });
      expect(errors).toEqual({
        'metadata.publication_date': ['Please provide a valid date or interval.'],
      });
      expect(metadata.publication_date).toBeUndefined();
    },
  );

  it.each(['1945/1939', '2020-06-02/2020-06-01', '2021/2020-12'])(
    'says that the interval %s ends before it starts, and drops it',
    (date) => {
      const { metadata, errors } = loadMetadata({ publication_date: date });
      expect(errors).toEqual({
        'metadata.publication_date': ['The end of the interval is before its start.'],
      });
      expect(metadata.publication_date).toBeUndefined();
    },
  );
});

describe('resource_type', () => {
  it('is required', () => {
    expect(loadMetadata({ resource_type: undefined }).errors).toEqual({
      'metadata.resource_type': ['Missing data for required field.'],
    });
  });

  it('needs an id; the title a response carries is ignored', () => {
    expect(
      loadMetadata({ resource_type: { id: 'image-photo', title: { en: 'Photo' } } }).metadata
        .resource_type,
    ).toEqual({
      id: 'image-photo',
    });
    expect(loadMetadata({ resource_type: { title: { en: 'Photo' } } }).errors).toEqual({
      'metadata.resource_type.id': ['Missing data for required field.'],
    });
  });

  it('must be an object', () => {
    const { metadata, errors } = loadMetadata({ resource_type: 'dataset' });
    expect(errors).toEqual({ 'metadata.resource_type': ['Invalid input type.'] });
    expect(metadata.resource_type).toBeUndefined();
  });
});

describe('creators list', () => {
  it('is required and needs at least one entry', () => {
    expect(loadMetadata({ creators: undefined }).errors).toEqual({
      'metadata.creators': ['Missing data for required field.'],
    });
    expect(loadMetadata({ creators: [] }).errors).toEqual({
      'metadata.creators': ['Missing data for required field.'],
    });
  });

  it('must be a list', () => {
    expect(loadMetadata({ creators: { person_or_org: { type: 'personal' } } }).errors).toEqual({
      'metadata.creators': ['Not a valid list.'],
    });
  });
});

describe('additional_titles', () => {
  it('needs a title of 3 characters or more and a type', () => {
    const { metadata, errors } = loadMetadata({
      additional_titles: [
        { title: 'ok title', type: { id: 'subtitle' } },
        { title: 'ab', lang: { id: 'eng' } },
      ],
    });
    expect(errors).toEqual({
      'metadata.additional_titles.1.title': ['Shorter than minimum length 3.'],
      'metadata.additional_titles.1.type': ['Missing data for required field.'],
    });
    // The short title is dropped; the language the user chose is kept.
    expect(metadata.additional_titles).toEqual([
      { title: 'ok title', type: { id: 'subtitle' } },
      { lang: { id: 'eng' } },
    ]);
  });

  it('reports a missing title', () => {
    expect(loadMetadata({ additional_titles: [{ type: { id: 'subtitle' } }] }).errors).toEqual({
      'metadata.additional_titles.0.title': ['Missing data for required field.'],
    });
  });
});

describe('description and additional_descriptions', () => {
  it('accepts a description of 3 characters or more and drops a shorter one', () => {
    expect(loadMetadata({ description: '<p>Fine</p>' }).errors).toEqual({});
    const { metadata, errors } = loadMetadata({ description: 'ab' });
    expect(errors).toEqual({ 'metadata.description': ['Shorter than minimum length 3.'] });
    expect(metadata.description).toBeUndefined();
  });

  it('treats an empty description as absent (the form sends one)', () => {
    const { metadata, errors } = loadMetadata({ description: '' });
    expect(errors).toEqual({});
    expect(metadata.description).toBeUndefined();
  });

  it('needs a description and a type on each additional description', () => {
    expect(
      loadMetadata({
        additional_descriptions: [
          { description: 'no', lang: { id: 'eng' } },
          { type: { id: 'notes' } },
        ],
      }).errors,
    ).toEqual({
      'metadata.additional_descriptions.0.description': ['Shorter than minimum length 3.'],
      'metadata.additional_descriptions.0.type': ['Missing data for required field.'],
      'metadata.additional_descriptions.1.description': ['Missing data for required field.'],
    });
  });
});

describe('dates', () => {
  it('needs an EDTF date (intervals allowed) and a type', () => {
    const { metadata, errors } = loadMetadata({
      dates: [
        { date: '2018/2020-09', type: { id: 'collected' } },
        { date: '2020-13', type: { id: 'valid' }, description: 'bad month' },
        { description: 'no date, no type' },
        { date: '2020-09/2018', type: { id: 'collected' } },
      ],
    });
    expect(errors).toEqual({
      'metadata.dates.1.date': ['Please provide a valid date or interval.'],
      'metadata.dates.2.date': ['Missing data for required field.'],
      'metadata.dates.2.type': ['Missing data for required field.'],
      'metadata.dates.3.date': ['The end of the interval is before its start.'],
    });
    expect(metadata.dates).toEqual([
      { date: '2018/2020-09', type: { id: 'collected' } },
      { type: { id: 'valid' }, description: 'bad month' },
      { description: 'no date, no type' },
      { type: { id: 'collected' } },
    ]);
  });
});

describe('languages, subjects, version, publisher, copyright', () => {
  it('needs an id on each language', () => {
    expect(loadMetadata({ languages: [{ id: 'eng' }, { title: 'Danish' }] }).errors).toEqual({
      'metadata.languages.1.id': ['Missing data for required field.'],
    });
  });

  it('takes a subject by id or as free text, and needs one of them', () => {
    const { metadata, errors } = loadMetadata({
      subjects: [
        { id: 'euroscivoc:123', subject: 'Physics', scheme: 'EuroSciVoc' },
        { subject: 'engines' },
        { scheme: 'x' },
      ],
    });
    expect(errors).toEqual({
      'metadata.subjects.2': ['An existing id or a free text subject must be present.'],
    });
    expect(metadata.subjects).toEqual([{ id: 'euroscivoc:123' }, { subject: 'engines' }]);
  });

  it('limits version to 191 characters', () => {
    expect(loadMetadata({ version: 'v'.repeat(191) }).errors).toEqual({});
    const { metadata, errors } = loadMetadata({ version: 'v'.repeat(192) });
    expect(errors).toEqual({ 'metadata.version': ['Longer than maximum length 191.'] });
    expect(metadata.version).toBeUndefined();
  });

  it('needs strings for publisher and copyright', () => {
    expect(loadMetadata({ publisher: 7, copyright: ['x'] }).errors).toEqual({
      'metadata.publisher': ['Not a valid string.'],
      'metadata.copyright': ['Not a valid string.'],
    });
  });
});

describe('identifiers (alternate)', () => {
  it('detects the scheme when it is left out and normalises the value', () => {
    const { metadata, errors } = loadMetadata({
      identifiers: [
        { identifier: 'https://doi.org/10.1234/alt' },
        { identifier: '978-3-16-148410-0', scheme: 'ISBN' },
      ],
    });
    expect(errors).toEqual({});
    expect(metadata.identifiers).toEqual([
      { scheme: 'doi', identifier: '10.1234/alt' },
      { scheme: 'isbn', identifier: '978-3-16-148410-0' },
    ]);
  });

  it('reports a value invalid for its scheme, an undetectable value and a scheme not allowed', () => {
    const { metadata, errors } = loadMetadata({
      identifiers: [
        { identifier: '10.1234/ok', scheme: 'doi' },
        { identifier: 'not-a-doi', scheme: 'doi' },
        { identifier: 'no idea what this is' },
        { identifier: '0000-0002-1825-0097', scheme: 'orcid' },
        { scheme: 'doi' },
      ],
    });
    expect(errors).toEqual({
      'metadata.identifiers.1.identifier': ['Invalid DOI identifier.'],
      'metadata.identifiers.2.scheme': ['Invalid scheme.'],
      'metadata.identifiers.3.scheme': ['Invalid scheme.'],
      'metadata.identifiers.4.identifier': ['Missing data for required field.'],
    });
    expect(metadata.identifiers).toEqual([{ scheme: 'doi', identifier: '10.1234/ok' }]);
  });

  it('drops exact duplicates (after normalising) and reports them once', () => {
    const { metadata, errors } = loadMetadata({
      identifiers: [
        { identifier: '10.1234/x', scheme: 'doi' },
        { identifier: 'doi:10.1234/x' },
        { identifier: 'https://doi.org/10.1234/x', scheme: 'doi' },
        { identifier: '10.1234/y' },
      ],
    });
    expect(errors).toEqual({
      'metadata.identifiers': ['Duplicated identifier entry is not allowed.'],
    });
    expect(metadata.identifiers).toEqual([
      { scheme: 'doi', identifier: '10.1234/x' },
      { scheme: 'doi', identifier: '10.1234/y' },
    ]);
  });
});

describe('related_identifiers', () => {
  it('needs an identifier with a valid scheme and a relation type; resource type is optional', () => {
    const { metadata, errors } = loadMetadata({
      related_identifiers: [
        { identifier: 'arXiv:1310.2590', relation_type: { id: 'cites' } },
        { identifier: 'nonsense', scheme: 'handle', relation_type: { id: 'cites' } },
        { identifier: '10.1234/z', scheme: 'doi', resource_type: { id: 'dataset' } },
      ],
    });
    expect(errors).toEqual({
      'metadata.related_identifiers.1.identifier': ['Invalid Handle identifier.'],
      'metadata.related_identifiers.2.relation_type': ['Missing data for required field.'],
    });
    expect(metadata.related_identifiers).toEqual([
      { identifier: 'arXiv:1310.2590', scheme: 'arxiv', relation_type: { id: 'cites' } },
      { relation_type: { id: 'cites' } },
      { identifier: '10.1234/z', scheme: 'doi', resource_type: { id: 'dataset' } },
    ]);
  });

  it('needs the identifier itself', () => {
    expect(
      loadMetadata({ related_identifiers: [{ relation_type: { id: 'cites' } }] }).errors,
    ).toEqual({
      'metadata.related_identifiers.0.identifier': ['Missing data for required field.'],
    });
  });
});

describe('references', () => {
  it('needs the reference string; an identifier is optional', () => {
    const { metadata, errors } = loadMetadata({
      references: [
        { reference: 'Doe 2020', identifier: '10.1234/ref' },
        { identifier: '10.1234/only' },
      ],
    });
    expect(errors).toEqual({
      'metadata.references.1.reference': ['Missing data for required field.'],
    });
    expect(metadata.references).toEqual([
      { reference: 'Doe 2020', identifier: '10.1234/ref', scheme: 'doi' },
      { identifier: '10.1234/only', scheme: 'doi' },
    ]);
  });
});

describe('rights', () => {
  it('accepts a license id and ignores what responses add to it (icon, props)', () => {
    const { metadata, errors } = loadMetadata({
      rights: [{ id: 'cc-by-4.0', icon: 'cc-by', props: { url: 'x' } }],
    });
    expect(errors).toEqual({});
    expect(metadata.rights).toEqual([{ id: 'cc-by-4.0' }]);
  });

  it('refuses an id together with free text, keeping the id', () => {
    const { metadata, errors } = loadMetadata({
      rights: [{ id: 'cc-by-4.0', title: { en: 'CC BY' } }],
    });
    expect(errors).toEqual({
      'metadata.rights.0': [
        'Only an existing id or free text title/description/link is accepted, but not both cases at the same time',
      ],
    });
    expect(metadata.rights).toEqual([{ id: 'cc-by-4.0' }]);
  });

  it('needs an id or a title', () => {
    const { metadata, errors } = loadMetadata({ rights: [{ description: { en: 'No title' } }] });
    expect(errors).toEqual({
      'metadata.rights.0': ['An existing id or a free text title must be present'],
    });
    expect(metadata.rights).toEqual([{ description: { en: 'No title' } }]);
  });

  it('accepts exactly one configured locale in title and description', () => {
    const { metadata, errors } = loadMetadata({
      rights: [
        { title: { de: 'Hauslizenz' } },
        { title: { en: 'A', de: 'B' } },
        { title: { fr: 'Licence' } },
        { title: { en: 'Mine' }, description: { xx: 'Nope' } },
        { title: 'plain string' },
      ],
    });
    expect(errors).toEqual({
      'metadata.rights.1.title': ['Only one value is accepted.'],
      'metadata.rights.2.title': ['Not a valid locale.'],
      'metadata.rights.3.description': ['Not a valid locale.'],
      'metadata.rights.4.title': ['Not a valid mapping type.'],
    });
    expect(metadata.rights).toEqual([{ title: { de: 'Hauslizenz' } }, { title: { en: 'Mine' } }]);
  });

  it('needs an http(s) link', () => {
    const { metadata, errors } = loadMetadata({
      rights: [{ title: { en: 'Mine' }, link: 'www.example.org/license' }],
    });
    expect(errors).toEqual({ 'metadata.rights.0.link': ['Not a valid URL.'] });
    expect(metadata.rights).toEqual([{ title: { en: 'Mine' } }]);
  });
});

describe('funding', () => {
  it('needs a funder, by id or by name', () => {
    const { metadata, errors } = loadMetadata({
      funding: [
        { funder: { id: '00k4n6c32', name: 'European Commission' } },
        { funder: { name: 'Wellcome' } },
        { award: { id: '755021' } },
        { funder: { acronym: 'EC' } },
      ],
    });
    expect(errors).toEqual({
      'metadata.funding.2.funder': ['Missing data for required field.'],
      'metadata.funding.3.funder': ['An existing id or a free text name must be present.'],
    });
    expect(metadata.funding).toEqual([
      { funder: { id: '00k4n6c32' } },
      { funder: { name: 'Wellcome' } },
      { award: { id: '755021' } },
    ]);
  });

  it('needs an award id, or a number and a one-locale title; URLs go in identifiers', () => {
    const { metadata, errors } = loadMetadata({
      funding: [
        {
          funder: { name: 'Wellcome' },
          award: {
            title: { en: 'Grant' },
            number: 'W-1',
            identifiers: [{ scheme: 'url', identifier: 'https://w.org/1' }],
          },
        },
        { funder: { name: 'Wellcome' }, award: { number: 'W-2' } },
        {
          funder: { name: 'Wellcome' },
          award: { title: { en: 'T' }, number: 'W-3', identifiers: [{ identifier: 'nope' }] },
        },
      ],
    });
    expect(errors).toEqual({
      'metadata.funding.1.award': ['An existing id or number/title must be present.'],
      'metadata.funding.2.award.identifiers.0.scheme': ['Invalid scheme.'],
    });
    expect(metadata.funding?.[0]?.award?.identifiers).toEqual([
      { scheme: 'url', identifier: 'https://w.org/1' },
    ]);
    expect(metadata.funding?.[1]?.award).toEqual({ number: 'W-2' });
  });
});

describe('locations, sizes and formats', () => {
  it('passes locations through with light checks', () => {
    const geometry = { type: 'Point', coordinates: [6.05, 46.23] };
    const { metadata, errors } = loadMetadata({
      locations: { features: [{ geometry, place: 'CERN' }, { foo: 'bar' }, { place: 5 }] },
    });
    expect(errors).toEqual({
      'metadata.locations.features.1': [
        "At least one of ['geometry', 'place', 'identifiers', 'description'] must be present.",
      ],
      'metadata.locations.features.2.place': ['Not a valid string.'],
    });
    expect(metadata.locations).toEqual({ features: [{ geometry, place: 'CERN' }] });
  });

  it('keeps non-blank strings in sizes and formats, silently skipping blanks', () => {
    const { metadata, errors } = loadMetadata({
      sizes: ['2 pages', '', '  '],
      formats: ['pdf', 3],
    });
    expect(errors).toEqual({ 'metadata.formats.1': ['Not a valid string.'] });
    expect(metadata.sizes).toEqual(['2 pages']);
    expect(metadata.formats).toEqual(['pdf']);
  });
});

describe('unknown metadata fields', () => {
  it('are reported and dropped', () => {
    const { metadata, errors } = loadMetadata({ titel: 'Typo', keywords: ['x'] });
    expect(errors).toEqual({
      'metadata.titel': ['Unknown field.'],
      'metadata.keywords': ['Unknown field.'],
    });
    expect(metadata).not.toHaveProperty('titel');
    expect(metadata).not.toHaveProperty('keywords');
  });
});
