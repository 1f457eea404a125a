import { describe, expect, it } from 'vitest';
import { deserializeDraft } from './serializer.js';
import { emptyRowErrors } from './empty-rows.js';

describe('emptyRowErrors', () => {
  it('flags each required value of a row left empty, at its own index, and nothing else', () => {
    const { metadata } = deserializeDraft({}, { defaultLocale: 'en' }).values;
    metadata.references.push({ reference: 'Knuth 1968' }, { reference: '  ' });
    metadata.dates.push({ date: '2020', type: '', description: '' });
    metadata.identifiers.push({ identifier: '', scheme: '' });
    expect(emptyRowErrors(metadata)).toEqual([
      {
        field: 'metadata.identifiers.0.identifier',
        messages: ['Missing data for required field.'],
      },
      { field: 'metadata.identifiers.0.scheme', messages: ['Missing data for required field.'] },
      { field: 'metadata.references.1.reference', messages: ['Missing data for required field.'] },
    ]);
  });
});
