import type { Access } from '../domain/access.js';
import { EXTERNAL_PID_PROVIDER } from '../domain/pids.js';
import type { PidFormValues } from './form-values.js';
import type { DraftRecordInfo } from './serializer.js';

/*
 * The editor's state derived from the draft, as InvenioRDM's `computeDepositState` and status box
 * derive it: which buttons show in which state, when they are disabled, the review rules, the grace
 * period and the DOI check. Pure functions: the web form renders what they return, and tests pin
 * every rule here without a DOM.
 */

/** A community as the API (vnd+json, expand=1) returns it; only what the editor reads. */
export interface DepositCommunity {
  id: string;
  slug?: string;
  metadata?: { title?: string; type?: { id?: string } };
  links?: { logo?: string; self_html?: string };
  is_ghost?: boolean;
  access?: { visibility?: string };
  theme?: { enabled?: boolean } | null;
  ui?: { permissions?: { can_include_directly?: boolean; can_submit_record?: boolean } };
}

/** Every status InvenioRDM gives a draft or record. */
export const DEPOSIT_STATUSES = [
  'draft',
  'draft_with_review',
  'new_version_draft',
  'new_version_draft_with_review',
  'in_review',
  'declined',
  'expired',
  'published',
] as const;

export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

function isDepositStatus(value: unknown): value is DepositStatus {
  return (DEPOSIT_STATUSES as readonly unknown[]).includes(value);
}

// ---------------------------------------------------------------------------------------------
// Status header

/** Which text the status header shows; the web translates `deposit.status.<key>`. */
export type StatusTextKey =
  | 'draft'
  | 'draftWithReview'
  | 'newVersionDraft'
  | 'newVersionDraftWithReview'
  | 'inReview'
  | 'declined'
  | 'declinedNewVersion'
  | 'expired'
  | 'published';

export interface StatusHeader {
  status: DepositStatus;
  /** The title ("Draft", "In review", …) and the explanation of the status. */
  textKey: StatusTextKey;
  tone: 'neutral' | 'info' | 'warning' | 'negative' | 'positive';
  /** In review: the request page, which the header opens in a new tab. */
  requestUrl?: string;
}

/**
 * The status header of a draft, with InvenioRDM's texts. A draft that has not been saved yet reads
 * as `draft`. Throws "Status is undefined" for any other unknown status: the header must never
 * guess what a draft may do.
 */
export function statusHeaderOf(record: DraftRecordInfo): StatusHeader {
  const status = record.status ?? (record.id === undefined ? 'draft' : undefined);
  if (!isDepositStatus(status)) throw new Error('Status is undefined');
  const isNewVersion = (record.versions?.index ?? 1) > 1;
  switch (status) {
    case 'draft':
      return { status, textKey: 'draft', tone: 'neutral' };
    case 'draft_with_review':
      return { status, textKey: 'draftWithReview', tone: 'neutral' };
    case 'new_version_draft':
      return { status, textKey: 'newVersionDraft', tone: 'neutral' };
    case 'new_version_draft_with_review':
      return { status, textKey: 'newVersionDraftWithReview', tone: 'neutral' };
    case 'in_review': {
      const requestId = reviewOf(record)?.['id'];
      return {
        status,
        textKey: 'inReview',
        tone: 'info',
        ...(typeof requestId === 'string'
          ? { requestUrl: `/me/requests/${encodeURIComponent(requestId)}` }
          : {}),
      };
    }
    case 'declined':
      return {
        status,
        textKey: isNewVersion ? 'declinedNewVersion' : 'declined',
        tone: 'negative',
      };
    case 'expired':
      return { status, textKey: 'expired', tone: 'warning' };
    case 'published':
      return { status, textKey: 'published', tone: 'positive' };
  }
}

// ---------------------------------------------------------------------------------------------
// Editor state (computeDepositState)

function asRecord(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** A status string, or `draft` for a draft not saved yet. */
function statusOf(record: DraftRecordInfo): string {
  return record.status ?? 'draft';
}

/** The parent is already published: the record is published or a later version. */
export function isParentPublished(record: DraftRecordInfo): boolean {
  return statusOf(record) === 'published' || (record.versions?.index ?? 1) > 1;
}

/** A record counts as having a parent version when its version index is above 1. */
export function hasParentVersion(record: DraftRecordInfo): boolean {
  return (record.versions?.index ?? 1) > 1;
}

/** The relevant review request: the draft's own for later versions, else the parent's. */
function reviewOf(record: DraftRecordInfo): Readonly<Record<string, unknown>> | undefined {
  return isParentPublished(record) ? record.review : asRecord(record.parent?.['review']);
}

function receiverIdOf(review: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const community = asRecord(review?.['receiver'])?.['community'];
  return typeof community === 'string' ? community : undefined;
}

/**
 * The community the draft belongs to or is submitted to, as InvenioRDM's editor first shows it:
 * the expanded default community once the parent is published, else the expanded review receiver.
 */
export function communityOfRecord(record: DraftRecordInfo): DepositCommunity | undefined {
  const parentReview = asRecord(record.parent?.['review']);
  const defaultCommunity = asRecord(record.parent?.['communities'])?.['default'];
  const hasCommunity =
    receiverIdOf(parentReview) !== undefined ||
    receiverIdOf(record.review) !== undefined ||
    typeof defaultCommunity === 'string';
  if (!hasCommunity) return undefined;
  const expandedParent = asRecord(record.expanded['parent']);
  const community = isParentPublished(record)
    ? asRecord(asRecord(expandedParent?.['communities'])?.['default'])
    : (asRecord(asRecord(expandedParent?.['review'])?.['receiver']) ??
      asRecord(asRecord(record.expanded['review'])?.['receiver']));
  return community && typeof community['id'] === 'string'
    ? (community as unknown as DepositCommunity)
    : undefined;
}

export interface DepositEditorState {
  /** `undefined`: none; after the person removed it, too. */
  selectedCommunity: DepositCommunity | undefined;
  status: string;
  parentAlreadyPublished: boolean;
  reviewForSelectedCreated: boolean;
  declinedOrExpired: boolean;
  isGhost: boolean;
  ui: {
    showDirectPublishButton: boolean;
    showSubmitForReviewButton: boolean;
    disableSubmitForReviewButton: boolean;
    showChangeCommunityButton: boolean;
    requireDeletionForDeclinedDraft: boolean;
    showCommunitySelectionButton: boolean;
    disableCommunitySelectionButton: boolean;
    showCommunityHeader: boolean;
  };
  actions: {
    shouldUpdateReview: boolean;
    shouldDeleteReview: boolean;
    communityStateMustBeChecked: boolean;
  };
}

/**
 * InvenioRDM's `computeDepositState`. `selected`: `undefined` takes the community from the
 * record, `null` means the person removed it, an object is a newly chosen one.
 */
export function computeDepositState(
  record: DraftRecordInfo,
  selected?: DepositCommunity | null,
): DepositEditorState {
  const community = selected === undefined ? communityOfRecord(record) : (selected ?? undefined);
  const status = statusOf(record);
  const parentAlreadyPublished = isParentPublished(record);
  const receiverId = receiverIdOf(reviewOf(record));
  const isForSelected = community !== undefined && receiverId === community.id;
  const reviewForSelectedCreated = status === 'draft_with_review' && isForSelected;
  const declinedOrExpired = (status === 'declined' || status === 'expired') && isForSelected;
  const isGhost = community?.is_ghost === true;
  const versionIndex = record.versions?.index ?? 1;
  const publishedOrNewVersion = status === 'published' || status === 'new_version_draft';

  const showSubmitForReviewButton =
    community !== undefined &&
    (!declinedOrExpired || parentAlreadyPublished) &&
    !publishedOrNewVersion;
  const showCommunitySelectionButton =
    !['published', 'new_version_draft', 'new_version_draft_with_review'].includes(status) &&
    !(declinedOrExpired && parentAlreadyPublished);
  const parentCommunities = asRecord(record.parent?.['communities']);
  const parentCommunityIds = parentCommunities?.['ids'];
  const hasParentCommunities =
    (Array.isArray(parentCommunityIds) && parentCommunityIds.length > 0) ||
    typeof parentCommunities?.['default'] === 'string';
  const publishedWithoutResolvedCommunity = status === 'published' && !hasParentCommunities;

  const shouldUpdateReview =
    community !== undefined &&
    canUpdateReview(status) &&
    !reviewForSelectedCreated &&
    !declinedOrExpired &&
    !parentAlreadyPublished;
  const shouldDeleteReview = community === undefined && canDeleteReview(status);

  return {
    selectedCommunity: community,
    status,
    parentAlreadyPublished,
    reviewForSelectedCreated,
    declinedOrExpired,
    isGhost,
    ui: {
      showDirectPublishButton:
        community !== undefined &&
        !publishedOrNewVersion &&
        community.ui?.permissions?.can_include_directly === true,
      showSubmitForReviewButton,
      disableSubmitForReviewButton:
        showSubmitForReviewButton &&
        (status === 'published' || status === 'in_review' || declinedOrExpired),
      showChangeCommunityButton: declinedOrExpired && versionIndex === 1,
      requireDeletionForDeclinedDraft: declinedOrExpired && versionIndex !== 1,
      showCommunitySelectionButton,
      disableCommunitySelectionButton:
        showCommunitySelectionButton &&
        (declinedOrExpired ||
          ((status === 'published' || status === 'in_review') &&
            !publishedWithoutResolvedCommunity)),
      showCommunityHeader: !(
        publishedOrNewVersion &&
        (!hasParentCommunities || community === undefined || isGhost)
      ),
    },
    actions: {
      shouldUpdateReview,
      shouldDeleteReview,
      communityStateMustBeChecked: shouldUpdateReview || shouldDeleteReview,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Buttons by state and when they are disabled

/**
 * The publish area of the sidebar: submit for review (with "Publish to community" beside it when
 * direct inclusion is allowed), change community plus publish without community (declined or
 * expired review of a first version), or plain publish.
 */
export type PublishArea = 'submit-review' | 'change-community' | 'publish';

export interface EditorButtons {
  publishArea: PublishArea;
  /** The submit button's label once in review: "Submitted for review". */
  submitLabel: 'submit-review' | 'submitted-for-review';
  showDirectPublish: boolean;
  /** Which delete confirmation applies, each with its own "Are you sure…" wording. */
  deleteKind: DeleteKind;
}

/**
 * `discard-changes`: a draft of a published record; `discard-version`: a version after the first;
 * `delete`: a first draft.
 */
export type DeleteKind = 'delete' | 'discard-version' | 'discard-changes';

export function deleteKindOf(record: DraftRecordInfo): DeleteKind {
  if (record.is_published) return 'discard-changes';
  if (hasParentVersion(record)) return 'discard-version';
  return 'delete';
}

/** Which buttons the editor shows for `state`. */
export function editorButtonsOf(record: DraftRecordInfo, state: DepositEditorState): EditorButtons {
  let publishArea: PublishArea = 'publish';
  if (state.ui.showChangeCommunityButton) publishArea = 'change-community';
  else if (state.ui.showSubmitForReviewButton) publishArea = 'submit-review';
  return {
    publishArea,
    submitLabel: state.status === 'in_review' ? 'submitted-for-review' : 'submit-review',
    showDirectPublish: publishArea === 'submit-review' && state.ui.showDirectPublishButton,
    deleteKind: deleteKindOf(record),
  };
}

/** What the file rules of button enablement read. */
export interface FilesProgress {
  /** `files.enabled` of the form. */
  enabled: boolean;
  /** Number of file entries, finished or not. */
  count: number;
  /** Whether every entry has finished uploading. */
  allFinished: boolean;
}

/** Files enabled but none, or a file not finished: nothing can be published yet. */
function filesBlock(files: FilesProgress): boolean {
  return (files.enabled && files.count === 0) || !files.allFinished;
}

/** Publish is disabled while submitting or under the file rules (see `filesBlock`). */
export function isPublishDisabled(input: { isSubmitting: boolean; files: FilesProgress }): boolean {
  return input.isSubmitting || filesBlock(input.files);
}

/**
 * Submit-for-review is disabled on an existing record the user cannot manage, when the editor state
 * disables it, while submitting, or under the file rules (see `filesBlock`).
 */
export function isSubmitReviewDisabled(input: {
  recordExists: boolean;
  canManage: boolean;
  state: DepositEditorState;
  isSubmitting: boolean;
  files: FilesProgress;
}): boolean {
  return (
    (input.recordExists && !input.canManage) ||
    input.state.ui.disableSubmitForReviewButton ||
    input.isSubmitting ||
    filesBlock(input.files)
  );
}

// ---------------------------------------------------------------------------------------------
// Review rules: in which statuses a review may be changed, removed or submitted

/** A review can be deleted in these statuses. */
export function canDeleteReview(status: string): boolean {
  return ['draft_with_review', 'declined', 'expired'].includes(status);
}

/** A review can be created or updated in these statuses. */
export function canUpdateReview(status: string): boolean {
  return ['draft_with_review', 'declined', 'expired', 'draft'].includes(status);
}

/** Submit-for-review is disallowed for published, in-review and new-version drafts. */
export function canSubmitReview(status: string): boolean {
  return !['published', 'in_review', 'new_version_draft'].includes(status);
}

/**
 * Choosing a restricted community turns a public record into restricted for record and files
 * (the embargo goes, as it needs a public record). Anything else is kept as it is.
 */
export function accessForCommunity(access: Access, community: DepositCommunity): Access {
  if (community.access?.visibility !== 'restricted' || access.record !== 'public') return access;
  return { record: 'restricted', files: 'restricted', embargo: { active: false } };
}

// ---------------------------------------------------------------------------------------------
// Access: the grace period for restricting a published record (InvenioRDM's
// RDM_RECORDS_RESTRICTION_GRACE_PERIOD)

/**
 * Whether "Restricted" is disabled for the full record: restriction after the grace period not
 * allowed, the record published, not already restricted as stored, and created longer ago than
 * the grace period. The tooltip asks the person to contact support; the server checks it on save.
 */
export function isRestrictionBlockedByGracePeriod(input: {
  isPublished: boolean;
  /** The record's creation time (ISO), once saved. */
  created: string | undefined;
  /** `access.record` as the server last stored it. */
  storedRecordAccess: string | undefined;
  gracePeriodDays: number;
  allowRestrictionAfterGracePeriod: boolean;
  now: Date;
}): boolean {
  if (input.allowRestrictionAfterGracePeriod || !input.created || !input.isPublished) return false;
  if (input.storedRecordAccess === 'restricted') return false;
  const created = Date.parse(input.created);
  if (Number.isNaN(created)) return false;
  return created + input.gracePeriodDays * 86_400_000 < input.now.getTime();
}

// ---------------------------------------------------------------------------------------------
// PIDs

/** PID providers that are not managed by Cairn; every other provider is. */
export const UNMANAGED_PID_PROVIDERS = Object.freeze([EXTERNAL_PID_PROVIDER, 'not_needed']);

/** Whether a PID's provider is managed (any provider but `external` and `not_needed`). */
export function isManagedProvider(provider: string): boolean {
  return provider !== '' && !UNMANAGED_PID_PROVIDERS.includes(provider);
}

/**
 * Which DOI a new version may take where DOIs are optional: `managed` (only one reserved here)
 * after a version whose own DOI is managed, `unmanaged` (an external DOI or none) after one with
 * an external DOI or none. The previous version's own DOI decides, so that a chain of versions
 * never mixes DOIs registered here with others.
 */
export type DoiTransition = 'managed' | 'unmanaged';

/** The {@link DoiTransition} that follows a published version whose DOI is `previousDoi`. */
export function doiTransitionAfter(
  previousDoi: { provider: string } | undefined | null,
): DoiTransition {
  return previousDoi && isManagedProvider(previousDoi.provider) ? 'managed' : 'unmanaged';
}

/** Whether a new version's `doi` keeps to `transition` (no DOI counts as unmanaged). */
export function keepsDoiTransition(
  transition: DoiTransition,
  doi: { provider: string } | undefined | null,
): boolean {
  const managed = Boolean(doi && isManagedProvider(doi.provider));
  return transition === 'managed' ? managed : !managed;
}

/**
 * The DOI check before publish or submit: when configuration does not require a DOI, the person
 * chose that they need one (a managed DOI), and none is reserved, the action is blocked and
 * `pids.doi` shows "DOI is needed…" with the action's wording. Answers the action whose message
 * applies, or undefined when nothing blocks.
 */
export function doiNeededFor(
  action: 'publish' | 'submit-review',
  input: {
    isDoiRequired: boolean;
    pids: Readonly<Record<string, PidFormValues>>;
    /** The person's answer to "Do you need a DOI?" when the DOI widget reported one. */
    userNeedsDoi?: boolean;
  },
): 'publish' | 'submit-review' | undefined {
  if (input.isDoiRequired) return undefined;
  const doi = input.pids['doi'];
  const needsDoi = input.userNeedsDoi ?? (doi !== undefined && isManagedProvider(doi.provider));
  return needsDoi && !doi?.identifier ? action : undefined;
}
