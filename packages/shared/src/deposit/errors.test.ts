import { describe, expect, it } from 'vitest';
import {
  deserializeErrors,
  groupErrorsByFormPath,
  hasBlockingErrors,
  toFormPath,
} from './errors.js';

describe('deserializeErrors', () => {
  it('builds a nested object from dotted paths, numeric segments as indexes', () => {
    expect(
      deserializeErrors([
        { field: 'metadata.title', messages: ['Too short.', 'Really.'] },
        { field: 'metadata.creators.1.person_or_org.family_name', messages: ['Required.'] },
      ]),
    ).toEqual({
      metadata: {
        title: 'Too short. Really.',
        creators: [undefined, { person_or_org: { family_name: 'Required.' } }],
      },
    });
  });

  it('keeps severity and description when the server sent a severity', () => {
    expect(
      deserializeErrors([
        {
          field: 'metadata.description',
          messages: ['Add a description.'],
          severity: 'warning',
          description: 'Curators like one.',
        },
      ]),
    ).toEqual({
      metadata: {
        description: {
          message: 'Add a description.',
          severity: 'warning',
          description: 'Curators like one.',
        },
      },
    });
  });
});

describe('groupErrorsByFormPath', () => {
  it('groups items of one form path, joins messages and keeps the most severe', () => {
    const grouped = groupErrorsByFormPath([
      { field: 'metadata.resource_type', messages: ['Missing data for required field.'] },
      { field: 'metadata.resource_type.id', messages: ['Invalid value.'], severity: 'info' },
      { field: 'metadata.title', messages: ['Hint.'], severity: 'info' },
    ]);
    expect(Object.fromEntries(grouped)).toEqual({
      'metadata.resource_type': {
        message: 'Missing data for required field. Invalid value.',
        severity: 'error',
      },
      'metadata.title': { message: 'Hint.', severity: 'info' },
    });
  });
});

describe('toFormPath', () => {
  it.each([
    ['metadata.title', 'metadata.title'],
    ['metadata.resource_type.id', 'metadata.resource_type'],
    ['metadata.languages.2.id', 'metadata.languages.2'],
    ['metadata.creators.0.role.id', 'metadata.creators.0.role'],
    ['metadata.additional_titles.1.type.id', 'metadata.additional_titles.1.type'],
    [
      'metadata.related_identifiers.0.relation_type.id',
      'metadata.related_identifiers.0.relation_type',
    ],
    ['metadata.rights.1.title.en', 'metadata.rights.1.title'],
    ['metadata.funding.0.award.title.en', 'metadata.funding.0.award.title'],
    ['metadata.funding.0.award.identifiers.0.identifier', 'metadata.funding.0.award.url'],
    [
      'metadata.creators.0.person_or_org.family_name',
      'metadata.creators.0.person_or_org.family_name',
    ],
    ['pids.doi', 'pids.doi'],
  ])('%s → %s', (field, path) => {
    expect(toFormPath(field)).toBe(path);
  });
});

describe('hasBlockingErrors', () => {
  it('blocks on items without severity or with severity error, not on warnings and hints', () => {
    expect(hasBlockingErrors([])).toBe(false);
    expect(hasBlockingErrors(undefined)).toBe(false);
    expect(hasBlockingErrors([{ field: 'a', messages: [], severity: 'warning' }])).toBe(false);
    expect(hasBlockingErrors([{ field: 'a', messages: [], severity: 'info' }])).toBe(false);
    expect(hasBlockingErrors([{ field: 'a', messages: [] }])).toBe(true);
    expect(hasBlockingErrors([{ field: 'a', messages: [], severity: 'error' }])).toBe(true);
  });
});
