import { describe, expect, it } from 'vitest';
import { groupErrorsBySection } from './sections';

describe('groupErrorsBySection', () => {
  it('counts errors per section in page order and keeps the ones without a section apart', () => {
    const grouped = groupErrorsBySection([
      { field: 'metadata.languages.0', messages: ['c'] },
      { field: 'metadata.title', messages: ['a'] },
      { field: 'metadata.creators.0.person_or_org.name', messages: ['b'] },
      { field: 'files.enabled', messages: ['d'] },
      { field: 'parent.review', messages: ['e'] },
    ]);
    expect(grouped.sections.map(({ section, count }) => [section.id, count])).toEqual([
      ['files', 1],
      ['basic-information', 2],
      ['recommended-information', 1],
    ]);
    expect(grouped.unplaced.map((error) => error.field)).toEqual(['parent.review']);
  });
});
