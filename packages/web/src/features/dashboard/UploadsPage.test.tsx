import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildDraft, buildRecord } from '../../test/builders';
import { errorResponse, jsonResponse, stubFetch, stubFetchSequence } from '../../test/fetch';
import { renderApp } from '../../test/renderApp';
import { expectRefusedAtBox, searchFor } from '../../test/search';

function page(hits: unknown[], total = hits.length) {
  return jsonResponse(200, { hits: { hits, total } });
}

describe('UploadsPage', () => {
  it('lists drafts to edit and records to view, most recently updated first', async () => {
    const requests = stubFetchSequence(
      page([
        buildDraft({
          id: 'draft-1',
          metadata: { title: 'Work in progress' },
          updated: '2024-05-02T10:00:00+00:00',
        }),
        buildRecord({ id: 'rec-1', metadata: { title: 'Finished work' } }),
      ]),
    );
    renderApp({ path: '/me/uploads' });

    const draftLink = await screen.findByRole('link', { name: 'Work in progress' });
    expect(draftLink.getAttribute('href')).toBe('/uploads/draft-1');
    expect(screen.getByRole('link', { name: 'Finished work' }).getAttribute('href')).toBe(
      '/records/rec-1',
    );
    const table = screen.getByRole('table');
    expect(within(table).getByText('Draft')).toBeTruthy();
    expect(within(table).getByText('Published')).toBeTruthy();
    expect(
      screen.getByRole('link', { name: 'Continue editing: Work in progress' }).getAttribute('href'),
    ).toBe('/uploads/draft-1');
    expect(screen.getByText('May 2, 2024')).toBeTruthy();
    expect(screen.getByText('2 uploads')).toBeTruthy();
    expect(requests[0]?.url).toBe('/api/user/records?sort=updated-desc&page=1&size=10');
  });

  it('lists what others shared under its own tab, kept in the address, drafts to edit only', async () => {
    const requests = stubFetchSequence(
      page([buildRecord({ id: 'rec-1', metadata: { title: 'Mine' } })]),
      page([
        buildDraft({ id: 'draft-9', metadata: { title: 'Their draft' } }),
        buildRecord({ id: 'rec-9', metadata: { title: 'Their record' } }),
      ]),
    );
    const { history } = renderApp({ path: '/me/uploads' });
    await screen.findByRole('link', { name: 'Mine' });
    fireEvent.click(screen.getByRole('tab', { name: 'Shared with me' }));
    expect(await screen.findByRole('link', { name: 'Their draft' })).toBeTruthy();
    expect(history.location.search).toBe('?shared_with_me=true');
    expect(requests[1]?.url).toBe(
      '/api/user/records?sort=updated-desc&page=1&size=10&shared_with_me=true',
    );
    expect(
      screen.getByRole('link', { name: 'Continue editing: Their draft' }).getAttribute('href'),
    ).toBe('/uploads/draft-9');
    // A new version or an edit of a published record is for those who manage it.
    const record = screen.getByRole('link', { name: 'Their record' }).closest('tr')!;
    expect(within(record).queryByRole('button')).toBeNull();
    expect(screen.getAllByLabelText('Search what is shared with me').length).toBeGreaterThan(0);
  });

  it("names each upload's version as its landing page does", async () => {
    stubFetchSequence(
      page([
        buildDraft({
          id: 'draft-3',
          metadata: { title: 'Third take' },
          versions: { index: 3, is_latest: false },
        }),
        buildRecord({
          id: 'rec-2',
          metadata: { title: 'Second take', version: '2.0' },
          versions: { index: 2, is_latest: true },
        }),
      ]),
    );
    renderApp({ path: '/me/uploads' });

    const third = (await screen.findByRole('link', { name: 'Third take' })).closest('tr')!;
    expect(within(third).getByText('Version 3')).toBeTruthy();
    const second = screen.getByRole('link', { name: 'Second take' }).closest('tr')!;
    expect(within(second).getByText('2.0')).toBeTruthy();
  });

  it('searches, filters, sorts and pages through the address', async () => {
    const requests = stubFetch(() =>
      page(
        Array.from({ length: 10 }, (_, i) =>
          buildRecord({ id: `rec-${i}`, metadata: { title: `Record ${i}` } }),
        ),
        25,
      ),
    );
    renderApp({ path: '/me/uploads' });
    await screen.findByText('Record 0');

    fireEvent.change(screen.getByRole('textbox', { name: 'Search my uploads' }), {
      target: { value: 'ocean' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(requests.at(-1)?.url).toBe('/api/user/records?q=ocean&sort=bestmatch&page=1&size=10'),
    );

    fireEvent.click(screen.getByRole('radio', { name: 'Drafts' }));
    await waitFor(() =>
      expect(requests.at(-1)?.url).toBe(
        '/api/user/records?q=ocean&sort=bestmatch&page=1&size=10&is_published=false',
      ),
    );

    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), {
      target: { value: 'oldest' },
    });
    await waitFor(() =>
      expect(requests.at(-1)?.url).toBe(
        '/api/user/records?q=ocean&sort=oldest&page=1&size=10&is_published=false',
      ),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() =>
      expect(requests.at(-1)?.url).toBe(
        '/api/user/records?q=ocean&sort=oldest&page=3&size=10&is_published=false',
      ),
    );
  });

  it('keeps a filter changed while the page still shows the address before it', async () => {
    stubFetch(() => page([buildRecord({ id: 'rec-1', metadata: { title: 'Finished work' } })]));
    const { history } = renderApp({ path: '/me/uploads' });
    await screen.findByRole('link', { name: 'Finished work' });

    // Both changes land before React renders the first: the second builds on the address.
    act(() => {
      fireEvent.click(screen.getByRole('radio', { name: 'Drafts' }));
      fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), {
        target: { value: 'oldest' },
      });
    });
    expect(history.location.search).toBe('?status=draft&sort=oldest');
  });

  it('offers the query syntax help of /search beside its box', async () => {
    stubFetchSequence(page([]));
    renderApp({ path: '/me/uploads' });

    const search = await screen.findByRole('search', { name: 'Search my uploads' });
    fireEvent.click(within(search).getByRole('button', { name: 'Search syntax' }));
    const help = await screen.findByRole('dialog', { name: 'How to search' });
    expect(within(help).getByText('glacier AND NOT arctic')).toBeTruthy();
  });

  it('shows the server’s message for a query it cannot parse, at the search box', async () => {
    stubFetch((request) =>
      request.url.includes('q=')
        ? errorResponse('INVALID_QUERY', {
            message: 'Invalid query string syntax. Unexpected end of query after "(ocean".',
          })
        : page([buildRecord({ id: 'rec-1', metadata: { title: 'Finished work' } })]),
    );
    renderApp({ path: '/me/uploads?q=(ocean' });

    const box = await expectRefusedAtBox(
      'Search my uploads',
      'Invalid query string syntax. Unexpected end of query after "(ocean".',
    );
    expect(screen.queryByText('Your uploads could not be loaded.')).toBeNull();

    // A query it can run clears the message.
    searchFor(box, '');
    expect(await screen.findByRole('link', { name: 'Finished work' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says the uploads could not be loaded when the list fails without a query', async () => {
    stubFetchSequence(errorResponse('PERMISSION_DENIED'));
    renderApp({ path: '/me/uploads' });

    expect(await screen.findByText('Your uploads could not be loaded.')).toBeTruthy();
    expect(screen.getByText('Permission denied.')).toBeTruthy();
    const box = screen.getByRole('textbox', { name: 'Search my uploads' });
    expect(box.getAttribute('aria-invalid')).not.toBe('true');
  });

  it('opens a new version of a published record in the form', async () => {
    const requests = stubFetchSequence(
      page([buildRecord({ id: 'rec-1', metadata: { title: 'Finished work' } })]),
      jsonResponse(201, buildDraft({ id: 'rec-2', metadata: { title: 'Finished work' } })),
      jsonResponse(200, buildDraft({ id: 'rec-2', metadata: { title: 'Finished work' } })),
    );
    renderApp({ path: '/me/uploads' });

    fireEvent.click(await screen.findByRole('button', { name: 'New version: Finished work' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit upload' })).toBeTruthy();
    expect(requests[1]).toMatchObject({
      method: 'POST',
      url: '/api/records/rec-1/versions?expand=1',
    });
  });

  it('says what went wrong when a new version cannot be made', async () => {
    stubFetchSequence(
      page([buildRecord({ id: 'rec-1', metadata: { title: 'Finished work' } })]),
      errorResponse('PERMISSION_DENIED'),
    );
    renderApp({ path: '/me/uploads' });

    fireEvent.click(await screen.findByRole('button', { name: 'New version: Finished work' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Permission denied.');
  });

  it('sends people who are not signed in to the login page', () => {
    renderApp({ path: '/me/uploads', bootstrap: { user: null } });
    expect(screen.getByRole('heading', { level: 1, name: 'Log in' })).toBeTruthy();
  });
});
