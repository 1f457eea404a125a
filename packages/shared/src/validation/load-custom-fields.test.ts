import { describe, expect, it } from 'vitest';
import { loadRecord } from './load-record.js';
import { buildRecordData, buildValidationOptions } from '../test/builders.js';
import { byField } from '../test/field-errors.js';

const options = buildValidationOptions();

function loadCustomFields(customFields: unknown) {
  const { data, errors } = loadRecord(
    { ...buildRecordData(), custom_fields: customFields },
    options,
  );
  return { customFields: data.custom_fields, errors: byField(errors) };
}

describe('custom_fields', () => {
  it('keeps all four groups of a valid record unchanged', () => {
    const record = buildRecordData();
    expect(loadCustomFields(record.custom_fields)).toEqual({
      customFields: record.custom_fields,
      errors: {},
    });
  });

  it('defaults to {}', () => {
    expect(loadCustomFields(undefined)).toEqual({ customFields: {}, errors: {} });
  });

  it('checks the ISBN of an imprint and the ISSN of a journal', () => {
    const { customFields, errors } = loadCustomFields({
      'imprint:imprint': { title: 'Engines', isbn: '978-3-16-148410-1' },
      'journal:journal': { title: 'J', issn: '0317-8472' },
    });
    expect(errors).toEqual({
      'custom_fields.imprint:imprint.isbn': ['Please provide a valid ISBN.'],
      'custom_fields.journal:journal.issn': ['Please provide a valid ISSN.'],
    });
    expect(customFields).toEqual({
      'imprint:imprint': { title: 'Engines' },
      'journal:journal': { title: 'J' },
    });
  });

  it("checks a meeting's URL and identifiers", () => {
    const { customFields, errors } = loadCustomFields({
      'meeting:meeting': {
        title: 'Conf',
        url: 'conference.org',
        identifiers: [{ identifier: 'https://conf.org/2024' }, { identifier: '???' }],
      },
    });
    expect(errors).toEqual({
      'custom_fields.meeting:meeting.url': ['Not a valid URL.'],
      'custom_fields.meeting:meeting.identifiers.1.scheme': ['Invalid scheme.'],
    });
    expect(customFields).toEqual({
      'meeting:meeting': {
        title: 'Conf',
        identifiers: [{ scheme: 'url', identifier: 'https://conf.org/2024' }],
      },
    });
  });

  it('needs single EDTF dates on a thesis', () => {
    const { customFields, errors } = loadCustomFields({
      'thesis:thesis': {
        university: 'UCL',
        date_submitted: '2023/2024',
        date_defended: '2023-02-30',
      },
    });
    expect(errors).toEqual({
      'custom_fields.thesis:thesis.date_submitted': ['Please provide a valid date.'],
      'custom_fields.thesis:thesis.date_defended': ['Please provide a valid date.'],
    });
    expect(customFields).toEqual({ 'thesis:thesis': { university: 'UCL' } });
  });

  it('reports and drops unknown groups and unknown sub-fields', () => {
    const { customFields, errors } = loadCustomFields({
      'cern:experiment': 'ATLAS',
      'journal:journal': { title: 'J', impact: 3 },
    });
    expect(errors).toEqual({
      'custom_fields.cern:experiment': ['Unknown field.'],
      'custom_fields.journal:journal.impact': ['Unknown field.'],
    });
    expect(customFields).toEqual({ 'journal:journal': { title: 'J' } });
  });

  it('needs strings, and drops empty strings and empty groups silently', () => {
    const { customFields, errors } = loadCustomFields({
      'journal:journal': { title: '', volume: 12 },
      'imprint:imprint': { title: '', place: '  ' },
    });
    expect(errors).toEqual({ 'custom_fields.journal:journal.volume': ['Not a valid string.'] });
    expect(customFields).toEqual({});
  });

  it('needs an object for each group and for custom_fields itself', () => {
    expect(loadCustomFields({ 'journal:journal': 'J' }).errors).toEqual({
      'custom_fields.journal:journal': ['Invalid input type.'],
    });
    expect(loadCustomFields(['x']).errors).toEqual({ custom_fields: ['Invalid input type.'] });
  });
});
