import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildCommunity } from '../../test/community-builders';
import { errorResponse, jsonResponse, stubFetch, type RecordedRequest } from '../../test/fetch';
import { renderApp } from '../../test/renderApp';

const SITE = 'http://127.0.0.1:5000';
const COMMUNITY = '0b6a3a3e-5a0c-4f55-9d1e-0d8f3c1b2a77';

function hit(id: string, title: string, overrides: Record<string, unknown> = {}) {
  const api = `${SITE}/api/requests/${id}`;
  return {
    id,
    number: '1',
    title,
    type: 'community-submission',
    status: 'submitted',
    is_open: true,
    created: '2024-05-02T10:00:00+00:00',
    created_by: { user: '2' },
    receiver: { community: COMMUNITY },
    comment_count: 3,
    links: {
      self: api,
      self_html: `${SITE}/me/requests/${id}`,
      comments: `${api}/comments`,
      timeline: `${api}/timeline`,
      actions: {},
    },
    expanded: {
      created_by: { id: '2', profile: { full_name: 'Grace Hopper' } },
      receiver: { id: COMMUNITY, slug: 'seabirds', metadata: { title: 'Seabird Monitoring' } },
    },
    ...overrides,
  };
}

const hits = (list: unknown[], total = list.length) =>
  jsonResponse(200, { hits: { hits: list, total } });

/** Answers the lists, the person's communities, and one request with its timeline. */
function serve(lists: (url: URL) => unknown[]): RecordedRequest[] {
  return stubFetch((request) => {
    const url = new URL(request.url, SITE);
    if (url.pathname === '/api/user/communities') {
      return hits([
        buildCommunity({ id: COMMUNITY, title: 'Seabird Monitoring', slug: 'seabirds' }),
      ]);
    }
    if (url.pathname === '/api/user/requests/count') return jsonResponse(200, { awaiting: 2 });
    if (url.pathname.endsWith('/timeline')) return hits([]);
    const one = /^\/api\/requests\/([^/]+)$/.exec(url.pathname);
    if (one)
      return jsonResponse(
        200,
        hit(one[1]!, `Request ${one[1]}`, { last_activity_at: '2024-05-03T09:00:00+00:00' }),
      );
    if (request.method === 'PUT' && url.pathname.endsWith('/seen'))
      return new Response(null, { status: 204 });
    if (url.pathname.startsWith('/api/records/')) return errorResponse('PID_DOES_NOT_EXIST');
    return hits(lists(url));
  });
}

const listCalls = (requests: RecordedRequest[]) =>
  requests
    .map((r) => new URL(r.url, SITE))
    .filter((u) => u.pathname === '/api/user/requests' || u.pathname.endsWith('/requests'));

describe('the requests inbox', () => {
  it('lists open requests with who, where, when, status and comments, each linked', async () => {
    const requests = serve(() => [hit('r-1', 'Gannet colony counts')]);
    renderApp({ path: '/me/requests' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Requests' })).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'Gannet colony counts' });
    expect(link.getAttribute('href')).toBe('/me/requests/r-1');
    const row = link.closest('tr')!;
    expect(within(row).getByText('Community submission')).toBeTruthy();
    expect(within(row).getByText('Seabird Monitoring')).toBeTruthy();
    expect(within(row).getByText('Grace Hopper')).toBeTruthy();
    expect(within(row).getByText('Submitted')).toBeTruthy();
    expect(within(row).getByLabelText('3 comments')).toBeTruthy();
    expect(within(row).getByText(/May 2, 2024/)).toBeTruthy();
    const headers = within(screen.getByRole('table')).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual([
      'Title',
      'Type',
      'Community',
      'Created by',
      'Created',
      'Status',
      'Comments',
    ]);
    const first = listCalls(requests)[0]!;
    expect(first.pathname).toBe('/api/user/requests');
    expect(Object.fromEntries(first.searchParams)).toEqual({
      expand: '1',
      sort: 'newest',
      page: '1',
      size: '20',
      is_open: 'true',
    });
  });

  it('marks the requests with news since the person last opened them', async () => {
    serve(() => [
      hit('r-1', 'Gannet colony counts', { is_unread: true }),
      hit('r-2', 'Puffin burrows', { is_unread: false }),
    ]);
    renderApp({ path: '/me/requests' });
    const unread = (await screen.findByRole('link', { name: 'Gannet colony counts' })).closest(
      'tr',
    )!;
    expect(within(unread).getByText('New')).toBeTruthy();
    const read = screen.getByRole('link', { name: 'Puffin burrows' }).closest('tr')!;
    expect(within(read).queryByText('New')).toBeNull();
  });

  it('keeps every filter in the address, sends it to the API, and Back undoes it', async () => {
    const requests = serve((url) =>
      url.searchParams.get('created_by') === 'me' ? [] : [hit('r-1', 'Gannet colony counts')],
    );
    const { history } = renderApp({ path: '/me/requests' });
    await screen.findByRole('link', { name: 'Gannet colony counts' });

    fireEvent.click(screen.getByRole('radio', { name: 'Closed' }));
    await waitFor(() => expect(history.location.search).toBe('?state=closed'));
    fireEvent.change(screen.getByLabelText('Type'), {
      target: { value: 'community-inclusion' },
    });
    await waitFor(() =>
      expect(history.location.search).toBe('?state=closed&type=community-inclusion'),
    );
    await screen.findByRole('option', { name: 'Seabird Monitoring' });
    fireEvent.change(screen.getByLabelText('Community'), { target: { value: COMMUNITY } });
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'updated' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Created by me' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Search requests by title' }), {
      target: { value: 'gannet' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(history.location.search).toBe(
        `?q=gannet&state=closed&type=community-inclusion&community=${COMMUNITY}&mine=1&sort=updated`,
      ),
    );
    expect(await screen.findByText('No request matches these filters.')).toBeTruthy();
    const last = listCalls(requests).at(-1)!;
    expect(Object.fromEntries(last.searchParams)).toEqual({
      expand: '1',
      sort: 'updated',
      page: '1',
      size: '20',
      q: 'gannet',
      is_open: 'false',
      type: 'community-inclusion',
      community: COMMUNITY,
      created_by: 'me',
    });

    // Back: the search undone, the filters before it kept.
    act(() => history.go(-1));
    await waitFor(() =>
      expect(history.location.search).toBe(
        `?state=closed&type=community-inclusion&community=${COMMUNITY}&mine=1&sort=updated`,
      ),
    );
    expect(
      screen.getByRole<HTMLInputElement>('textbox', { name: 'Search requests by title' }).value,
    ).toBe('');
    expect(screen.getByLabelText<HTMLSelectElement>('Sort by').value).toBe('updated');
  });

  it('pages through a long list', async () => {
    const requests = stubFetch((request) => {
      const url = new URL(request.url, SITE);
      if (url.pathname !== '/api/user/requests') return hits([]);
      const page = url.searchParams.get('page');
      return hits([hit(`r-${page}`, `On page ${page}`)], 45);
    });
    const { history } = renderApp({ path: '/me/requests' });
    await screen.findByRole('link', { name: 'On page 1' });
    expect(screen.getByText('45 requests')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await screen.findByRole('link', { name: 'On page 3' });
    expect(history.location.search).toBe('?page=3');
    expect(listCalls(requests).at(-1)!.searchParams.get('page')).toBe('3');
  });

  it("shows a community's requests to its curators, and not-found to others", async () => {
    const curated = buildCommunity({
      id: COMMUNITY,
      slug: 'seabirds',
      title: 'Seabird Monitoring',
      ui: { membership_role: 'curator' },
    });
    const requests = stubFetch((request) => {
      const url = new URL(request.url, SITE);
      if (url.pathname === '/api/communities/seabirds') return jsonResponse(200, curated);
      return hits([hit('r-1', 'Gannet colony counts')], 1);
    });
    renderApp({ path: '/communities/seabirds/requests' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Requests to Seabird Monitoring' }),
    ).toBeTruthy();
    await screen.findByRole('link', { name: 'Gannet colony counts' });
    expect(listCalls(requests).at(-1)!.pathname).toBe(`/api/communities/${COMMUNITY}/requests`);
    // The community filter is the page's own.
    expect(screen.queryByLabelText('Community')).toBeNull();
  });

  it('answers not found to a member who does not curate', async () => {
    const reader = buildCommunity({
      id: COMMUNITY,
      title: 'Seabird Monitoring',
      slug: 'seabirds',
      ui: { membership_role: 'reader' },
    });
    stubFetch(() => jsonResponse(200, reader));
    renderApp({ path: '/communities/seabirds/requests' });
    expect(await screen.findByText('Page not found')).toBeTruthy();
  });

  it('links the community page to its requests with their open count, for its curators only', async () => {
    const page = (role: string | undefined) =>
      stubFetch((request) => {
        const url = new URL(request.url, SITE);
        if (url.pathname === '/api/communities/seabirds')
          return jsonResponse(
            200,
            buildCommunity({
              id: COMMUNITY,
              slug: 'seabirds',
              title: 'Seabird Monitoring',
              ...(role ? { ui: { membership_role: role } } : {}),
            }),
          );
        if (url.pathname === `/api/communities/${COMMUNITY}/requests`)
          return hits([hit('r-1', 'One')], 4);
        return hits([]);
      });
    page('manager');
    const { unmount } = renderApp({ path: '/communities/seabirds' });
    const link = await screen.findByRole('link', { name: 'Requests (4 open)' });
    expect(link.getAttribute('href')).toBe('/communities/seabirds/requests');
    unmount();

    page('reader');
    renderApp({ path: '/communities/seabirds' });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('link', { name: /Requests \(/ })).toBeNull();
  });
});

describe('the header', () => {
  it('shows how many requests wait for the person, from the page, and links to them', async () => {
    serve(() => []);
    renderApp({ path: '/communities', bootstrap: { awaitingRequests: 3 } });
    const link = await screen.findByRole('link', { name: 'Requests, 3 waiting for your decision' });
    expect(link.getAttribute('href')).toBe('/me/requests');
  });

  it('asks again when the page did not say', async () => {
    const requests = serve(() => []);
    renderApp({ path: '/communities', bootstrap: { awaitingRequests: null } });
    expect(
      await screen.findByRole('link', { name: 'Requests, 2 waiting for your decision' }),
    ).toBeTruthy();
    expect(requests.some((r) => r.url === '/api/user/requests/count')).toBe(true);
  });

  it('offers no requests to someone signed out', async () => {
    serve(() => []);
    renderApp({ path: '/communities', bootstrap: { user: null } });
    await screen.findByRole('link', { name: 'Communities' });
    expect(screen.queryByRole('link', { name: /^Requests/ })).toBeNull();
  });
});

describe('stepping through a list', () => {
  it('opens the next open request of the list it came from, and leads back to it', async () => {
    serve((url) =>
      url.searchParams.get('is_open') === 'true'
        ? [hit('r-1', 'First'), hit('r-2', 'Second'), hit('r-3', 'Third')]
        : [],
    );
    const { history } = renderApp({ path: '/me/requests?sort=oldest' });
    fireEvent.click(await screen.findByRole('link', { name: 'First' }));
    await screen.findByRole('heading', { level: 1, name: 'Request r-1' });
    const nav = screen.getByRole('navigation', { name: 'Requests list' });
    const next = await within(nav).findByRole('link', { name: 'Next open request' });
    expect(next.getAttribute('href')).toBe('/me/requests/r-2');
    fireEvent.click(next);
    await screen.findByRole('heading', { level: 1, name: 'Request r-2' });
    fireEvent.click(await screen.findByRole('link', { name: 'Next open request' }));
    await screen.findByRole('heading', { level: 1, name: 'Request r-3' });
    expect(await screen.findByText('No further open requests in this list.')).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Back to the list' }));
    await waitFor(() => expect(history.location.pathname).toBe('/me/requests'));
    expect(history.location.search).toBe('?sort=oldest');
  });

  it('tells the server the request was seen when it is opened', async () => {
    const requests = serve(() => []);
    renderApp({ path: '/me/requests/r-5' });
    await screen.findByRole('heading', { level: 1, name: 'Request r-5' });
    await waitFor(() =>
      expect(
        requests.filter((r) => r.method === 'PUT').map((r) => new URL(r.url, SITE).pathname),
      ).toEqual(['/api/requests/r-5/seen']),
    );
  });

  it('offers no stepping to a request opened by its address', async () => {
    serve(() => []);
    renderApp({ path: '/me/requests/r-9' });
    await screen.findByRole('heading', { level: 1, name: 'Request r-9' });
    expect(screen.queryByRole('navigation', { name: 'Requests list' })).toBeNull();
  });
});
