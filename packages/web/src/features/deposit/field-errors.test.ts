import { describe, expect, it } from 'vitest';
import { hasBlockingErrors, toFormPath } from './field-errors';
import { groupErrorsBySection } from './sections';

describe('toFormPath', () => {
  it('maps API error fields onto the form inputs that show them', () => {
    expect(toFormPath('metadata.title')).toBe('metadata.title');
    expect(toFormPath('metadata.resource_type.id')).toBe('metadata.resource_type');
    expect(toFormPath('metadata.creators.0.person_or_org.family_name')).toBe(
      'metadata.creators.0.person_or_org.family_name',
    );
    expect(toFormPath('metadata.creators.0.affiliations.1.name')).toBe('metadata.creators');
    expect(toFormPath('metadata.creators')).toBe('metadata.creators');
    expect(toFormPath('metadata.languages.0')).toBeUndefined();
  });
});

describe('hasBlockingErrors', () => {
  it('lets warnings and hints of curation checks through', () => {
    expect(hasBlockingErrors([])).toBe(false);
    expect(hasBlockingErrors([{ field: 'metadata.title', messages: [], severity: 'info' }])).toBe(
      false,
    );
    expect(hasBlockingErrors([{ field: 'metadata.title', messages: [] }])).toBe(true);
    expect(hasBlockingErrors([{ field: 'metadata.title', messages: [], severity: 'error' }])).toBe(
      true,
    );
  });
});

describe('groupErrorsBySection', () => {
  it('counts errors per section and keeps the ones without a section apart', () => {
    const grouped = groupErrorsBySection([
      { field: 'metadata.title', messages: ['a'] },
      { field: 'metadata.creators.0.person_or_org.name', messages: ['b'] },
      { field: 'metadata.languages.0', messages: ['c'] },
    ]);
    expect(grouped.sections.map(({ section, count }) => [section.id, count])).toEqual([
      ['basic-information', 2],
    ]);
    expect(grouped.unplaced.map((error) => error.field)).toEqual(['metadata.languages.0']);
  });
});
