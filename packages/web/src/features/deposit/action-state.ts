import type { FieldError } from '../../api/records';

/*
 * What the deposit form is doing and how its last action ended (SPEC §8). The banner and the
 * button spinners are derived from this state alone.
 */

export type DepositAction = 'save' | 'publish';

export type ActionStatus = 'idle' | 'saving' | 'publishing';

/** Why an action failed, for failures that are not validation feedback. */
export interface ActionFailure {
  /** Replaces the banner's default text when the server sent one (SPEC §8). */
  serverMessage?: string;
  /** Field errors sent with a failed request; shown on the fields and linked by section. */
  errors: readonly FieldError[];
}

export type ActionResult =
  | { type: 'saved' }
  | { type: 'saved-with-feedback'; errors: readonly FieldError[] }
  | { type: 'loaded-with-feedback'; errors: readonly FieldError[] }
  | { type: 'save-failed'; failure: ActionFailure }
  | { type: 'publish-blocked'; errors: readonly FieldError[] }
  | { type: 'publish-failed'; failure: ActionFailure }
  /** The draft's revision moved on since it was loaded (HTTP 412). */
  | { type: 'conflict' };

export interface ActionState {
  status: ActionStatus;
  result: ActionResult | null;
}

export type ActionEvent =
  | { type: 'started'; action: DepositAction }
  | { type: 'finished'; result: ActionResult }
  | { type: 'dismissed' };

/** A freshly loaded draft that was stored with errors says so straight away (SPEC §8). */
export function createInitialActionState(loadedErrors: readonly FieldError[] = []): ActionState {
  return {
    status: 'idle',
    result: loadedErrors.length > 0 ? { type: 'loaded-with-feedback', errors: loadedErrors } : null,
  };
}

const BUSY_STATUS: Record<DepositAction, ActionStatus> = { save: 'saving', publish: 'publishing' };

export function actionStateReducer(state: ActionState, event: ActionEvent): ActionState {
  switch (event.type) {
    case 'started':
      // One action at a time: a second click while saving must not send a second request.
      if (state.status !== 'idle') return state;
      // The previous banner goes away so the next one is announced afresh.
      return { status: BUSY_STATUS[event.action], result: null };
    case 'finished':
      return { status: 'idle', result: event.result };
    case 'dismissed':
      return { ...state, result: null };
  }
}

export function isBusy(state: ActionState): boolean {
  return state.status !== 'idle';
}
