/**
 * What the deposit editor's controller offers the form (actions, their state, the draft) and what
 * it is built from. Separate from useDepositController.ts, which holds how each action runs: the
 * form's parts (leave guard, draft safety, conflict dialog) depend on this contract only.
 */
import type {
  computeDepositState,
  DepositCommunity,
  DepositFormValues,
  DraftPayload,
  DraftRecordInfo,
} from '@cairn/shared';
import type { UseFormReturn } from 'react-hook-form';
import type { RecordJson } from '../../api/records';
import type { ActionState } from './action-state';
import type { ReviewComment, SubmitReviewOptions } from './api';

/** A save refused because the draft changed elsewhere (HTTP 412): both versions, to choose. */
export interface SaveConflict {
  /** What this tab would have saved. */
  mine: DraftPayload;
  /** The draft as the server holds it now. */
  theirs: RecordJson;
}

export interface DepositController {
  /** The draft as the server last returned it; null before the first save. */
  draft: RecordJson | null;
  record: DraftRecordInfo;
  actionState: ActionState;
  dismissFeedback: () => void;
  /** `undefined`: the record's; `null`: removed by the person; else newly chosen. */
  selectedCommunity: DepositCommunity | null | undefined;
  selectCommunity: (community: DepositCommunity | null) => void;
  editorState: ReturnType<typeof computeDepositState>;
  save: () => Promise<void>;
  publish: () => Promise<void>;
  publishWithoutCommunity: () => Promise<void>;
  preview: () => Promise<void>;
  remove: () => Promise<void>;
  /** Saves, submits the review with the message, and goes where the server says. */
  submitReview: (comment: ReviewComment, options?: SubmitReviewOptions) => Promise<boolean>;
  reservePid: (scheme: string) => Promise<void>;
  discardPid: (scheme: string) => Promise<void>;
  newVersion: () => Promise<void>;
  /**
   * Saves first when the draft has no id yet or its `files.enabled` differs from the form (file
   * uploads need both right), and returns the saved draft.
   */
  ensureDraft: () => Promise<RecordJson>;
  /** Files changed on the server (which raises the revision): re-reads the draft's revision. */
  refreshAfterFileChange: () => Promise<void>;
  /**
   * The uploader's import from the previous version failed: the banner says so. The
   * uploader makes the import call itself, as its entries follow the answer.
   */
  reportImportFailed: (error: unknown) => void;
  /** A quiet save for autosave: no banner, no field errors; resolves false when it did not run. */
  autosave: () => Promise<boolean>;
  conflict: SaveConflict | null;
  /** Keep this tab's version: saved again on the server's current revision. */
  keepMine: () => Promise<void>;
  /** Take the server's version: the form is filled from it. */
  takeTheirs: () => void;
  /** The DOI widget's answer to "Do you need a DOI?", which the check before publishing reads. */
  setNeedsDoi: (needsDoi: boolean) => void;
  /** True once an action is taking the person to another page on purpose (publish, delete…). */
  isLeaving: () => boolean;
  /** The payload last saved (or loaded): what autosave compares against. */
  lastSavedPayload: () => string;
  serializeValues: () => DraftPayload;
}

export interface UseDepositControllerOptions {
  initialDraft: RecordJson | null;
  form: UseFormReturn<DepositFormValues>;
  /** Called once the first save has created the draft. */
  onCreated?: (draft: RecordJson) => void;
  /** Called after every save that reached the server (the journal forgets saved edits). */
  onSaved?: (draft: RecordJson, payload: DraftPayload) => void;
}
