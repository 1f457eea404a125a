import { serializeDraft, type DepositFormValues } from '@cairn/shared';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useBootstrap } from '../../bootstrap';
import { asFormValues, useSerializerOptions } from './draft-values';
import { whenIdle } from '../../lib/idle';
import { createDraftJournal, type DraftJournal, type JournalEntry } from './draft-journal';
import type { DepositController } from './deposit-controller';

/** Edits are written to the journal this long after the first change not in it yet. */
const JOURNAL_DELAY_MS = 300;

/** Even on a page that never idles, the journal and autosave run within this time after theirs. */
const IDLE_TIMEOUT_MS = 1000;

export interface DraftSafetyOptions {
  form: UseFormReturn<DepositFormValues>;
  controller: DepositController;
  /** Autosave runs this long after the last change (at most a moment later); 0 turns it off. */
  autosaveDelayMs: number;
  journal?: DraftJournal;
}

export interface DraftSafety {
  /** Unsaved edits found in the journal, waiting for the person to restore or discard them. */
  restorable: JournalEntry | null;
  restore: () => void;
  discard: () => void;
  /** When autosave last stored the draft. */
  autosavedAt: Date | null;
}

/**
 * Never lose an edit: edits go to the local journal as they are made and are saved to the server
 * after a pause (autosave, with If-Match — a conflict opens the conflict dialog instead of
 * overwriting). Edits the server never got are offered back when the page opens again.
 */
export function useDraftSafety({
  form,
  controller,
  autosaveDelayMs,
  journal: givenJournal,
}: DraftSafetyOptions): DraftSafety {
  const { user } = useBootstrap();
  const options = useSerializerOptions();
  const journal = useMemo(() => givenJournal ?? createDraftJournal(), [givenJournal]);
  const draftId = controller.draft?.id;
  const key = draftId ?? `new:${user?.id ?? 'anonymous'}`;
  const keyRef = useRef(key);
  const [restorable, setRestorable] = useState<JournalEntry | null>(null);
  const [autosavedAt, setAutosavedAt] = useState<Date | null>(null);
  const controllerRef = useRef(controller);
  // Timers and the journal read the latest controller without re-subscribing on every render.
  useLayoutEffect(() => {
    controllerRef.current = controller;
  });

  const isUnsaved = (values: DepositFormValues) =>
    JSON.stringify(serializeDraft(values, controllerRef.current.draft, options)) !==
    controllerRef.current.lastSavedPayload();

  // On opening: edits of an earlier visit that differ from what the server holds.
  useEffect(() => {
    let active = true;
    journal
      .read(keyRef.current)
      .then((entry) => {
        if (!active || !entry) return;
        if (isUnsaved(entry.values)) setRestorable(entry);
        else void journal.remove(entry.key).catch(() => undefined);
      })
      .catch((error: unknown) => console.error('The edit journal could not be read:', error));
    return () => {
      active = false;
    };
    // Only on opening: later entries are this visit's own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [journal]);

  // The first save gives a new upload its id: its journal moves to the draft's key.
  useEffect(() => {
    if (keyRef.current === key) return;
    const previous = keyRef.current;
    keyRef.current = key;
    void journal.remove(previous).catch(() => undefined);
  }, [journal, key]);

  useEffect(() => {
    let active = true;
    let journalTimer: ReturnType<typeof setTimeout> | undefined;
    let autosaveTimer: ReturnType<typeof setTimeout> | undefined;
    let cancelIdle: (() => void) | undefined;
    let cancelAutosave: (() => void) | undefined;
    // Counted rather than compared: telling whether the values differ from the saved ones
    // serialises the whole draft, too slow to do after every pause in typing at 10,000 creators.
    let changes = 0;
    let journaled = 0;
    const writeJournal = () => {
      clearTimeout(journalTimer);
      journalTimer = undefined;
      cancelIdle?.();
      cancelIdle = undefined;
      if (journaled === changes) return;
      const written = changes;
      // Counted as written from here on: a flush while this write is on its way does not repeat it.
      journaled = written;
      const entry: JournalEntry = {
        key: keyRef.current,
        values: form.getValues(),
        writtenAt: new Date().toISOString(),
        baseRevision: controllerRef.current.draft?.revision_id ?? null,
      };
      journal.write(entry).catch((error: unknown) => {
        // Unless a later write holds these changes too, the next one writes them again.
        if (journaled === written) journaled = written - 1;
        console.error('The edit journal failed:', error);
      });
    };
    const scheduleAutosave = () => {
      clearTimeout(autosaveTimer);
      cancelAutosave?.();
      autosaveTimer = setTimeout(() => {
        // Comparing with the saved draft serialises it: not in the way of a keystroke either.
        cancelAutosave = whenIdle(() => {
          if (!isUnsaved(form.getValues())) return;
          const saving = changes;
          void controllerRef.current.autosave().then((saved) => {
            if (!saved) return;
            setAutosavedAt(new Date());
            // Edits made while the save was on its way stay in the journal.
            if (changes === saving) void journal.remove(keyRef.current);
          });
        }, IDLE_TIMEOUT_MS);
      }, autosaveDelayMs);
    };
    const unsubscribe = onValuesChange(form, () => {
      changes += 1;
      // Written shortly after the first change not in the journal yet, when the browser is idle:
      // never between two keystrokes, and the changes until then go in the same write.
      journalTimer ??= setTimeout(() => {
        cancelIdle = whenIdle(() => {
          if (active) writeJournal();
        }, IDLE_TIMEOUT_MS);
      }, JOURNAL_DELAY_MS);
      if (autosaveDelayMs > 0) scheduleAutosave();
    });
    // A tab put away or closed may never run its timers again: what is not in the journal yet is
    // written at once.
    const flush = () => {
      if (document.visibilityState === 'hidden') writeJournal();
    };
    window.addEventListener('pagehide', writeJournal);
    document.addEventListener('visibilitychange', flush);
    return () => {
      active = false;
      unsubscribe();
      window.removeEventListener('pagehide', writeJournal);
      document.removeEventListener('visibilitychange', flush);
      clearTimeout(journalTimer);
      cancelIdle?.();
      clearTimeout(autosaveTimer);
      cancelAutosave?.();
    };
    // isUnsaved reads refs only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form, journal, autosaveDelayMs]);

  // A save by the person (not autosave) leaves the journal entry of what it saved: forgotten
  // once the draft the server returned holds every edit. Not on opening: the entry found then is
  // an earlier visit's, offered back above.
  const revision = controller.draft?.revision_id;
  const openedRevision = useRef(revision);
  useEffect(() => {
    if (revision === openedRevision.current) return undefined;
    return whenIdle(() => {
      if (!isUnsaved(form.getValues())) void journal.remove(keyRef.current).catch(() => undefined);
    }, IDLE_TIMEOUT_MS);
    // isUnsaved reads refs only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form, journal, revision]);

  return {
    restorable,
    restore: () => {
      if (!restorable) return;
      // Restored values are unsaved edits: they keep the form's defaults, so autosave sees them.
      form.reset(asFormValues(restorable.values), { keepDefaultValues: true });
      setRestorable(null);
    },
    discard: () => {
      setRestorable(null);
      void journal.remove(keyRef.current).catch(() => undefined);
    },
    autosavedAt,
  };
}

/**
 * Calls `onChange` after every change of the form's values (typing, setValue, reset), with
 * nothing else. Not `form.watch(callback)`: a watcher of the whole form makes React Hook Form
 * deep-copy every value for it on each keystroke (the creator lists element by element, tens of
 * milliseconds at 10,000 creators). The form's own change notices are `{name, type}` for an input
 * and carry `values` for setValue and reset; notices of validation or submission have neither.
 */
function onValuesChange(form: UseFormReturn<DepositFormValues>, onChange: () => void): () => void {
  const subscription = form.control._subjects.state.subscribe({
    next: (notice) => {
      if ('values' in notice || 'type' in notice) onChange();
    },
  });
  return () => subscription.unsubscribe();
}
