/** A draft's or record's lifecycle status, as InvenioRDM derives it. */
export type RecordStatus =
  | 'draft'
  | 'new_version_draft'
  | 'draft_with_review'
  | 'new_version_draft_with_review'
  | 'in_review'
  | 'declined'
  | 'expired'
  | 'published';

/** Status of the community-submission request attached to a draft. */
export type ReviewRequestStatus =
  'created' | 'submitted' | 'declined' | 'expired' | 'accepted' | 'cancelled';

/**
 * The derived `status`, never stored: a published record is `published`; a draft without a
 * review is `draft` (first version) or `new_version_draft` (`versionIndex` > 1); with one, the
 * request's status decides. A cancelled request still belongs to the draft, which can be
 * resubmitted or have its review removed, so it reads like a created one.
 */
export function computeRecordStatus(input: {
  isPublishedRecord: boolean;
  versionIndex: number;
  reviewStatus?: ReviewRequestStatus;
}): RecordStatus {
  if (input.isPublishedRecord) return 'published';
  const isNewVersion = input.versionIndex > 1;
  switch (input.reviewStatus) {
    case undefined:
      return isNewVersion ? 'new_version_draft' : 'draft';
    case 'created':
    case 'cancelled':
      return isNewVersion ? 'new_version_draft_with_review' : 'draft_with_review';
    case 'submitted':
      return 'in_review';
    case 'declined':
      return 'declined';
    case 'expired':
      return 'expired';
    case 'accepted':
      return 'published';
  }
}
