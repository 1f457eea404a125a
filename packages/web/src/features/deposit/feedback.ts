import { hasBlockingErrors, type ServerFieldError } from '@cairn/shared';
import type { ActionOutcome, DepositAction } from './action-state';

/** The banner's severities. */
export type FeedbackSeverity = 'positive' | 'warning' | 'negative';

/** The banner texts (i18n `deposit.feedback.<key>`). */
export type FeedbackTextKey =
  | 'saved'
  | 'savedWithFeedback'
  | 'loadedWithFeedback'
  | 'saveFailed'
  | 'publishFailed'
  | 'publishBlocked'
  | 'submitReviewFailed'
  | 'submitReviewBlocked'
  | 'deleteFailed'
  | 'previewFailed'
  | 'previewBlocked'
  | 'reservePidFailed'
  | 'discardPidFailed'
  | 'saveBeforeUploadFailed'
  | 'importFilesFailed'
  | 'newVersionFailed'
  | 'unknown';

export interface Feedback {
  severity: FeedbackSeverity;
  /**
   * How the banner looks: `info` (suggestive) when there are no errors or only non-error
   * severities, else the severity's style; `warning` for a state the banner does not know.
   */
  tone: 'info' | FeedbackSeverity;
  textKey: FeedbackTextKey;
  /** A server message or schema error that replaces the default text. */
  text?: string;
  /** Whether the sections with their error counts follow the text ("…feedback in"). */
  listsSections: boolean;
  errors: readonly ServerFieldError[];
}

type Entry = readonly [FeedbackSeverity, FeedbackTextKey];

/** The banner's severity and text for each action state, by action and outcome. */
const TABLE: Partial<
  Record<DepositAction | 'load', Partial<Record<ActionOutcome['kind'], Entry>>>
> = {
  load: { 'validation-failed': ['warning', 'loadedWithFeedback'] },
  save: {
    succeeded: ['positive', 'saved'],
    'validation-failed': ['warning', 'savedWithFeedback'],
    failed: ['negative', 'saveFailed'],
  },
  publish: {
    'validation-failed': ['warning', 'publishBlocked'],
    failed: ['negative', 'publishFailed'],
  },
  'publish-without-community': {
    'validation-failed': ['warning', 'publishBlocked'],
    failed: ['negative', 'publishFailed'],
  },
  'submit-review': {
    'validation-failed': ['warning', 'submitReviewBlocked'],
    failed: ['negative', 'submitReviewFailed'],
  },
  preview: {
    'validation-failed': ['warning', 'previewBlocked'],
    failed: ['negative', 'previewFailed'],
  },
  delete: { failed: ['negative', 'deleteFailed'] },
  'reserve-pid': {
    'validation-failed': ['warning', 'savedWithFeedback'],
    failed: ['negative', 'reservePidFailed'],
  },
  'discard-pid': {
    'validation-failed': ['warning', 'savedWithFeedback'],
    failed: ['negative', 'discardPidFailed'],
  },
  'save-before-upload': {
    'validation-failed': ['warning', 'savedWithFeedback'],
    failed: ['negative', 'saveBeforeUploadFailed'],
  },
  'import-files': { failed: ['negative', 'importFilesFailed'] },
  'new-version': { failed: ['negative', 'newVersionFailed'] },
};

/**
 * Outcomes that end quietly: the page navigates away (publish, preview, delete, submit, new
 * version) or the widget shows the result itself (a reserved DOI, imported files).
 */
const QUIET: readonly string[] = [
  'publish:succeeded',
  'publish-without-community:succeeded',
  'submit-review:succeeded',
  'preview:succeeded',
  'delete:succeeded',
  'new-version:succeeded',
  'reserve-pid:succeeded',
  'discard-pid:succeeded',
  'save-before-upload:succeeded',
  'import-files:succeeded',
];

/** What the banner shows for the last outcome, or null for none. */
export function describeFeedback(outcome: ActionOutcome | null): Feedback | null {
  if (!outcome) return null;
  if (QUIET.includes(`${outcome.action}:${outcome.kind}`)) return null;
  const entry = TABLE[outcome.action]?.[outcome.kind];
  if (!entry) {
    return {
      severity: 'warning',
      tone: 'warning',
      textKey: 'unknown',
      ...(outcome.serverMessage ? { text: outcome.serverMessage } : {}),
      listsSections: false,
      errors: outcome.errors,
    };
  }
  const [severity, textKey] = entry;
  const schemaError = outcome.errors.find((error) => error.field === '_schema');
  const replacement =
    outcome.kind === 'failed'
      ? (schemaError?.messages.join(' ') ??
        (outcome.errors.length === 0 ? outcome.serverMessage : undefined))
      : undefined;
  const isFailure = outcome.kind === 'failed';
  return {
    severity,
    tone: !isFailure && !hasBlockingErrors(outcome.errors) ? 'info' : severity,
    textKey,
    ...(replacement ? { text: replacement } : {}),
    listsSections: outcome.kind === 'validation-failed',
    errors: outcome.errors,
  };
}
