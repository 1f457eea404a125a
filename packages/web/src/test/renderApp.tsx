import { render, type RenderResult } from '@testing-library/react';
import { AppProviders } from '../app/AppProviders';
import { createQueryClient, seedQueryCache } from '../app/query-client';
import { AppRoutes } from '../app/AppRoutes';
import { createTestHistory, GuardedRouter } from '../app/GuardedRouter';
import { preloadAllPages } from '../app/routes';
import type { Bootstrap } from '../bootstrap';
import { createI18n } from '../i18n/i18n';
import { buildBootstrap } from './builders';

export interface RenderAppOptions {
  /** The address the page is opened at, e.g. `/uploads/new`. */
  path: string;
  bootstrap?: Partial<Bootstrap>;
}

// The app fetches the page's code before its first render (main.tsx); tests render at once.
await preloadAllPages();

/** The whole app at `path`, as the server would serve it with `bootstrap`. */
export function renderApp({ path, bootstrap }: RenderAppOptions): RenderResult {
  const pageBootstrap = buildBootstrap(bootstrap);
  const queryClient = createQueryClient();
  seedQueryCache(queryClient, pageBootstrap, new URL(path, window.location.origin));
  return render(
    <AppProviders
      bootstrap={pageBootstrap}
      queryClient={queryClient}
      i18n={createI18n('en')}
      env="test"
    >
      <GuardedRouter history={createTestHistory(path)}>
        <AppRoutes />
      </GuardedRouter>
    </AppProviders>,
  );
}

/** The text that assistive technology reads as the element's description (aria-describedby). */
export function descriptionOf(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map((id) => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
    .join(' ')
    .trim();
}
