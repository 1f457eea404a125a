import { describe, expect, it } from 'vitest';
import { loadRecord, validateForPublish } from './load-record.js';
import { buildRecordData, buildValidationOptions } from '../test/builders.js';
import { byField } from '../test/field-errors.js';

const options = buildValidationOptions();
const REQUIRED = 'Missing data for required field.';

describe('validateForPublish', () => {
  it('passes a complete record', () => {
    expect(validateForPublish(buildRecordData(), options)).toEqual([]);
  });

  it('lists every missing required value of a saved partial draft', () => {
    const { data } = loadRecord(
      {
        metadata: {
          title: 'A draft',
          creators: [
            { person_or_org: { type: 'personal', given_name: 'Marie' } },
            { person_or_org: { name: 'X' } },
          ],
          contributors: [{ person_or_org: { type: 'organizational', name: 'CERN' } }],
          additional_titles: [{ title: 'Another title' }],
          dates: [{ date: '2020' }],
          funding: [{ award: { id: '755021' } }],
        },
      },
      options,
    );
    expect(byField(validateForPublish(data, options))).toEqual({
      'metadata.publication_date': [REQUIRED],
      'metadata.resource_type': [REQUIRED],
      'metadata.creators.0.person_or_org.family_name': ['Family name cannot be blank.'],
      'metadata.creators.1.person_or_org.type': [
        "Invalid value. Choose one of ['organizational', 'personal'].",
      ],
      'metadata.contributors.0.role': [REQUIRED],
      'metadata.additional_titles.0.type': [REQUIRED],
      'metadata.dates.0.type': [REQUIRED],
      'metadata.funding.0.funder': [REQUIRED],
    });
  });

  it('requires a publisher only when DOI registration needs one', () => {
    const record = buildRecordData();
    const withoutPublisher = { ...record, metadata: { ...record.metadata, publisher: undefined } };
    expect(validateForPublish(withoutPublisher, options)).toEqual([]);
    expect(validateForPublish(withoutPublisher, { ...options, publisherRequired: true })).toEqual([
      {
        field: 'metadata.publisher',
        messages: ['Missing publisher field required for DOI registration.'],
      },
    ]);
    expect(validateForPublish(record, { ...options, publisherRequired: true })).toEqual([]);
  });

  it('saving never asks for the publisher, even when publishing will', () => {
    const record = buildRecordData();
    const body = { ...record, metadata: { ...record.metadata, publisher: undefined } };
    expect(loadRecord(body, { ...options, publisherRequired: true }).errors).toEqual([]);
  });

  it('re-checks embargo dates against the day of publishing', () => {
    const record = buildRecordData({
      access: {
        record: 'restricted',
        files: 'restricted',
        embargo: { active: true, until: '2025-07-01' },
      },
    });
    expect(validateForPublish(record, options)).toEqual([]);
    expect(validateForPublish(record, { ...options, today: '2025-07-01' })).toEqual([
      {
        field: 'access.embargo.until',
        messages: ['Embargo end date must be set to a future date.'],
      },
    ]);
  });

  it('blocks an external DOI that is empty or invalid', () => {
    const empty = buildRecordData({ pids: { doi: { identifier: '', provider: 'external' } } });
    expect(validateForPublish(empty, options)).toEqual([
      { field: 'pids.doi', messages: ['Missing DOI for required field.'] },
    ]);
    const invalid = buildRecordData({ pids: { doi: { identifier: 'x', provider: 'external' } } });
    expect(validateForPublish(invalid, options)).toEqual([
      { field: 'pids.doi', messages: ['Invalid DOI identifier.'] },
    ]);
  });

  it('blocks two different identifiers of one scheme on a creator', () => {
    const record = buildRecordData();
    const creator = {
      person_or_org: {
        type: 'personal' as const,
        family_name: 'Curie',
        name: 'Curie',
        identifiers: [
          { scheme: 'orcid' as const, identifier: '0000-0002-1825-0097' },
          { scheme: 'orcid' as const, identifier: '0000-0002-1694-233X' },
        ],
      },
    };
    expect(
      validateForPublish(
        { ...record, metadata: { ...record.metadata, creators: [creator] } },
        options,
      ),
    ).toEqual([
      {
        field: 'metadata.creators.0.person_or_org.identifiers',
        messages: ['Only one identifier per scheme is allowed.'],
      },
    ]);
  });
});
