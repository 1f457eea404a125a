import type { ServerFieldError } from '@cairn/shared';

/*
 * What the deposit form is doing and how its last action ended. One state machine for every action
 * that calls the server: the banner and the button spinners are derived from this state alone.
 */

/** Every action of the editor that calls the server. */
export const DEPOSIT_ACTIONS = [
  'save',
  'publish',
  'publish-without-community',
  'preview',
  'delete',
  'submit-review',
  'reserve-pid',
  'discard-pid',
  'import-files',
  'new-version',
  'save-before-upload',
] as const;

export type DepositAction = (typeof DEPOSIT_ACTIONS)[number];

/** `validation-failed`: the action stopped (or saved) with validation errors on the fields. */
export type OutcomeKind = 'succeeded' | 'failed' | 'validation-failed';

/** How an action ended; `load` is the draft as the page opened it. */
export interface ActionOutcome {
  action: DepositAction | 'load';
  kind: OutcomeKind;
  /** Field errors, shown on the fields and linked by section in the banner. */
  errors: readonly ServerFieldError[];
  /** Replaces the banner's default text when the server sent one. */
  serverMessage?: string;
}

export interface ActionState {
  /** The action running now; one at a time, so a double click sends one request. */
  running: DepositAction | null;
  last: ActionOutcome | null;
}

export type ActionEvent =
  | { type: 'started'; action: DepositAction }
  | { type: 'succeeded'; action: DepositAction; errors?: readonly ServerFieldError[] }
  | { type: 'validation-failed'; action: DepositAction; errors: readonly ServerFieldError[] }
  | {
      type: 'failed';
      action: DepositAction;
      errors?: readonly ServerFieldError[];
      serverMessage?: string;
    }
  /** The action was given up without an outcome worth a banner (e.g. a dialog cancelled). */
  | { type: 'cancelled' }
  | { type: 'dismissed' };

/** A freshly loaded draft that was stored with errors says so straight away. */
export function createInitialActionState(
  loadedErrors: readonly ServerFieldError[] = [],
): ActionState {
  return {
    running: null,
    last:
      loadedErrors.length > 0
        ? { action: 'load', kind: 'validation-failed', errors: loadedErrors }
        : null,
  };
}

export function actionStateReducer(state: ActionState, event: ActionEvent): ActionState {
  switch (event.type) {
    case 'started':
      // One action at a time: a second click while saving must not send a second request.
      if (state.running !== null) return state;
      // The previous banner goes away so the next one is announced afresh.
      return { running: event.action, last: null };
    case 'succeeded': {
      const errors = event.errors ?? [];
      // A save ends as saved, or saved with validation feedback.
      return {
        running: null,
        last: {
          action: event.action,
          kind: errors.length > 0 ? 'validation-failed' : 'succeeded',
          errors,
        },
      };
    }
    case 'validation-failed':
      return {
        running: null,
        last: { action: event.action, kind: 'validation-failed', errors: event.errors },
      };
    case 'failed':
      return {
        running: null,
        last: {
          action: event.action,
          kind: 'failed',
          errors: event.errors ?? [],
          ...(event.serverMessage ? { serverMessage: event.serverMessage } : {}),
        },
      };
    case 'cancelled':
      return { ...state, running: null };
    case 'dismissed':
      return { ...state, last: null };
  }
}

/** Whether an action is running: every action button is disabled meanwhile. */
export function isSubmitting(state: ActionState): boolean {
  return state.running !== null;
}

/** Whether `action`'s button shows its spinner (publish-without-community spins Publish's). */
export function isRunning(state: ActionState, ...actions: DepositAction[]): boolean {
  return state.running !== null && actions.includes(state.running);
}
