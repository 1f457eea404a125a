import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLeaveBlocker } from '../../app/GuardedRouter';
import type { DepositController } from './deposit-controller';

/** What leaving would lose: files on their way up, or edits the server has not got. */
export type LeaveRisk = 'uploads' | 'edits';

export interface LeaveGuard {
  /** Set while a link or Back is held until the person chooses; null otherwise. */
  asking: LeaveRisk | null;
  stay: () => void;
  leave: () => void;
  /** Saves, then goes where the person was going; stays when the save did not go through. */
  saveAndLeave: () => Promise<void>;
}

export interface LeaveGuardOptions {
  controller: DepositController;
  /** Whether files are uploading now; read when the person tries to leave. */
  isUploading: () => boolean;
}

/**
 * Asks before the deposit page is left with something unsaved: a link or Back inside the app
 * waits for the person's choice in a dialog, and closing or reloading the tab gets the browser's
 * own question. Nothing is computed while the person types: whether the form differs from what
 * was last saved is worked out only when they try to leave.
 */
export function useLeaveGuard({ controller, isUploading }: LeaveGuardOptions): LeaveGuard {
  const latest = useRef({ controller, isUploading });
  useLayoutEffect(() => {
    latest.current = { controller, isUploading };
  });
  const [asking, setAsking] = useState<LeaveRisk | null>(null);

  const risk = (): LeaveRisk | null => {
    const current = latest.current;
    if (current.controller.isLeaving()) return null;
    if (current.isUploading()) return 'uploads';
    const payload = JSON.stringify(current.controller.serializeValues());
    return payload === current.controller.lastSavedPayload() ? null : 'edits';
  };

  const blocker = useLeaveBlocker(({ currentLocation, nextLocation }) => {
    // Another query or fragment of the same page keeps the form; the same address again (New
    // upload clicked on a new upload) starts a fresh one.
    const samePage =
      nextLocation.pathname === currentLocation.pathname &&
      (nextLocation.search !== currentLocation.search ||
        nextLocation.hash !== currentLocation.hash);
    if (samePage) return false;
    const found = risk();
    setAsking(found);
    return found !== null;
  });

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (risk() === null) return;
      event.preventDefault();
      // Older browsers show the question only when a value is returned.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  // The save below takes a while: by its end the blocker of this render may be stale.
  const blockerRef = useRef(blocker);
  useLayoutEffect(() => {
    blockerRef.current = blocker;
  });
  const held = blocker.state === 'blocked';
  return {
    asking: held ? asking : null,
    stay: () => {
      if (blocker.state === 'blocked') blocker.reset();
    },
    leave: () => {
      if (blocker.state === 'blocked') blocker.proceed();
    },
    saveAndLeave: async () => {
      if (blocker.state !== 'blocked') return;
      await latest.current.controller.save();
      const current = blockerRef.current;
      if (current.state !== 'blocked') return;
      // The save's banner tells what went wrong; the person stays to see it.
      if (risk() === null) current.proceed();
      else current.reset();
    },
  };
}
