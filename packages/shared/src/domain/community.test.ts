import { describe, expect, it } from 'vitest';
import { COMMUNITY_SLUG_MESSAGES, communitySlugMessages, curationPolicyOf } from './community.js';

describe('communitySlugMessages', () => {
  it('accepts letters, digits, dashes and underscores, in any case', () => {
    expect(communitySlugMessages('Ocean-Data_2024')).toEqual([]);
    expect(communitySlugMessages('  ocean  ')).toEqual([]);
  });

  it('refuses empty, too long, other characters and uuids with InvenioRDM’s words', () => {
    expect(communitySlugMessages('   ')).toEqual([COMMUNITY_SLUG_MESSAGES.length]);
    expect(communitySlugMessages('a'.repeat(101))).toEqual([COMMUNITY_SLUG_MESSAGES.length]);
    expect(communitySlugMessages('a'.repeat(100))).toEqual([]);
    expect(communitySlugMessages('ocean data!')).toEqual([COMMUNITY_SLUG_MESSAGES.chars]);
    expect(communitySlugMessages('0b5e6a4c-2f7d-4c8e-9a1b-3c4d5e6f7a8b')).toEqual([
      COMMUNITY_SLUG_MESSAGES.uuid,
    ]);
  });
});

describe('curationPolicyOf', () => {
  it('reads who sees a community, who may submit and whose submissions skip review', () => {
    expect(
      curationPolicyOf({
        visibility: 'public',
        record_submission_policy: 'open',
        review_policy: 'members',
      }),
    ).toEqual({ visibility: 'public', submission: 'open', review: 'members' });
    expect(curationPolicyOf({ visibility: 'public', review_policy: 'open' })).toEqual({
      visibility: 'public',
      submission: 'open',
      review: 'open',
    });
  });

  it('takes submissions from members only when closed or restricted', () => {
    expect(curationPolicyOf({ record_submission_policy: 'closed' }).submission).toBe('closed');
    expect(
      curationPolicyOf({ visibility: 'restricted', record_submission_policy: 'open' }),
    ).toMatchObject({ visibility: 'restricted', submission: 'closed' });
  });

  it('reads missing or unknown settings as the strictest review, public and open otherwise', () => {
    expect(curationPolicyOf(undefined)).toEqual({
      visibility: 'public',
      submission: 'open',
      review: 'closed',
    });
    expect(curationPolicyOf({ review_policy: 'sometimes' }).review).toBe('closed');
  });
});
