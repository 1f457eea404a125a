import { render, type RenderResult } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/AppProviders';
import { createQueryClient, seedQueryCache } from '../app/query-client';
import { routes } from '../app/routes';
import type { Bootstrap } from '../bootstrap';
import { createI18n } from '../i18n/i18n';
import { buildBootstrap } from './builders';

export interface RenderAppOptions {
  /** The address the page is opened at, e.g. `/uploads/new`. */
  path: string;
  bootstrap?: Partial<Bootstrap>;
}

/** The whole app at `path`, as the server would serve it with `bootstrap`. */
export function renderApp({ path, bootstrap }: RenderAppOptions): RenderResult {
  const pageBootstrap = buildBootstrap(bootstrap);
  const queryClient = createQueryClient();
  seedQueryCache(queryClient, pageBootstrap, new URL(path, window.location.origin));
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  return render(
    <AppProviders
      bootstrap={pageBootstrap}
      queryClient={queryClient}
      i18n={createI18n('en')}
      env="test"
    >
      <RouterProvider router={router} />
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
