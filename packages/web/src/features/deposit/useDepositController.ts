import {
  computeDepositState,
  deserializeDraft,
  emptyRowErrors,
  doiNeededFor,
  hasBlockingErrors,
  readRecordInfo,
  serializeDraft,
  type DepositCommunity,
  type ServerFieldError,
} from '@cairn/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, serverMessageOf } from '../../api/client';
import type { RecordJson } from '../../api/records';
import { useBootstrap } from '../../bootstrap';
import { browser } from '../../browser';
import { actionStateReducer, createInitialActionState, type DepositAction } from './action-state';
import { draftKeys, useDepositApi, type ReviewComment, type SubmitReviewOptions } from './api';
import type {
  DepositController,
  SaveConflict,
  UseDepositControllerOptions,
} from './deposit-controller';
import { asFormValues, snapshotValues, useSerializerOptions } from './draft-values';
import { applyFieldErrors } from './field-errors';

/** Least time between two re-reads of the draft while its files keep changing. */
export const REFRESH_GAP_MS = 1000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Thrown inside an action when it must stop; the outcome was already dispatched. */
class ActionStopped extends Error {
  override readonly name = 'ActionStopped';
}

/**
 * Every action of the deposit editor that calls the server, as one state machine. Publish and
 * submit first save, stop on errors of severity error, then call the server, then navigate. The form's values are never replaced by a server answer: a
 * partial save drops invalid values on the server, and the person must still see what they typed
 * to correct it (InvenioRDM's form keeps them for the same reason).
 */
export function useDepositController({
  initialDraft,
  form,
  onCreated,
  onSaved,
}: UseDepositControllerOptions): DepositController {
  const { t } = useTranslation();
  const { config } = useBootstrap();
  const api = useDepositApi();
  const queryClient = useQueryClient();
  const serializerOptions = useSerializerOptions();
  const { clearErrors, getValues, setError, setValue, reset, resetDefaultValues } = form;

  const [draft, setDraft] = useState(initialDraft);
  // The draft for the next request: state lags a render behind inside one action.
  const draftRef = useRef(initialDraft);
  const [actionState, dispatch] = useReducer(
    actionStateReducer,
    initialDraft?.errors ?? [],
    createInitialActionState,
  );
  const runningRef = useRef(false);
  /** The re-read after a change of the files on its way, and whether another is wanted. */
  const refreshingRef = useRef<Promise<void> | null>(null);
  const refreshWantedRef = useRef(false);
  const [selectedCommunity, setSelectedCommunity] = useState<DepositCommunity | null | undefined>(
    undefined,
  );
  const selectedRef = useRef<DepositCommunity | null | undefined>(undefined);
  const [conflict, setConflict] = useState<SaveConflict | null>(null);
  const needsDoiRef = useRef<boolean | undefined>(undefined);
  const leavingRef = useRef(false);
  const autosavingRef = useRef<Promise<boolean> | null>(null);

  /**
   * Lets an autosave on its way finish first: an action the person starts then runs after it
   * (on the draft it may just have created) instead of being refused as a second action.
   */
  async function afterAutosave() {
    if (autosavingRef.current) await autosavingRef.current;
  }

  /** The page an action ends on, loaded in full; the form does not ask before it goes. */
  function leaveFor(url: string) {
    leavingRef.current = true;
    browser.assign(url);
  }

  const serializeValues = useCallback(
    () => serializeDraft(getValues(), draftRef.current, serializerOptions),
    [getValues, serializerOptions],
  );
  // The form was just filled from the draft, or with a new upload's defaults: what it holds
  // counts as saved, so that only a change of the person's is an unsaved edit (and the first
  // one of a new upload creates its draft).
  const [initialPayload] = useState(() =>
    JSON.stringify(serializeDraft(getValues(), initialDraft, serializerOptions)),
  );
  const lastSavedRef = useRef<string>(initialPayload);

  const record = useMemo(() => readRecordInfo(draft ?? {}), [draft]);
  const editorState = useMemo(
    () => computeDepositState(record, selectedCommunity),
    [record, selectedCommunity],
  );

  function keep(next: RecordJson) {
    draftRef.current = next;
    setDraft(next);
    queryClient.setQueryData(draftKeys.detail(next.id), next);
  }

  /**
   * Saves the form, then brings the review in line with the chosen community (a review is
   * created, moved or deleted to match it) and re-reads the draft. Throws the request's error.
   */
  async function saveDraft(
    options: { quiet?: boolean; again?: boolean } = {},
  ): Promise<RecordJson> {
    if (!options.quiet) clearErrors();
    const base = draftRef.current;
    const payload = serializeValues();
    // The form's values as saved: its default values once the save went through (below).
    const savedValues = snapshotValues(getValues());
    // Rows added and left empty, which the server reads as absent: flagged like a row missing a
    // required value, so they neither vanish unnoticed nor let the draft pass as complete.
    const emptyRows = emptyRowErrors(getValues('metadata'));
    let saved: RecordJson;
    try {
      saved = await api.save(payload, base);
      if (emptyRows.length > 0)
        saved = {
          ...saved,
          errors: [...(saved.errors ?? []), ...emptyRows.map((e) => ({ ...e }))],
        };
    } catch (error) {
      if (isConflict(error) && base) {
        const theirs = await api.read(base).catch(() => null);
        // Files uploaded meanwhile raise the revision too: a change to nothing the form holds
        // is no conflict, and the save goes again on the revision just read (once).
        if (theirs && !options.again && sameFormContent(base, theirs)) {
          keep({ ...base, revision_id: theirs.revision_id, files: theirs.files });
          return saveDraft({ ...options, again: true });
        }
        if (theirs) setConflict({ mine: payload, theirs });
      }
      throw error;
    }
    const errors = saved.errors ?? [];
    keep(saved);
    lastSavedRef.current = JSON.stringify(payload);
    // React Hook Form compares the form with its default values: once a field is typed back to
    // its default while any other differs, it walks every field of the form to mark the dirty
    // ones (tens of milliseconds in one keystroke with thousands of creators, after an import).
    // With the defaults following each save, that walk only happens while an edit is unsaved.
    // The dirty flags themselves are not recomputed: nothing here reads them (whether the form
    // is saved is judged against the last saved payload), and they would cost that same walk.
    resetDefaultValues(savedValues, { keepDirty: true, keepIsValid: true });
    if (!base) {
      if (saved.links.self_html) browser.replaceUrl(saved.links.self_html);
      onCreated?.(saved);
    }
    const savedRecord = readRecordInfo(saved);
    const state = computeDepositState(savedRecord, selectedRef.current);
    if (state.actions.communityStateMustBeChecked) {
      if (state.actions.shouldDeleteReview) await api.deleteReview(saved);
      if (state.actions.shouldUpdateReview && state.selectedCommunity) {
        await api.putReview(saved, state.selectedCommunity.id);
      }
      // The review changes the status and revision; the save's feedback still holds.
      const reread = await api.read(saved);
      keep({ ...reread, ...(errors.length > 0 ? { errors } : {}) });
      selectedRef.current = undefined;
      setSelectedCommunity(undefined);
    }
    if (!options.quiet) applyFieldErrors(setError, errors);
    onSaved?.(draftRef.current ?? saved, payload);
    return draftRef.current ?? saved;
  }

  function begin(action: DepositAction): boolean {
    // A second click before the busy state has rendered must not start a second action.
    if (runningRef.current) return false;
    runningRef.current = true;
    dispatch({ type: 'started', action });
    return true;
  }

  function fail(action: DepositAction, error: unknown) {
    runningRef.current = false;
    if (!(error instanceof ApiError)) console.error(error);
    const errors = error instanceof ApiError ? (error.errors ?? []) : [];
    applyFieldErrors(setError, errors);
    // A conflict is explained in the banner and resolved in its dialog.
    const serverMessage = isConflict(error)
      ? t('deposit.feedback.conflict')
      : serverMessageOf(error);
    dispatch({ type: 'failed', action, errors, ...(serverMessage ? { serverMessage } : {}) });
  }

  function succeed(action: DepositAction, errors: readonly ServerFieldError[] = []) {
    runningRef.current = false;
    dispatch({ type: 'succeeded', action, errors });
  }

  function stopWithValidation(action: DepositAction, errors: readonly ServerFieldError[]): never {
    runningRef.current = false;
    dispatch({ type: 'validation-failed', action, errors });
    throw new ActionStopped();
  }

  /** Saves as the first step of `action`; stops it on a failed save. */
  async function saveFor(action: DepositAction): Promise<RecordJson> {
    try {
      return await saveDraft();
    } catch (error) {
      fail(action, error);
      throw new ActionStopped();
    }
  }

  /** Runs the server call of `action` after a save; the save's field errors stop it. */
  async function saveThen(
    action: DepositAction,
    gate: 'errors' | 'none',
    call: (saved: RecordJson) => Promise<void> | void,
  ): Promise<boolean> {
    await afterAutosave();
    if (!begin(action)) return false;
    try {
      const saved = await saveFor(action);
      if (gate === 'errors') {
        const errors = saved.errors ?? [];
        if (hasBlockingErrors(errors)) stopWithValidation(action, errors);
        const doiAction = action === 'submit-review' ? 'submit-review' : 'publish';
        const doiNeeded = doiNeededFor(doiAction, {
          isDoiRequired: config.isDoiRequired,
          pids: getValues().pids,
          ...(needsDoiRef.current === undefined ? {} : { userNeedsDoi: needsDoiRef.current }),
        });
        if (doiNeeded && action !== 'preview') {
          const message = t(
            doiNeeded === 'publish'
              ? 'depositPids.doiNeededPublish'
              : 'depositPids.doiNeededSubmit',
          );
          setError('pids.doi', { type: 'server', message });
          stopWithValidation(action, [{ field: 'pids.doi', messages: [message] }]);
        }
      }
      await call(saved);
      return true;
    } catch (error) {
      if (error instanceof ActionStopped) return false;
      // The save succeeded: field errors of the call are validation feedback of this action.
      const errors = error instanceof ApiError ? (error.errors ?? []) : [];
      if (errors.length > 0) {
        applyFieldErrors(setError, errors);
        runningRef.current = false;
        dispatch({ type: 'validation-failed', action, errors });
        return false;
      }
      fail(action, error);
      return false;
    }
  }

  const save = async () => {
    await afterAutosave();
    if (!begin('save')) return;
    try {
      const saved = await saveDraft();
      succeed('save', saved.errors ?? []);
    } catch (error) {
      fail('save', error);
    }
  };

  async function publishAction(action: 'publish' | 'publish-without-community') {
    await saveThen(action, 'errors', async (saved) => {
      const published = await api.publish(saved);
      queryClient.removeQueries({ queryKey: draftKeys.detail(published.id) });
      // Stays busy until the record page has loaded, so the draft cannot be published twice.
      leaveFor(published.links.self_html ?? `/records/${encodeURIComponent(published.id)}`);
    });
  }

  const publish = () => publishAction('publish');

  const publishWithoutCommunity = async () => {
    // Publishing without a community first clears the selected community: the save then deletes
    // the review.
    selectedRef.current = null;
    setSelectedCommunity(null);
    await publishAction('publish-without-community');
  };

  const preview = async () => {
    await saveThen('preview', 'errors', (saved) => {
      runningRef.current = false;
      dispatch({ type: 'succeeded', action: 'preview' });
      const base = saved.links.record_html ?? `/records/${encodeURIComponent(saved.id)}`;
      leaveFor(`${base}?preview=1`);
    });
  };

  const remove = async () => {
    await afterAutosave();
    const current = draftRef.current;
    if (!current || !begin('delete')) return;
    try {
      await api.remove(current);
      queryClient.removeQueries({ queryKey: draftKeys.detail(current.id) });
      leaveFor(config.dashboardUploadsRoute);
    } catch (error) {
      fail('delete', error);
    }
  };

  const submitReview = (comment: ReviewComment, options?: SubmitReviewOptions) =>
    saveThen('submit-review', 'errors', async (saved) => {
      const request = await api.submitReview(saved, comment, options);
      const next = request.links.next_html;
      leaveFor(next ?? saved.links.self_html ?? `/uploads/${saved.id}`);
    });

  async function pidAction(action: 'reserve-pid' | 'discard-pid', scheme: string) {
    await saveThen(action, 'none', async (saved) => {
      const updated =
        action === 'reserve-pid'
          ? await api.reservePid(saved, scheme)
          : await api.discardPid(saved, scheme);
      keep(updated);
      // The reserved identifier is the server's: the form shows it from now on.
      const pid = (updated.pids ?? {})[scheme] as
        { identifier?: string; provider?: string } | undefined;
      const pids = { ...getValues().pids };
      if (pid?.provider)
        pids[scheme] = { identifier: pid.identifier ?? '', provider: pid.provider };
      else delete pids[scheme];
      setValue('pids', pids, { shouldDirty: false });
      succeed(action, saved.errors ?? []);
    });
  }

  const newVersion = async () => {
    await afterAutosave();
    const current = draftRef.current;
    if (!current || !begin('new-version')) return;
    try {
      const created = await api.newVersion(current);
      leaveFor(created.links.self_html ?? `/uploads/${encodeURIComponent(created.id)}`);
    } catch (error) {
      fail('new-version', error);
    }
  };

  const ensureDraft = async (): Promise<RecordJson> => {
    await afterAutosave();
    const current = draftRef.current;
    if (current && current.files?.enabled === getValues('files.enabled')) return current;
    if (!begin('save-before-upload')) throw new Error('Another action is running.');
    try {
      const saved = await saveDraft();
      succeed('save-before-upload', saved.errors ?? []);
      return saved;
    } catch (error) {
      fail('save-before-upload', error);
      throw error;
    }
  };

  /**
   * Re-reads the draft after its files changed. Changes that come while a read is on its way are
   * answered by one more read after it, not one each: 10,000 files sent at once change the draft
   * 20,000 times, and each read re-renders the whole form. Every caller's promise settles after a
   * read that started after its call.
   */
  const refreshAfterFileChange = (): Promise<void> => {
    // Before the first save there is nothing to re-read. Checked here, not in the loop: a loop
    // ending before its first await would reset `refreshingRef` before it is even set, and no
    // read would ever start again.
    if (!draftRef.current) return Promise.resolve();
    refreshWantedRef.current = true;
    refreshingRef.current ??= (async () => {
      let failure: { error: unknown } | null = null;
      try {
        while (refreshWantedRef.current) {
          refreshWantedRef.current = false;
          const current = draftRef.current;
          if (!current) break;
          // A failed read does not end the loop: the changes made during it still get their read
          // (it also answers for the failed one). Only the last read's failure is reported.
          try {
            const fresh = await api.read(current);
            failure = null;
            const latest = draftRef.current;
            // Only the revision and files move on: the form's values and feedback stay as they are.
            if (latest && (latest.revision_id ?? 0) < (fresh.revision_id ?? 0)) {
              keep({
                ...latest,
                ...(fresh.revision_id === undefined ? {} : { revision_id: fresh.revision_id }),
                ...(fresh.files ? { files: fresh.files } : {}),
              });
            }
          } catch (error) {
            failure = { error };
          }
          // While files keep changing (a folder uploading), a read at most every so often: each
          // one re-renders the whole form, and back to back they took most of the page's time.
          if (refreshWantedRef.current) await delay(REFRESH_GAP_MS);
        }
      } finally {
        refreshingRef.current = null;
      }
      if (failure) throw failure.error;
    })();
    return refreshingRef.current;
  };

  // Also creates a new upload's draft: an upload someone started is found in My uploads.
  const autosave = async (): Promise<boolean> => {
    if (runningRef.current || conflict) return false;
    runningRef.current = true;
    const saving = (async () => {
      try {
        await saveDraft({ quiet: true });
        return true;
      } catch {
        // A failed autosave is retried on the next pause; the journal holds the edits meanwhile.
        return false;
      } finally {
        runningRef.current = false;
        autosavingRef.current = null;
      }
    })();
    autosavingRef.current = saving;
    return saving;
  };

  const keepMine = async () => {
    if (!conflict) return;
    // The person chose their version knowingly: it is saved on the revision they have now seen.
    keep(conflict.theirs);
    setConflict(null);
    await save();
  };

  const takeTheirs = () => {
    if (!conflict) return;
    keep(conflict.theirs);
    const values = asFormValues(deserializeDraft(conflict.theirs, serializerOptions).values);
    reset(values);
    lastSavedRef.current = JSON.stringify(
      serializeDraft(values, conflict.theirs, serializerOptions),
    );
    setConflict(null);
    dispatch({ type: 'dismissed' });
  };

  // The access panel restricts the record for a restricted community, which may hold restricted
  // records only.
  const selectCommunity = (community: DepositCommunity | null) => {
    selectedRef.current = community;
    setSelectedCommunity(community);
  };

  return {
    draft,
    record,
    actionState,
    dismissFeedback: () => dispatch({ type: 'dismissed' }),
    selectedCommunity,
    selectCommunity,
    editorState,
    save,
    publish,
    publishWithoutCommunity,
    preview,
    remove,
    submitReview,
    reservePid: (scheme) => pidAction('reserve-pid', scheme),
    discardPid: (scheme) => pidAction('discard-pid', scheme),
    newVersion,
    ensureDraft,
    refreshAfterFileChange,
    reportImportFailed: (error) => fail('import-files', error),
    autosave,
    conflict,
    keepMine,
    takeTheirs,
    setNeedsDoi: (needsDoi) => {
      needsDoiRef.current = needsDoi;
    },
    isLeaving: () => leavingRef.current,
    lastSavedPayload: () => lastSavedRef.current,
    serializeValues,
  };
}

/** Whether two answers for a draft agree on all the form saves: its metadata, access and so on. */
function sameFormContent(a: RecordJson, b: RecordJson): boolean {
  const content = (r: RecordJson) =>
    JSON.stringify([
      r.metadata,
      r.access,
      r.custom_fields,
      r.pids,
      r.files?.enabled,
      r.files?.default_preview,
    ]);
  return content(a) === content(b);
}

function isConflict(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'REVISION_MISMATCH';
}
