import { describe, expect, it } from 'vitest';
import { computeRecordStatus } from './status.js';

describe('computeRecordStatus', () => {
  it('is published for a published record, whatever the review says', () => {
    expect(
      computeRecordStatus({ isPublishedRecord: true, versionIndex: 3, reviewStatus: 'submitted' }),
    ).toBe('published');
  });

  it('is draft or new_version_draft without a review', () => {
    expect(computeRecordStatus({ isPublishedRecord: false, versionIndex: 1 })).toBe('draft');
    expect(computeRecordStatus({ isPublishedRecord: false, versionIndex: 2 })).toBe(
      'new_version_draft',
    );
  });

  it.each([
    ['created', 1, 'draft_with_review'],
    ['created', 2, 'new_version_draft_with_review'],
    ['cancelled', 1, 'draft_with_review'],
    ['cancelled', 4, 'new_version_draft_with_review'],
    ['submitted', 1, 'in_review'],
    ['submitted', 2, 'in_review'],
    ['declined', 1, 'declined'],
    ['expired', 2, 'expired'],
    ['accepted', 1, 'published'],
  ] as const)('maps a %s review on version %i to %s', (reviewStatus, versionIndex, expected) => {
    expect(computeRecordStatus({ isPublishedRecord: false, versionIndex, reviewStatus })).toBe(
      expected,
    );
  });
});
