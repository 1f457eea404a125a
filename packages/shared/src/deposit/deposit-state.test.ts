import { describe, expect, it } from 'vitest';
import {
  accessForCommunity,
  canDeleteReview,
  canSubmitReview,
  canUpdateReview,
  computeDepositState,
  deleteKindOf,
  doiNeededFor,
  editorButtonsOf,
  isPublishDisabled,
  isRestrictionBlockedByGracePeriod,
  isSubmitReviewDisabled,
  statusHeaderOf,
  type DepositCommunity,
} from './deposit-state.js';
import type { DraftRecordInfo } from './serializer.js';

const COMMUNITY: DepositCommunity = {
  id: 'c1',
  slug: 'ocean',
  metadata: { title: 'Ocean' },
  access: { visibility: 'public' },
  ui: { permissions: { can_include_directly: false, can_submit_record: true } },
};

function buildRecord(overrides: Partial<DraftRecordInfo> = {}): DraftRecordInfo {
  return {
    id: 'abcde-12345',
    links: {},
    status: 'draft',
    is_published: false,
    versions: { index: 1 },
    parent: { id: 'p1', communities: {} },
    expanded: {},
    ...overrides,
  };
}

/** A first-version draft submitted to COMMUNITY, its request in `status`. */
function withReview(status: string, community = COMMUNITY): DraftRecordInfo {
  return buildRecord({
    status,
    parent: {
      id: 'p1',
      communities: {},
      review: { id: 'req-1', receiver: { community: community.id } },
    },
    expanded: { parent: { review: { receiver: community } } },
  });
}

const FILES_OK = { enabled: true, count: 1, allFinished: true };

describe('statusHeaderOf', () => {
  it.each([
    ['draft', 1, 'draft'],
    ['draft_with_review', 1, 'draftWithReview'],
    ['new_version_draft', 2, 'newVersionDraft'],
    ['new_version_draft_with_review', 2, 'newVersionDraftWithReview'],
    ['declined', 1, 'declined'],
    ['declined', 2, 'declinedNewVersion'],
    ['expired', 1, 'expired'],
    ['published', 1, 'published'],
  ])('%s (version %i) reads %s', (status, index, textKey) => {
    expect(statusHeaderOf(buildRecord({ status, versions: { index } })).textKey).toBe(textKey);
  });

  it('links a draft in review to its request page', () => {
    expect(statusHeaderOf(withReview('in_review'))).toEqual({
      status: 'in_review',
      textKey: 'inReview',
      tone: 'info',
      requestUrl: '/me/requests/req-1',
    });
  });

  it('reads a new, unsaved draft as a draft', () => {
    expect(statusHeaderOf({ links: {}, is_published: false, expanded: {} }).textKey).toBe('draft');
  });

  it('throws on an unknown status', () => {
    expect(() => statusHeaderOf(buildRecord({ status: 'archived' }))).toThrow(
      'Status is undefined',
    );
    expect(() => statusHeaderOf(buildRecord({ status: undefined }))).toThrow('Status is undefined');
  });
});

describe('computeDepositState', () => {
  it('takes the community from the review receiver of a first version', () => {
    expect(computeDepositState(withReview('draft_with_review')).selectedCommunity).toEqual(
      COMMUNITY,
    );
  });

  it('takes the default community once the parent is published', () => {
    const record = buildRecord({
      status: 'new_version_draft',
      versions: { index: 2 },
      parent: { id: 'p1', communities: { ids: ['c1'], default: 'c1' } },
      expanded: { parent: { communities: { default: COMMUNITY } } },
    });
    expect(computeDepositState(record).selectedCommunity).toEqual(COMMUNITY);
  });

  it('has no community without a review or default, and after removal (null)', () => {
    expect(computeDepositState(buildRecord()).selectedCommunity).toBeUndefined();
    expect(computeDepositState(withReview('draft_with_review'), null).selectedCommunity).toBe(
      undefined,
    );
  });

  it('shows submit for review for a draft with a community, disabled once in review', () => {
    const draft = computeDepositState(buildRecord(), COMMUNITY);
    expect(draft.ui.showSubmitForReviewButton).toBe(true);
    expect(draft.ui.disableSubmitForReviewButton).toBe(false);
    const inReview = computeDepositState(withReview('in_review'));
    expect(inReview.ui.showSubmitForReviewButton).toBe(true);
    expect(inReview.ui.disableSubmitForReviewButton).toBe(true);
  });

  it('shows the direct-publish button when the community allows direct inclusion', () => {
    const direct = { ...COMMUNITY, ui: { permissions: { can_include_directly: true } } };
    expect(computeDepositState(buildRecord(), direct).ui.showDirectPublishButton).toBe(true);
    expect(computeDepositState(buildRecord(), COMMUNITY).ui.showDirectPublishButton).toBe(false);
    expect(
      computeDepositState(buildRecord({ status: 'published' }), direct).ui.showDirectPublishButton,
    ).toBe(false);
  });

  it('offers change community for a declined or expired first version', () => {
    for (const status of ['declined', 'expired']) {
      const state = computeDepositState(withReview(status));
      expect(state.declinedOrExpired).toBe(true);
      expect(state.ui.showChangeCommunityButton).toBe(true);
      expect(state.ui.showSubmitForReviewButton).toBe(false);
      expect(state.ui.disableCommunitySelectionButton).toBe(true);
    }
  });

  it('asks to delete a declined new version instead', () => {
    const record = {
      ...withReview('declined'),
      versions: { index: 2 },
      review: { id: 'req-2', receiver: { community: 'c1' } },
    };
    const state = computeDepositState(record, COMMUNITY);
    expect(state.ui.requireDeletionForDeclinedDraft).toBe(true);
    expect(state.ui.showChangeCommunityButton).toBe(false);
  });

  it('updates the review when a community is chosen, deletes it when removed', () => {
    expect(computeDepositState(buildRecord(), COMMUNITY).actions).toEqual({
      shouldUpdateReview: true,
      shouldDeleteReview: false,
      communityStateMustBeChecked: true,
    });
    // Already created for this community: nothing to do.
    expect(computeDepositState(withReview('draft_with_review')).actions).toEqual({
      shouldUpdateReview: false,
      shouldDeleteReview: false,
      communityStateMustBeChecked: false,
    });
    expect(computeDepositState(withReview('draft_with_review'), null).actions).toEqual({
      shouldUpdateReview: false,
      shouldDeleteReview: true,
      communityStateMustBeChecked: true,
    });
    // Another community replaces the review.
    expect(
      computeDepositState(withReview('draft_with_review'), { ...COMMUNITY, id: 'c2' }).actions
        .shouldUpdateReview,
    ).toBe(true);
  });

  it('hides the community header of a published record without community', () => {
    expect(
      computeDepositState(buildRecord({ status: 'published', is_published: true })).ui
        .showCommunityHeader,
    ).toBe(false);
    expect(computeDepositState(buildRecord()).ui.showCommunityHeader).toBe(true);
  });
});

describe('editorButtonsOf', () => {
  it('shows plain publish without a community', () => {
    const record = buildRecord();
    expect(editorButtonsOf(record, computeDepositState(record))).toEqual({
      publishArea: 'publish',
      submitLabel: 'submit-review',
      showDirectPublish: false,
      deleteKind: 'delete',
    });
  });

  it('shows submit for review plus publish to community when direct inclusion is allowed', () => {
    const record = buildRecord();
    const direct = { ...COMMUNITY, ui: { permissions: { can_include_directly: true } } };
    expect(editorButtonsOf(record, computeDepositState(record, direct))).toMatchObject({
      publishArea: 'submit-review',
      showDirectPublish: true,
    });
  });

  it('reads "Submitted for review" once in review', () => {
    const record = withReview('in_review');
    expect(editorButtonsOf(record, computeDepositState(record)).submitLabel).toBe(
      'submitted-for-review',
    );
  });

  it('shows change community and publish without community for a declined review', () => {
    const record = withReview('declined');
    expect(editorButtonsOf(record, computeDepositState(record)).publishArea).toBe(
      'change-community',
    );
  });
});

describe('deleteKindOf', () => {
  it('discards changes of a published record, a later version, or deletes a first draft', () => {
    expect(deleteKindOf(buildRecord({ is_published: true }))).toBe('discard-changes');
    expect(deleteKindOf(buildRecord({ versions: { index: 3 } }))).toBe('discard-version');
    expect(deleteKindOf(buildRecord())).toBe('delete');
  });
});

describe('button enablement', () => {
  it('disables publish while submitting, without files, or with an unfinished file', () => {
    expect(isPublishDisabled({ isSubmitting: false, files: FILES_OK })).toBe(false);
    expect(isPublishDisabled({ isSubmitting: true, files: FILES_OK })).toBe(true);
    expect(isPublishDisabled({ isSubmitting: false, files: { ...FILES_OK, count: 0 } })).toBe(true);
    expect(
      isPublishDisabled({ isSubmitting: false, files: { ...FILES_OK, allFinished: false } }),
    ).toBe(true);
    // Metadata-only: no files needed.
    expect(
      isPublishDisabled({
        isSubmitting: false,
        files: { enabled: false, count: 0, allFinished: true },
      }),
    ).toBe(false);
  });

  it('disables submit for review for a record the user cannot manage, and by editor state', () => {
    const state = computeDepositState(buildRecord(), COMMUNITY);
    const base = {
      recordExists: true,
      canManage: true,
      state,
      isSubmitting: false,
      files: FILES_OK,
    };
    expect(isSubmitReviewDisabled(base)).toBe(false);
    expect(isSubmitReviewDisabled({ ...base, canManage: false })).toBe(true);
    expect(isSubmitReviewDisabled({ ...base, recordExists: false, canManage: false })).toBe(false);
    expect(isSubmitReviewDisabled({ ...base, isSubmitting: true })).toBe(true);
    expect(isSubmitReviewDisabled({ ...base, files: { ...FILES_OK, count: 0 } })).toBe(true);
    expect(
      isSubmitReviewDisabled({ ...base, state: computeDepositState(withReview('in_review')) }),
    ).toBe(true);
  });
});

describe('review rules', () => {
  it('allows review deletion, update and submission by status', () => {
    expect(['draft_with_review', 'declined', 'expired', 'draft'].filter(canDeleteReview)).toEqual([
      'draft_with_review',
      'declined',
      'expired',
    ]);
    expect(
      ['draft_with_review', 'declined', 'expired', 'draft', 'in_review'].filter(canUpdateReview),
    ).toEqual(['draft_with_review', 'declined', 'expired', 'draft']);
    expect(
      ['published', 'in_review', 'new_version_draft', 'draft'].filter(canSubmitReview),
    ).toEqual(['draft']);
  });

  it('makes a public record restricted when a restricted community is chosen', () => {
    const access = { record: 'public', files: 'public', embargo: { active: false } } as const;
    expect(
      accessForCommunity(access, { ...COMMUNITY, access: { visibility: 'restricted' } }),
    ).toEqual({ record: 'restricted', files: 'restricted', embargo: { active: false } });
    expect(accessForCommunity(access, COMMUNITY)).toBe(access);
  });
});

describe('grace period', () => {
  const input = {
    isPublished: true,
    created: '2025-01-01T00:00:00+00:00',
    storedRecordAccess: 'public',
    gracePeriodDays: 30,
    allowRestrictionAfterGracePeriod: false,
    now: new Date('2025-03-01T00:00:00Z'),
  };
  it('blocks restricting a published public record after the grace period', () => {
    expect(isRestrictionBlockedByGracePeriod(input)).toBe(true);
    expect(
      isRestrictionBlockedByGracePeriod({ ...input, now: new Date('2025-01-15T00:00:00Z') }),
    ).toBe(false);
    expect(
      isRestrictionBlockedByGracePeriod({ ...input, allowRestrictionAfterGracePeriod: true }),
    ).toBe(false);
    expect(isRestrictionBlockedByGracePeriod({ ...input, storedRecordAccess: 'restricted' })).toBe(
      false,
    );
    expect(isRestrictionBlockedByGracePeriod({ ...input, isPublished: false })).toBe(false);
    expect(isRestrictionBlockedByGracePeriod({ ...input, created: undefined })).toBe(false);
  });
});

describe('DOI checks', () => {
  it('blocks publish and submit when the person needs a DOI and none is reserved', () => {
    const pids = { doi: { identifier: '', provider: 'datacite' } };
    expect(doiNeededFor('publish', { isDoiRequired: false, pids })).toBe('publish');
    expect(doiNeededFor('submit-review', { isDoiRequired: false, pids })).toBe('submit-review');
    expect(
      doiNeededFor('publish', {
        isDoiRequired: false,
        pids: { doi: { identifier: '10.5072/x', provider: 'datacite' } },
      }),
    ).toBeUndefined();
    expect(
      doiNeededFor('publish', {
        isDoiRequired: false,
        pids: { doi: { identifier: '', provider: 'not_needed' } },
      }),
    ).toBeUndefined();
    expect(doiNeededFor('publish', { isDoiRequired: false, pids: {} })).toBeUndefined();
    // The widget's answer "yes" counts even before a DOI entry exists.
    expect(doiNeededFor('publish', { isDoiRequired: false, pids: {}, userNeedsDoi: true })).toBe(
      'publish',
    );
    // A required DOI is the server's to enforce at publish.
    expect(doiNeededFor('publish', { isDoiRequired: true, pids })).toBeUndefined();
  });
});
