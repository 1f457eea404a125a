import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildRecord } from '../../test/builders';
import { jsonResponse, stubFetch, type RecordedRequest } from '../../test/fetch';
import { renderApp } from '../../test/renderApp';

const SITE = 'http://127.0.0.1:5000';

const records = [
  buildRecord({
    id: 'rec-1',
    metadata: {
      title: 'Gannet colony counts',
      publication_date: '2024-05-01',
      resource_type: { id: 'dataset', title: { en: 'Dataset' } },
      creators: ['Lovelace, Ada', 'Hopper, Grace', 'Noether, Emmy', 'Curie, Marie'].map((name) => ({
        person_or_org: { type: 'personal', name },
      })),
    },
    access: { record: 'public', files: 'public', status: 'open' },
  }),
  buildRecord({
    id: 'rec-2',
    metadata: {
      title: 'Puffin burrows',
      creators: [{ person_or_org: { type: 'personal', name: 'Hopper, Grace' } }],
    },
    access: { record: 'public', files: 'restricted', status: 'embargoed' },
  }),
];

const community = {
  id: 'c-1',
  slug: 'seabirds',
  metadata: { title: 'Seabird Monitoring' },
  access: { visibility: 'public' },
  links: { self: `${SITE}/api/communities/c-1` },
};

function serveHome(): RecordedRequest[] {
  return stubFetch((request) => {
    const path = request.url.split('?')[0];
    if (path === '/api/records')
      return jsonResponse(200, { hits: { hits: records, total: 2 }, aggregations: {} });
    if (path === '/api/communities')
      return jsonResponse(200, { hits: { hits: [community], total: 1 } });
    throw new Error(`Unexpected request: ${request.url}`);
  });
}

describe('HomePage', () => {
  it('lists the latest records and a few communities, each linked', async () => {
    const requests = serveHome();
    renderApp({ path: '/', bootstrap: { user: null } });

    const latest = await screen.findByRole('region', { name: 'Latest records' });
    const gannets = await within(latest).findByRole('link', { name: 'Gannet colony counts' });
    expect(gannets.getAttribute('href')).toBe('/records/rec-1');
    const item = gannets.closest('li')!;
    expect(
      within(item).getByText('Lovelace, Ada; Hopper, Grace; Noether, Emmy et al.'),
    ).toBeTruthy();
    expect(within(item).getByText('Published May 1, 2024')).toBeTruthy();
    expect(within(item).getByText('Dataset')).toBeTruthy();
    expect(within(item).getByText('Open')).toBeTruthy();
    const puffins = within(latest).getByRole('link', { name: 'Puffin burrows' }).closest('li')!;
    expect(within(puffins).getByText('Hopper, Grace')).toBeTruthy();
    expect(within(puffins).getByText('Embargoed')).toBeTruthy();

    const communities = screen.getByRole('region', { name: 'Communities' });
    expect(
      within(communities).getByRole('link', { name: 'Seabird Monitoring' }).getAttribute('href'),
    ).toBe('/communities/seabirds');
    expect(requests.map((r) => r.url).sort()).toEqual([
      '/api/communities?size=6',
      '/api/records?sort=newest&size=10',
    ]);
  });

  it('invites visitors to log in or sign up, and is no login form', async () => {
    serveHome();
    renderApp({ path: '/', bootstrap: { user: null } });
    const main = screen.getByRole('main');
    await within(main).findByRole('link', { name: 'Log in' });
    expect(within(main).getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    expect(within(main).getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe(
      '/signup',
    );
    expect(within(main).queryByLabelText('Password')).toBeNull();
    expect(within(main).queryByRole('link', { name: 'My uploads' })).toBeNull();
  });

  it('takes a signed-in person to their uploads', async () => {
    serveHome();
    renderApp({ path: '/' });
    const main = screen.getByRole('main');
    expect(
      (await within(main).findByRole('link', { name: 'My uploads' })).getAttribute('href'),
    ).toBe('/me/uploads');
    expect(within(main).queryByRole('link', { name: 'Log in' })).toBeNull();
  });

  it('searches on the search page', async () => {
    const requests = serveHome();
    const { history } = renderApp({ path: '/', bootstrap: { user: null } });

    fireEvent.change(await screen.findByRole('textbox', { name: 'Search records' }), {
      target: { value: ' glacier "ice sheet" ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(history.location.pathname).toBe('/search'));
    expect(history.location.search).toBe('?q=glacier+%22ice+sheet%22');
    expect(await screen.findByRole('heading', { name: 'Search records', level: 1 })).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Search query' }).value).toBe(
      'glacier "ice sheet"',
    );
    await waitFor(() =>
      expect(requests.at(-1)?.url).toBe(
        '/api/records?q=glacier+%22ice+sheet%22&sort=bestmatch&page=1&size=10',
      ),
    );
  });
});
