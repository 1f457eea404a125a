import { lazy, Suspense, useState, type ComponentType } from 'react';

/** A dialog whose code is fetched when it first opens (see `lazyDialog`). */
export type LazyDialog<P> = ComponentType<P> & {
  /** Fetches the dialog's code ahead of its first opening. */
  preload: () => Promise<void>;
};

const registered: Array<() => Promise<void>> = [];

/**
 * A dialog kept out of its page's first load: its code is its own chunk, fetched when it first
 * opens (or on `preload`). Until then it renders nothing; once open it stays mounted, so that it
 * closes with its transition. Once fetched, it opens at once. Code that fails to load throws
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
    (loading ??= load().then(
      (component) => {
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
    // Decided once per mount: switching from the pending tree to the loaded one would remount
    // an open dialog and lose what was typed into it.
    const [Loaded] = useState(() => loaded);
    const open = isOpen(props);
    if (open && !hasOpened) setHasOpened(true);
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

/** Fetches every dialog defined so far (tests open dialogs without waiting for their code). */
export async function preloadDialogs(): Promise<void> {
  await Promise.all(registered.map((preload) => preload()));
}
