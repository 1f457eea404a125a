import { createContext } from 'react';

/** A pause long enough not to save mid-word, short enough that little is at stake. */
export const AUTOSAVE_DELAY_MS = 4000;

/**
 * How long the deposit form waits after the last change before it saves by itself (0: never).
 * A context rather than a constant so that tests about anything else can turn autosave off: on a
 * slow run, filling a form takes longer than the pause, and an autosave would then send requests
 * the test did not ask for.
 */
export const AutosaveDelayContext = createContext(AUTOSAVE_DELAY_MS);
