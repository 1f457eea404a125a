import { lazy, Suspense, useEffect, useRef, useState, type ComponentType } from 'react';
import { loadLaterStrings } from '../i18n/i18n';

/** A dialog whose code is fetched when it first opens (see `lazyDialog`). */
export type LazyDialog<P> = ComponentType<P> & {
  /** Fetches the dialog's code ahead of its first opening. */
  preload: () => Promise<void>;
};

const registered: Array<() => Promise<void>> = [];

/**
 * A dialog kept out of its page's first load: its code is its own chunk, fetched when it first
 * opens (or on `preload`). Until then it renders nothing; once open it stays mounted, so that it
 * closes with its transition, and hands the focus back to what had it before the first opening
 * (Mantine's modal does so only for openings after its mount). Once fetched, it opens at once.
 * Code that fails to load throws
 * while rendering, as a page's does: the route's error page asks for a reload, and the edit
 * journal keeps the form's values meanwhile.
 *
 * The deposit form has ten dialogs, none of which it needs to be shown or used.
 */
export function lazyDialog<P extends object>(
  load: () => Promise<ComponentType<P>>,
  isOpen: (props: P) => boolean,
): LazyDialog<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const start = () =>
    // A dialog of the deposit page may show strings outside the app's first chunk (lazyPage).
    (loading ??= Promise.all([load(), loadLaterStrings()]).then(
      ([component]) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        // A failed prefetch must not fail the opening: that fetches again.
        loading = null;
        throw error;
      },
    ));
  const Pending = lazy(async () => ({ default: await start() }));

  function Dialog(props: P) {
    const [hasOpened, setHasOpened] = useState(false);
    const opener = useRef<Element | null>(null);
    // Decided once per mount: switching from the pending tree to the loaded one would remount
    // an open dialog and lose what was typed into it.
    const [Loaded] = useState(() => loaded);
    const open = isOpen(props);
    if (open && !hasOpened) {
      // Read while rendering the first opening: by its effects, the dialog may hold the focus.
      opener.current = document.activeElement;
      setHasOpened(true);
    }
    useEffect(() => {
      const element = opener.current;
      if (open || !element) return undefined;
      opener.current = null;
      return returnFocusAfterClose(element);
    }, [open]);
    if (!open && !hasOpened) return null;
    if (Loaded) return <Loaded {...props} />;
    return (
      <Suspense fallback={null}>
        <Pending {...props} />
      </Suspense>
    );
  }
  const preload = async () => {
    await start();
  };
  registered.push(preload);
  return Object.assign(Dialog, { preload });
}

/** How long after closing the focus is handed back: after the dialog's own handlers have run. */
const RETURN_FOCUS_DELAY_MS = 10;

/**
 * Focuses `element` shortly after a dialog closed, unless the focus has meanwhile gone somewhere
 * on purpose (anywhere other than the page's body or where it was at the close); returns a
 * cancel function.
 */
function returnFocusAfterClose(element: Element): () => void {
  const atClose = document.activeElement;
  const timer = setTimeout(() => {
    const now = document.activeElement;
    if ((now === null || now === document.body || now === atClose) && element.isConnected) {
      (element as HTMLElement).focus({ preventScroll: true });
    }
  }, RETURN_FOCUS_DELAY_MS);
  return () => clearTimeout(timer);
}

/** Fetches every dialog defined so far (tests open dialogs without waiting for their code). */
export async function preloadDialogs(): Promise<void> {
  await Promise.all(registered.map((preload) => preload()));
}
