import { describe, expect, it } from 'vitest';
import {
  actionStateReducer,
  createInitialActionState,
  isRunning,
  isSubmitting,
  type ActionState,
} from './action-state';
import { describeFeedback } from './feedback';

const titleError = { field: 'metadata.title', messages: ['Missing data for required field.'] };
const hint = { field: 'metadata.description', messages: ['Add one.'], severity: 'info' };

describe('actionStateReducer', () => {
  it('starts idle without an outcome for a clean draft', () => {
    expect(createInitialActionState()).toEqual({ running: null, last: null });
  });

  it('reports feedback stored with a loaded draft', () => {
    expect(createInitialActionState([titleError]).last).toEqual({
      action: 'load',
      kind: 'validation-failed',
      errors: [titleError],
    });
  });

  it('marks the running action and clears the previous banner', () => {
    const saved: ActionState = {
      running: null,
      last: { action: 'save', kind: 'succeeded', errors: [] },
    };
    const started = actionStateReducer(saved, { type: 'started', action: 'publish' });
    expect(started).toEqual({ running: 'publish', last: null });
    expect(isSubmitting(started)).toBe(true);
    expect(isRunning(started, 'publish')).toBe(true);
    expect(isRunning(started, 'save')).toBe(false);
  });

  it('ignores a second action while one is running', () => {
    const saving: ActionState = { running: 'save', last: null };
    expect(actionStateReducer(saving, { type: 'started', action: 'publish' })).toBe(saving);
  });

  it('ends a save as saved, or saved with validation feedback', () => {
    const saving: ActionState = { running: 'save', last: null };
    expect(actionStateReducer(saving, { type: 'succeeded', action: 'save' }).last?.kind).toBe(
      'succeeded',
    );
    expect(
      actionStateReducer(saving, { type: 'succeeded', action: 'save', errors: [titleError] }).last,
    ).toEqual({ action: 'save', kind: 'validation-failed', errors: [titleError] });
  });

  it('keeps the server message of a failure', () => {
    const state = actionStateReducer(
      { running: 'delete', last: null },
      { type: 'failed', action: 'delete', serverMessage: 'Gone.' },
    );
    expect(state).toEqual({
      running: null,
      last: { action: 'delete', kind: 'failed', errors: [], serverMessage: 'Gone.' },
    });
  });

  it('dismisses the banner without touching the running action', () => {
    const state: ActionState = {
      running: null,
      last: { action: 'save', kind: 'failed', errors: [] },
    };
    expect(actionStateReducer(state, { type: 'dismissed' })).toEqual({ running: null, last: null });
  });
});

describe('describeFeedback', () => {
  it.each([
    ['save', 'succeeded', 'positive', 'saved'],
    ['save', 'failed', 'negative', 'saveFailed'],
    ['publish', 'failed', 'negative', 'publishFailed'],
    ['publish', 'validation-failed', 'warning', 'publishBlocked'],
    ['publish-without-community', 'validation-failed', 'warning', 'publishBlocked'],
    ['submit-review', 'failed', 'negative', 'submitReviewFailed'],
    ['submit-review', 'validation-failed', 'warning', 'submitReviewBlocked'],
    ['delete', 'failed', 'negative', 'deleteFailed'],
    ['preview', 'failed', 'negative', 'previewFailed'],
    ['reserve-pid', 'failed', 'negative', 'reservePidFailed'],
    ['discard-pid', 'failed', 'negative', 'discardPidFailed'],
    ['save-before-upload', 'failed', 'negative', 'saveBeforeUploadFailed'],
    ['import-files', 'failed', 'negative', 'importFilesFailed'],
    ['load', 'validation-failed', 'warning', 'loadedWithFeedback'],
    ['save', 'validation-failed', 'warning', 'savedWithFeedback'],
  ] as const)('%s %s → %s %s', (action, kind, severity, textKey) => {
    const errors = kind === 'validation-failed' ? [titleError] : [];
    expect(describeFeedback({ action, kind, errors })).toMatchObject({ severity, textKey });
  });

  it('shows success and hint-only feedback in the suggestive info style', () => {
    expect(describeFeedback({ action: 'save', kind: 'succeeded', errors: [] })?.tone).toBe('info');
    expect(
      describeFeedback({ action: 'save', kind: 'validation-failed', errors: [hint] })?.tone,
    ).toBe('info');
    expect(
      describeFeedback({ action: 'save', kind: 'validation-failed', errors: [titleError] })?.tone,
    ).toBe('warning');
  });

  it('lets a server message or a schema error replace the default text of a failure', () => {
    expect(
      describeFeedback({ action: 'save', kind: 'failed', errors: [], serverMessage: 'Nope.' })
        ?.text,
    ).toBe('Nope.');
    expect(
      describeFeedback({
        action: 'publish',
        kind: 'failed',
        errors: [{ field: '_schema', messages: ['Record visibility can not be changed.'] }],
      })?.text,
    ).toBe('Record visibility can not be changed.');
    expect(describeFeedback({ action: 'save', kind: 'failed', errors: [] })?.text).toBeUndefined();
  });

  it('shows nothing for outcomes that navigate away', () => {
    expect(describeFeedback({ action: 'publish', kind: 'succeeded', errors: [] })).toBeNull();
    expect(describeFeedback(null)).toBeNull();
  });

  it('warns for a state it does not know', () => {
    const unknown = { action: 'teleport', kind: 'failed', errors: [] } as unknown as Parameters<
      typeof describeFeedback
    >[0];
    expect(describeFeedback(unknown)).toMatchObject({ tone: 'warning', textKey: 'unknown' });
  });
});
