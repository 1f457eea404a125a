import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildRecord } from '../../test/builders';
import {
  errorResponse,
  jsonResponse,
  stubFetch,
  stubFetchSequence,
  type RecordedRequest,
} from '../../test/fetch';
import { renderApp } from '../../test/renderApp';
import { expectRefusedAtBox, refusedQuery, searchFor } from '../../test/search';

const SITE = 'http://127.0.0.1:5000';

function buildCommunity(overrides: Record<string, unknown> = {}) {
  const id = (overrides.id as string | undefined) ?? 'c-1';
  const slug = (overrides.slug as string | undefined) ?? 'seabirds';
  const api = `${SITE}/api/communities/${id}`;
  return {
    id,
    slug,
    metadata: {
      title: 'Seabird Monitoring',
      description: 'Counts of seabird colonies.',
      curation_policy: '<p>We check <em>units</em>.</p>',
    },
    access: {
      visibility: 'public',
      members_visibility: 'public',
      record_submission_policy: 'open',
      review_policy: 'closed',
    },
    theme: { enabled: false },
    links: {
      self: api,
      self_html: `${SITE}/communities/${slug}`,
      logo: `${api}/logo`,
      records: `${api}/records`,
      public_members: `${api}/members/public`,
    },
    ui: { has_logo: false, permissions: {} },
    ...overrides,
  };
}

const hits = (list: unknown[], total = list.length) =>
  jsonResponse(200, { hits: { hits: list, total } });

describe('CommunitiesPage', () => {
  it('lists communities with Verified badges, and offers signed-in people to create one', async () => {
    const requests = stubFetchSequence(
      hits([
        buildCommunity({
          theme: { enabled: true },
          ui: { has_logo: true, membership_role: 'curator' },
        }),
        buildCommunity({
          id: 'c-2',
          slug: 'glaciers',
          metadata: { title: 'Glaciers' },
          access: { visibility: 'restricted' },
        }),
      ]),
    );
    renderApp({ path: '/communities' });

    const first = await screen.findByRole('link', { name: 'Seabird Monitoring' });
    expect(first.getAttribute('href')).toBe('/communities/seabirds');
    const item = first.closest('li')!;
    expect(within(item).getByText('Verified')).toBeTruthy();
    expect(within(item).getByText('Curator')).toBeTruthy();
    expect(item.querySelector('img')?.getAttribute('src')).toBe('/api/communities/c-1/logo');
    const second = screen.getByRole('link', { name: 'Glaciers' }).closest('li')!;
    expect(within(second).queryByText('Verified')).toBeNull();
    expect(within(second).getByText('Restricted')).toBeTruthy();
    expect(screen.getByText('2 communities')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'New community' }).getAttribute('href')).toBe(
      '/communities/new',
    );
    expect(requests[0]?.url).toBe('/api/communities?sort=newest&page=1&size=10');
  });

  it('searches, sorts and pages through the address', async () => {
    const requests = stubFetch(() =>
      hits(
        Array.from({ length: 10 }, (_, i) =>
          buildCommunity({ id: `c-${i}`, slug: `c${i}`, metadata: { title: `Community ${i}` } }),
        ),
        35,
      ),
    );
    renderApp({ path: '/communities', bootstrap: { user: null } });
    await screen.findByText('Community 0');
    expect(screen.queryByRole('link', { name: 'New community' })).toBeNull();

    fireEvent.change(screen.getByRole('textbox', { name: 'Search communities' }), {
      target: { value: 'sea birds' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(requests.at(-1)?.url).toBe(
        '/api/communities?q=sea+birds&sort=bestmatch&page=1&size=10',
      ),
    );
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), {
      target: { value: 'oldest' },
    });
    await waitFor(() =>
      expect(requests.at(-1)?.url).toBe('/api/communities?q=sea+birds&sort=oldest&page=1&size=10'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Page 4' }));
    await waitFor(() =>
      expect(requests.at(-1)?.url).toBe('/api/communities?q=sea+birds&sort=oldest&page=4&size=10'),
    );
  });

  it('says when nothing matches', async () => {
    stubFetchSequence(hits([]));
    renderApp({ path: '/communities?q=zzz' });
    expect(await screen.findByText('No community matches your search.')).toBeTruthy();
  });

  it('says why the search failed', async () => {
    stubFetchSequence(jsonResponse(400, { status: 400, message: 'Invalid page: 0.' }));
    renderApp({ path: '/communities' });
    expect(await screen.findByText('The communities could not be loaded.')).toBeTruthy();
    expect(screen.getByText('Invalid page: 0.')).toBeTruthy();
  });
});

describe('CommunityPage', () => {
  const gannets = buildRecord({
    id: 'rec-1',
    metadata: {
      title: 'Gannet colony counts',
      publication_date: '2024-05-01',
      creators: [{ person_or_org: { type: 'personal', name: 'Lovelace, Ada' } }],
    },
  });

  /** The community's records search answered with `records`, facets counted as the server does. */
  const recordsAnswer = (records: unknown[] = [gannets], total = records.length) =>
    jsonResponse(200, {
      hits: { hits: records, total },
      aggregations: {
        resource_type: {
          buckets: [
            { key: 'dataset', doc_count: 4, label: 'Dataset' },
            { key: 'software', doc_count: 1, label: 'Software' },
          ],
        },
        // Every record here is in this community: counted, but not offered.
        community: { buckets: [{ key: 'c-1', doc_count: 5, label: 'Seabird Monitoring' }] },
      },
      sortBy: 'newest',
      links: {},
    });

  function serveCommunity(
    community: ReturnType<typeof buildCommunity>,
    members: Response = hits([]),
    records: (request: RecordedRequest) => Response = () => recordsAnswer(),
  ) {
    return stubFetch((req) => {
      const path = req.url.split('?')[0] ?? '';
      if (path === '/api/communities/seabirds') return jsonResponse(200, community);
      if (path === '/api/communities/c-1/records') return records(req);
      if (path === '/api/communities/c-1/members/public') return members;
      if (path === '/api/communities/c-1/members') return members;
      throw new Error(`Unexpected request: ${req.method} ${req.url}`);
    });
  }

  const recordSearches = (requests: RecordedRequest[]) =>
    requests.map((r) => r.url).filter((url) => url.startsWith('/api/communities/c-1/records'));

  it('shows the community, its records, its curation policy in words and its members', async () => {
    const requests = serveCommunity(
      buildCommunity({ theme: { enabled: true }, ui: { has_logo: true } }),
      hits([{ id: 'c-1:2', member: { type: 'user', id: '2', name: 'Grace Hopper' } }]),
    );
    renderApp({ path: '/communities/seabirds', bootstrap: { user: null } });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Seabird Monitoring' }),
    ).toBeTruthy();
    expect(screen.getByText('Verified')).toBeTruthy();
    expect(screen.getByText('Counts of seabird colonies.')).toBeTruthy();
    expect(
      (await screen.findByRole('link', { name: 'Gannet colony counts' })).getAttribute('href'),
    ).toBe('/records/rec-1');
    const item = screen.getByRole('link', { name: 'Gannet colony counts' }).closest('li')!;
    expect(within(item).getByText('Lovelace, Ada')).toBeTruthy();
    expect(within(item).getByText('Published May 1, 2024')).toBeTruthy();
    const policy = screen.getByRole('region', { name: 'Curation policy' });
    expect(
      within(policy).getByText('Every submission is reviewed by a curator before it is published.'),
    ).toBeTruthy();
    expect(within(policy).getByText('Anyone with an account may submit records.')).toBeTruthy();
    expect(within(policy).getByText('units').tagName).toBe('EM');
    const members = screen.getByRole('region', { name: 'Members' });
    expect(await within(members).findByText('Grace Hopper')).toBeTruthy();
    expect(recordSearches(requests)).toEqual([
      '/api/communities/c-1/records?sort=newest&page=1&size=10',
    ]);
    // A visitor reads the public list, which names no roles.
    expect(requests.map((r) => r.url)).toContain('/api/communities/c-1/members/public?size=25');
    expect(within(members).queryByText('Curator')).toBeNull();
  });

  it('shows its members with their roles to a member, also where the public sees none', async () => {
    const requests = serveCommunity(
      buildCommunity({
        access: {
          visibility: 'public',
          members_visibility: 'restricted',
          record_submission_policy: 'open',
          review_policy: 'closed',
        },
        links: { ...buildCommunity().links, members: `${SITE}/api/communities/c-1/members` },
        ui: { has_logo: false, membership_role: 'curator' },
      }),
      hits([
        { id: 'c-1:1', member: { type: 'user', id: '1', name: 'Grace Hopper' }, role: 'owner' },
        { id: 'c-1:2', member: { type: 'user', id: '2', name: 'Ada Lovelace' }, role: 'curator' },
      ]),
    );
    renderApp({ path: '/communities/seabirds' });

    const members = await screen.findByRole('region', { name: 'Members' });
    const grace = (await within(members).findByText('Grace Hopper')).closest('li');
    expect(within(grace!).getByText('Owner')).toBeTruthy();
    const ada = within(members).getByText('Ada Lovelace').closest('li');
    expect(within(ada!).getByText('Curator')).toBeTruthy();
    expect(within(members).getByText('Only members of this community see this list.')).toBeTruthy();
    expect(requests.map((r) => r.url)).toContain('/api/communities/c-1/members?size=25');
    expect(requests.map((r) => r.url)).not.toContain('/api/communities/c-1/members/public?size=25');
  });

  it('explains member-only submission and review policies, and hidden members', async () => {
    serveCommunity(
      buildCommunity({
        access: {
          visibility: 'restricted',
          members_visibility: 'restricted',
          record_submission_policy: 'open',
          review_policy: 'members',
        },
      }),
      errorResponse('PERMISSION_DENIED'),
    );
    renderApp({ path: '/communities/seabirds' });

    const policy = await screen.findByRole('region', { name: 'Curation policy' });
    expect(
      within(policy).getByText('Only members can see this community and its records.'),
    ).toBeTruthy();
    expect(within(policy).getByText('Only members may submit records.')).toBeTruthy();
    expect(
      within(policy).getByText(
        'Members publish without review; submissions from others are reviewed.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('This community does not show its members publicly.')).toBeTruthy();
  });

  it('searches its records as /search does, with the community fixed, every choice in the address', async () => {
    const requests = serveCommunity(buildCommunity());
    const { history } = renderApp({
      path: '/communities/seabirds?community=elsewhere',
      bootstrap: { user: null },
    });

    const records = await screen.findByRole('region', { name: 'Records' });
    await within(records).findByRole('link', { name: 'Gannet colony counts' });
    // A community in the address is not this page's to choose: neither sent nor offered.
    expect(recordSearches(requests)).toEqual([
      '/api/communities/c-1/records?sort=newest&page=1&size=10',
    ]);
    const filters = within(records).getByRole('region', { name: 'Narrow your search' });
    expect(
      within(filters)
        .getAllByRole('group')
        .map((g) => g.querySelector('legend')?.textContent),
    ).toEqual(['Resource type']);
    expect(within(filters).queryByText('Community')).toBeNull();
    expect(within(records).getByRole('heading', { level: 3, name: 'Results' })).toBeTruthy();
    expect(
      within(records).getByRole('heading', { level: 4, name: 'Gannet colony counts' }),
    ).toBeTruthy();

    const search = within(records).getByRole('search', { name: "Search this community's records" });
    fireEvent.change(
      within(search).getByRole('textbox', { name: "Search this community's records" }),
      {
        target: { value: 'gannet' },
      },
    );
    fireEvent.click(within(search).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(history.location.search).toBe('?q=gannet'));
    expect(history.location.pathname).toBe('/communities/seabirds');
    fireEvent.click(within(filters).getByRole('checkbox', { name: 'Dataset (4)' }));
    await waitFor(() => expect(history.location.search).toBe('?q=gannet&resource_type=dataset'));
    fireEvent.change(within(records).getByRole('combobox', { name: 'Results per page' }), {
      target: { value: '20' },
    });
    await waitFor(() =>
      expect(history.location.search).toBe('?q=gannet&size=20&resource_type=dataset'),
    );
    await waitFor(() =>
      expect(recordSearches(requests).at(-1)).toBe(
        '/api/communities/c-1/records?q=gannet&sort=bestmatch&page=1&size=20&resource_type=dataset',
      ),
    );

    // Back: the search before, its box and boxes as they were.
    act(() => history.go(-2));
    await waitFor(() => expect(history.location.search).toBe('?q=gannet'));
    await waitFor(() =>
      expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Dataset (4)' }).checked).toBe(
        false,
      ),
    );
    expect(
      screen.getByRole<HTMLInputElement>('textbox', { name: "Search this community's records" })
        .value,
    ).toBe('gannet');
    expect(recordSearches(requests).at(-1)).toBe(
      '/api/communities/c-1/records?q=gannet&sort=bestmatch&page=1&size=10',
    );
    // The rest of the page stays.
    expect(screen.getByRole('region', { name: 'Curation policy' })).toBeTruthy();
  });

  it('offers the query syntax help beside its search box', async () => {
    serveCommunity(buildCommunity());
    renderApp({ path: '/communities/seabirds' });

    const records = await screen.findByRole('region', { name: 'Records' });
    fireEvent.click(within(records).getByRole('button', { name: 'Search syntax' }));
    const help = await screen.findByRole('dialog', { name: 'How to search' });
    expect(within(help).getByText('metadata.title:glacier')).toBeTruthy();
  });

  it('shows the server’s message for a query it refuses, at the search box', async () => {
    serveCommunity(buildCommunity(), hits([]), (request) =>
      request.url.includes('q=')
        ? refusedQuery("Syntax error in query: unexpected ')' at position 7.")
        : recordsAnswer([]),
    );
    renderApp({ path: '/communities/seabirds?q=gannet)' });

    const box = await expectRefusedAtBox(
      "Search this community's records",
      "Syntax error in query: unexpected ')' at position 7.",
    );
    expect(screen.queryByText('No records match your search.')).toBeNull();

    searchFor(box, '');
    expect(
      await screen.findByText('No records have been published in this community yet.'),
    ).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when none of its records match', async () => {
    serveCommunity(buildCommunity(), hits([]), () => recordsAnswer([]));
    renderApp({ path: '/communities/seabirds?q=albatross' });
    expect(await screen.findByText('No records match your search.')).toBeTruthy();
  });

  it('says why a community cannot be shown', async () => {
    stubFetchSequence(jsonResponse(404, { status: 404, message: 'The community does not exist.' }));
    renderApp({ path: '/communities/seabirds' });
    expect(await screen.findByText('The community does not exist.')).toBeTruthy();
  });
});

describe('NewCommunityPage', () => {
  it('checks the identifier with the API’s words before sending anything', async () => {
    const requests = stubFetch(() => {
      throw new Error('nothing should be sent');
    });
    renderApp({ path: '/communities/new' });

    fireEvent.change(await screen.findByRole('textbox', { name: /Identifier/ }), {
      target: { value: 'sea birds!' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create community' }));
    expect(
      await screen.findByText('The identifier should contain only letters, numbers, or dashes.'),
    ).toBeTruthy();
    expect(screen.getByText('Title is a required field.')).toBeTruthy();
    expect(requests).toHaveLength(0);
  });

  it('creates a community with its policies and opens its page', async () => {
    const requests = stubFetch((req) => {
      if (req.method === 'POST') return jsonResponse(201, buildCommunity());
      if (req.url.startsWith('/api/communities/seabirds'))
        return jsonResponse(200, buildCommunity());
      return hits([]);
    });
    renderApp({ path: '/communities/new' });

    fireEvent.change(await screen.findByRole('textbox', { name: /Title/ }), {
      target: { value: ' Seabird Monitoring ' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: /Identifier/ }), {
      target: { value: 'seabirds' },
    });
    fireEvent.click(screen.getByRole('radio', { name: 'Restricted' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Only members may submit records.' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create community' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Seabird Monitoring' }),
    ).toBeTruthy();
    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: '/api/communities',
      body: {
        slug: 'seabirds',
        metadata: { title: 'Seabird Monitoring' },
        access: {
          visibility: 'restricted',
          review_policy: 'closed',
          record_submission_policy: 'closed',
        },
      },
    });
  });

  it('puts a taken identifier under its field', async () => {
    stubFetchSequence(
      jsonResponse(400, {
        status: 400,
        message: 'A validation error occurred.',
        errors: [{ field: 'slug', messages: ['A community with this identifier already exists.'] }],
      }),
    );
    renderApp({ path: '/communities/new' });
    fireEvent.change(await screen.findByRole('textbox', { name: /Title/ }), {
      target: { value: 'Seabirds' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: /Identifier/ }), {
      target: { value: 'seabirds' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create community' }));
    const slug = screen.getByRole('textbox', { name: /Identifier/ });
    await waitFor(() => expect(slug.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('A community with this identifier already exists.')).toBeTruthy();
  });

  it('sends people who are not signed in to the login page', () => {
    renderApp({ path: '/communities/new', bootstrap: { user: null } });
    expect(screen.getByRole('heading', { level: 1, name: 'Log in' })).toBeTruthy();
  });
});
