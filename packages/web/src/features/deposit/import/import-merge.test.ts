import { deserializeDraft, type ImportMetadataAnswer } from '@cairn/shared';
import { describe, expect, it } from 'vitest';
import { buildFormValues } from '../metadata/test-utils';
import { defaultChoice, isEmpty, mergeImport, reviewImport } from './import-merge';
import { DATACITE_CREATORS, DATACITE_DOI } from './test-answers';

/** The draft's deserializer, as the form hands it to the dialog. */
const toFormMetadata = (metadata: Record<string, unknown>) =>
  deserializeDraft({ metadata }, { defaultLocale: 'en' }).values.metadata;
const DOI = DATACITE_DOI;

/** What the server answers for a DataCite DOI (import-metadata.test.ts's sample), shortened. */
const ANSWER: ImportMetadataAnswer = {
  metadata: {
    resource_type: { id: 'dataset' },
    title: 'Snow depth and density along an elevation transect',
    publication_date: '2022-02-14',
    creators: DATACITE_CREATORS,
    description: '<p>Snow pits dug every 100 m.</p>',
    rights: [{ id: 'cc0-1.0' }],
    languages: [{ id: 'eng' }],
    subjects: [{ subject: 'snow' }, { subject: 'avalanches' }],
  },
  unmatched: [
    { field: 'metadata.creators.1.person_or_org', value: 'Mulligan, Zoë', kept: 'free_text' },
    {
      field: 'metadata.creators.1.affiliations.0',
      value: 'Institute of Unlisted Studies',
      kept: 'free_text',
    },
    { field: 'metadata.languages.1', value: 'Klingon', kept: 'dropped' },
  ],
  errors: [],
  source: { format: 'doi', doi: DOI, agency: 'datacite' },
  suggested_related_identifiers: [
    {
      scheme: 'doi',
      identifier: DOI,
      relation_type: { id: 'isderivedfrom' },
      resource_type: { id: 'dataset' },
    },
    {
      scheme: 'doi',
      identifier: DOI,
      relation_type: { id: 'issupplementto' },
      resource_type: { id: 'dataset' },
    },
  ],
};

describe('reviewing an import', () => {
  it('lists the fields the import sets, in the form’s order, each beside the form’s value', () => {
    const current = buildFormValues({ title: 'What I typed' }).metadata;
    const review = reviewImport(ANSWER, current, toFormMetadata);
    expect(review.fields.map((entry) => entry.field)).toEqual([
      'resource_type',
      'title',
      'publication_date',
      'creators',
      'description',
      'rights',
      'subjects',
      'languages',
    ]);
    const title = review.fields.find((entry) => entry.field === 'title');
    expect(title).toMatchObject({
      imported: 'Snow depth and density along an elevation transect',
      current: 'What I typed',
    });
    // In the form's shapes: vocabulary references as their ids.
    expect(review.fields.find((entry) => entry.field === 'languages')?.imported).toEqual(['eng']);
    expect(review.fields.find((entry) => entry.field === 'rights')?.imported).toEqual([
      { id: 'cc0-1.0' },
    ]);
  });

  it('files what matched nothing under its field', () => {
    const review = reviewImport(ANSWER, buildFormValues().metadata, toFormMetadata);
    const byField = Object.fromEntries(
      review.fields.map((entry) => [entry.field, entry.unmatched.map((u) => u.value)]),
    );
    expect(byField['creators']).toEqual(['Mulligan, Zoë', 'Institute of Unlisted Studies']);
    expect(byField['languages']).toEqual(['Klingon']);
    expect(byField['title']).toEqual([]);
  });

  it('offers the source’s DOI as related identifiers in the form’s shape', () => {
    const review = reviewImport(ANSWER, buildFormValues().metadata, toFormMetadata);
    expect(review.suggestions).toEqual([
      { scheme: 'doi', identifier: DOI, relation_type: 'isderivedfrom', resource_type: 'dataset' },
      { scheme: 'doi', identifier: DOI, relation_type: 'issupplementto', resource_type: 'dataset' },
    ]);
  });

  it('takes by default only the fields the form holds nothing in', () => {
    const current = buildFormValues({
      title: 'What I typed',
      // A blank row the form shows is nothing typed.
      additional_titles: [{ title: ' ', type: 'alternative-title', lang: '' }],
      // Today's date, which a new upload starts with, is a value.
      publication_date: '2026-11-28',
    }).metadata;
    const review = reviewImport(
      {
        ...ANSWER,
        metadata: { ...ANSWER.metadata, additional_titles: [{ title: 'Schneehöhe' }] },
      },
      current,
      toFormMetadata,
    );
    expect([...defaultChoice(review.fields)].sort()).toEqual(
      [
        'resource_type',
        'additional_titles',
        'creators',
        'description',
        'rights',
        'subjects',
        'languages',
      ].sort(),
    );
  });

  it('tells a blank value from a filled one', () => {
    expect(isEmpty('')).toBe(true);
    expect(isEmpty([{ date: '', type: 'issued', description: '' }])).toBe(true);
    expect(isEmpty([{ date: '2020', type: 'issued', description: '' }])).toBe(false);
    expect(isEmpty('x')).toBe(false);
  });
});

describe('merging an import', () => {
  const current = buildFormValues({
    title: 'What I typed',
    related_identifiers: [
      {
        scheme: 'doi',
        identifier: DOI.toLowerCase(),
        relation_type: 'isderivedfrom',
        resource_type: '',
      },
    ],
  }).metadata;
  const review = reviewImport(ANSWER, current, toFormMetadata);

  it('changes only the fields taken', () => {
    const changes = mergeImport(current, review, new Set(['creators', 'languages']), []);
    expect(Object.keys(changes).sort()).toEqual(['creators', 'languages']);
    expect(changes.languages).toEqual(['eng']);
    expect(changes.creators?.map((c) => c.person_or_org.family_name)).toEqual([
      'Carberry',
      'Mulligan',
    ]);
    expect(changes.creators?.[1]?.person_or_org.given_name).toBe('Zoë');
  });

  it('changes nothing when nothing is taken', () => {
    expect(mergeImport(current, review, new Set(), [])).toEqual({});
  });

  it('adds the chosen relations after the form’s own, once each', () => {
    const changes = mergeImport(current, review, new Set(), review.suggestions);
    expect(changes.related_identifiers?.map((r) => r.relation_type)).toEqual([
      'isderivedfrom',
      'issupplementto',
    ]);
    expect(changes.related_identifiers?.[0]).toBe(current.related_identifiers[0]);
  });
});
