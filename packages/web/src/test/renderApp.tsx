import { render, type RenderResult } from '@testing-library/react';
import { AppProviders } from '../app/AppProviders';
import { createQueryClient, seedQueryCache } from '../app/query-client';
import { AppRoutes } from '../app/AppRoutes';
import { createTestHistory, GuardedRouter, type AppHistory } from '../app/GuardedRouter';
import { preloadAllPages } from '../app/routes';
import type { Bootstrap } from '../bootstrap';
import { AUTOSAVE_DELAY_MS, AutosaveDelayContext } from '../features/deposit/autosave-delay';
import { createI18n } from '../i18n/i18n';
import { buildBootstrap } from './builders';

export interface RenderAppOptions {
  /** The address the page is opened at, e.g. `/uploads/new`. */
  path: string;
  bootstrap?: Partial<Bootstrap>;
  /**
   * Whether the deposit form saves by itself after a pause, as in the app. Off unless a test is
   * about autosave: a slow run fills a form slower than the pause, and the autosave's requests
   * would then reach stubs that expect only the test's own clicks.
   */
  autosave?: boolean;
}

// The app fetches the page's code before its first render (main.tsx); tests render at once.
await preloadAllPages();

/**
 * The whole app at `path`, as the server would serve it with `bootstrap`; with its history, for
 * tests that read the address or go Back.
 */
export function renderApp({
  path,
  bootstrap,
  autosave = false,
}: RenderAppOptions): RenderResult & { history: AppHistory } {
  const pageBootstrap = buildBootstrap(bootstrap);
  const history = createTestHistory(path);
  const queryClient = createQueryClient();
  seedQueryCache(queryClient, pageBootstrap, new URL(path, window.location.origin));
  const result = render(
    <AppProviders
      bootstrap={pageBootstrap}
      queryClient={queryClient}
      i18n={createI18n('en')}
      env="test"
    >
      <AutosaveDelayContext.Provider value={autosave ? AUTOSAVE_DELAY_MS : 0}>
        <GuardedRouter history={history}>
          <AppRoutes />
        </GuardedRouter>
      </AutosaveDelayContext.Provider>
    </AppProviders>,
  );
  return { ...result, history };
}

/** The text that assistive technology reads as the element's description (aria-describedby). */
export function descriptionOf(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map((id) => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
    .join(' ')
    .trim();
}
