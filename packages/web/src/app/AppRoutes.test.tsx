import { fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Link, MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { buildBootstrap } from '../test/builders';
import { createI18n } from '../i18n/i18n';
import { AppProviders } from './AppProviders';
import { RouteErrorBoundary } from './AppRoutes';
import { createQueryClient } from './query-client';
import { lazyPage } from './lazy-page';

/** A page whose chunk cannot be fetched (a release replaced it, the network dropped). */
const brokenPage = lazyPage(() =>
  Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
);

function Pages() {
  const location = useLocation();
  return (
    <>
      {/* Outside the boundary, as the browser's back button is. */}
      <Link to="/elsewhere">Elsewhere</Link>
      <RouteErrorBoundary location={location}>
        {location.pathname === '/broken' ? <brokenPage.Page /> : <p>Another page</p>}
      </RouteErrorBoundary>
    </>
  );
}

function renderAt(path: string) {
  return render(
    <AppProviders
      bootstrap={buildBootstrap()}
      queryClient={createQueryClient()}
      i18n={createI18n('en')}
      env="test"
    >
      <MemoryRouter initialEntries={[path]}>
        <Pages />
      </MemoryRouter>
    </AppProviders>,
  );
}

describe('a page whose code fails to load', () => {
  it('shows the error page, and the next address is tried afresh', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAt('/broken');

    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    expect(logged).toHaveBeenCalled();

    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByText('Another page')).toBeTruthy();
    expect(screen.queryByText('Something went wrong')).toBeNull();
  });

  it('loads a page whose code arrives, with a loading state meanwhile', async () => {
    let arrive: (page: () => ReactNode) => void = () => undefined;
    const slowPage = lazyPage(
      () =>
        new Promise((resolve) => {
          arrive = (page) => resolve(page);
        }),
    );
    render(
      <AppProviders
        bootstrap={buildBootstrap()}
        queryClient={createQueryClient()}
        i18n={createI18n('en')}
        env="test"
      >
        <slowPage.Page />
      </AppProviders>,
    );
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeTruthy();
    arrive(() => <p>Arrived</p>);
    expect(await screen.findByText('Arrived')).toBeTruthy();
  });
});
