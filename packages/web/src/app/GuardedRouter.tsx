import {
  createContext,
  startTransition,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import {
  NavigationType,
  Router,
  UNSAFE_createBrowserHistory,
  UNSAFE_createMemoryHistory,
  useSearchParams,
  type Location,
  type Navigator,
  type To,
} from 'react-router';

/*
 * React Router's BrowserRouter, plus a page's say over leaving it. React Router has this only in
 * its data router (useBlocker), which costs every page of the app some 17 KB of gzipped script:
 * here the app's history is wrapped instead, so that links, navigate() and Back can all be held
 * while a page asks the person (the deposit form with unsaved input does).
 */

export type AppHistory =
  ReturnType<typeof UNSAFE_createBrowserHistory> | ReturnType<typeof UNSAFE_createMemoryHistory>;

/** The browser's history as the app uses it. */
export function createAppHistory(): AppHistory {
  return UNSAFE_createBrowserHistory({ v5Compat: true });
}

/** A history in memory, starting at `path`: for tests. */
export function createTestHistory(path: string): AppHistory {
  return UNSAFE_createMemoryHistory({ initialEntries: [path], v5Compat: true });
}

/** Asked before the app moves: true holds the move until `proceed` or `reset`. */
export type LeaveCheck = (move: { currentLocation: Location; nextLocation: Location }) => boolean;

export interface LeaveBlocker {
  state: 'unblocked' | 'blocked';
  /** Makes the held move. */
  proceed: () => void;
  /** Drops the held move: the page stays. */
  reset: () => void;
}

interface HeldMove {
  move: () => void;
  /** Back or Forward, which the URL had already made and was undone. */
  isPop: boolean;
}

function locationOf(history: AppHistory, to: To): Location {
  const url = history.createURL(to);
  return { pathname: url.pathname, search: url.search, hash: url.hash, state: null, key: '' };
}

interface Shown {
  action: NavigationType;
  location: Location;
}

/** The history as the router sees it, asking the page's check before every move. */
class HistoryGuard {
  private check: LeaveCheck | null = null;
  private held: HeldMove | null = null;
  private shownLocation: Location;
  // Set while Back is undone, whose own pop must not reach the page; and while a held Back is
  // made after all, which must not be asked about again.
  private undoing = false;
  private passing = false;
  private readonly watchers = new Set<() => void>();
  readonly navigator: Navigator;

  constructor(private readonly history: AppHistory) {
    this.shownLocation = history.location;
    const guarded =
      (make: (to: To, state?: unknown) => void) =>
      (to: To, state?: unknown): void => {
        if (this.holds(locationOf(history, to)))
          this.hold({ move: () => make(to, state), isPop: false });
        else make(to, state);
      };
    this.navigator = {
      createHref: (to) => history.createHref(to),
      encodeLocation: (to) => history.encodeLocation(to),
      go: (delta) => history.go(delta),
      push: guarded((to, state) => history.push(to, state)),
      replace: guarded((to, state) => history.replace(to, state)),
    };
  }

  /** Sets the check of the page being shown; returns its removal. */
  register = (check: LeaveCheck): (() => void) => {
    this.check = check;
    return () => {
      if (this.check === check) this.check = null;
    };
  };

  /** Passes the moves that reach the page to `show`; returns the end of listening. */
  listen(show: (shown: Shown) => void): () => void {
    return this.history.listen(({ action, location, delta }) => {
      if (this.undoing) {
        this.undoing = false;
        return;
      }
      // A move of unknown distance cannot be undone; it goes through.
      if (action === NavigationType.Pop && delta !== null && delta !== 0 && this.holds(location)) {
        this.undoing = true;
        this.history.go(-delta);
        this.hold({ move: () => this.history.go(delta), isPop: true });
        return;
      }
      this.shownLocation = location;
      show({ action, location });
    });
  }

  isHolding = (): boolean => this.held !== null;

  /** The address's query as the history has it now, which the page may not show yet. */
  currentSearch = (): string => this.history.location.search;

  subscribe = (watcher: () => void): (() => void) => {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  };

  proceed = (): void => {
    const held = this.held;
    if (!held) return;
    this.hold(null);
    if (held.isPop) this.passing = true;
    held.move();
  };

  reset = (): void => this.hold(null);

  private holds(nextLocation: Location): boolean {
    if (this.passing) {
      this.passing = false;
      return false;
    }
    return this.check?.({ currentLocation: this.shownLocation, nextLocation }) ?? false;
  }

  private hold(move: HeldMove | null) {
    this.held = move;
    for (const watcher of this.watchers) watcher();
  }
}

interface GuardState {
  guard: HistoryGuard;
  isHolding: boolean;
}

const GuardContext = createContext<GuardState | null>(null);

export function GuardedRouter({ history, children }: { history: AppHistory; children: ReactNode }) {
  const [guard] = useState(() => new HistoryGuard(history));
  const [shown, setShown] = useState<Shown>({ action: history.action, location: history.location });
  useLayoutEffect(() => guard.listen((next) => startTransition(() => setShown(next))), [guard]);
  const isHolding = useSyncExternalStore(guard.subscribe, guard.isHolding);
  const state = useMemo(() => ({ guard, isHolding }), [guard, isHolding]);

  return (
    <GuardContext.Provider value={state}>
      <Router location={shown.location} navigationType={shown.action} navigator={guard.navigator}>
        {children}
      </Router>
    </GuardContext.Provider>
  );
}

/**
 * Lets the page hold moves away from it: `check` is asked before each one (link, navigate(),
 * Back), and a held move waits in the returned blocker until the page proceeds or resets it.
 */
export function useLeaveBlocker(check: LeaveCheck): LeaveBlocker {
  const state = useContext(GuardContext);
  if (!state) throw new Error('useLeaveBlocker needs a GuardedRouter around the app.');
  const checkRef = useRef(check);
  useLayoutEffect(() => {
    checkRef.current = check;
  });
  const { guard } = state;
  useEffect(() => guard.register((move) => checkRef.current(move)), [guard]);
  return {
    state: state.isHolding ? 'blocked' : 'unblocked',
    proceed: guard.proceed,
    reset: guard.reset,
  };
}

/**
 * The address's query, as React Router's useSearchParams, but a change is made to the query as
 * the address has it now rather than as the page last rendered it. Moves reach the page in a
 * transition, so while a list for the new address loads the page still renders the old one; a
 * second quick change (a filter, then a sort) built on the rendered query would drop the first.
 */
export function useAddressParams(): [
  URLSearchParams,
  (change: (current: URLSearchParams) => URLSearchParams) => void,
] {
  const state = useContext(GuardContext);
  if (!state) throw new Error('useAddressParams needs a GuardedRouter around the app.');
  const [params, setParams] = useSearchParams();
  const { guard } = state;
  const update = useMemo(
    () => (change: (current: URLSearchParams) => URLSearchParams) =>
      setParams(change(new URLSearchParams(guard.currentSearch()))),
    [guard, setParams],
  );
  return [params, update];
}
