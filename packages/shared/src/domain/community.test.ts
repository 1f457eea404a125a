import { describe, expect, it } from 'vitest';
import { COMMUNITY_SLUG_MESSAGES, communitySlugMessages } from './community.js';

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
