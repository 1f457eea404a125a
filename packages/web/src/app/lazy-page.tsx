import { lazy, Suspense, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../components/PageLoader';
import { loadLaterStrings } from '../i18n/i18n';

/** A page whose code is its own chunk, fetched the first time the page is shown or preloaded. */
export interface LazyPage {
  Page: ComponentType;
  /** Fetches the page's code; resolves once it can render without waiting. */
  preload: () => Promise<void>;
}

/**
 * Splits a page into its own chunk, so that each page loads its own code only (the deposit form
 * and its libraries are most of the app). Once loaded, the page renders at once, without a
 * loading state; a chunk that fails to load throws while rendering, which the route's error
 * element shows. A page waits for the strings outside the app's first chunk as well, unless
 * `ownStringsOnly` says it shows none of them (the deposit page, whose first load they would
 * only make larger).
 */
export function lazyPage(
  load: () => Promise<ComponentType>,
  { ownStringsOnly = false }: { ownStringsOnly?: boolean } = {},
): LazyPage {
  let loaded: ComponentType | null = null;
  let loading: Promise<ComponentType> | null = null;
  const start = () =>
    (loading ??= Promise.all([load(), ownStringsOnly ? null : loadLaterStrings()]).then(
      ([component]) => {
        loaded = component;
        return component;
      },
    ));
  const Pending = lazy(async () => ({ default: await start() }));

  function Page() {
    const { t } = useTranslation();
    // Decided once per mount: switching between the two trees would remount the page and lose
    // its state (a half-filled form).
    const [Loaded] = useState(() => loaded);
    if (Loaded) return <Loaded />;
    return (
      <Suspense fallback={<PageLoader label={t('app.loading')} />}>
        <Pending />
      </Suspense>
    );
  }
  return {
    Page,
    preload: async () => {
      await start();
    },
  };
}
