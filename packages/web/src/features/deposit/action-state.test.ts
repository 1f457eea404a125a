import { describe, expect, it } from 'vitest';
import { actionStateReducer, createInitialActionState, type ActionState } from './action-state';

const titleError = { field: 'metadata.title', messages: ['Missing data for required field.'] };

describe('actionStateReducer', () => {
  it('starts idle without a result for a clean draft', () => {
    expect(createInitialActionState()).toEqual({ status: 'idle', result: null });
  });

  it('reports feedback stored with a loaded draft', () => {
    expect(createInitialActionState([titleError]).result).toEqual({
      type: 'loaded-with-feedback',
      errors: [titleError],
    });
  });

  it('marks the running action and clears the previous banner', () => {
    const saved: ActionState = { status: 'idle', result: { type: 'saved' } };
    expect(actionStateReducer(saved, { type: 'started', action: 'save' })).toEqual({
      status: 'saving',
      result: null,
    });
    expect(actionStateReducer(saved, { type: 'started', action: 'publish' }).status).toBe(
      'publishing',
    );
  });

  it('ignores a second action while one is running', () => {
    const saving: ActionState = { status: 'saving', result: null };
    expect(actionStateReducer(saving, { type: 'started', action: 'publish' })).toBe(saving);
  });

  it('returns to idle with the outcome when the action finishes', () => {
    const publishing: ActionState = { status: 'publishing', result: null };
    const result = { type: 'publish-blocked', errors: [titleError] } as const;
    expect(actionStateReducer(publishing, { type: 'finished', result })).toEqual({
      status: 'idle',
      result,
    });
  });

  it('dismisses the banner without touching the status', () => {
    const state: ActionState = { status: 'idle', result: { type: 'conflict' } };
    expect(actionStateReducer(state, { type: 'dismissed' })).toEqual({
      status: 'idle',
      result: null,
    });
  });
});
