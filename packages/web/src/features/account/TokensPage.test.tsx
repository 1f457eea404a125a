import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetchSequence } from '../../test/fetch';
import { renderApp } from '../../test/renderApp';

const LAPTOP = {
  id: '3',
  name: 'laptop',
  created: '2024-05-01T10:00:00.000000+00:00',
  last_used: null,
};
const CI = { id: '4', name: 'ci', created: '2024-05-02T10:00:00.000000+00:00', last_used: null };
const list = (...hits: unknown[]) => jsonResponse(200, { hits: { hits, total: hits.length } });

describe('TokensPage', () => {
  it('creates a token, shows its secret once, and lists it', async () => {
    const requests = stubFetchSequence(
      list(LAPTOP),
      jsonResponse(201, { ...CI, token: 'cairn_secret123' }),
      list(CI, LAPTOP),
    );
    renderApp({ path: '/account/tokens' });
    expect(await screen.findByRole('cell', { name: 'laptop' })).toBeTruthy();

    fireEvent.change(screen.getByRole('textbox', { name: /Name/ }), { target: { value: ' ci ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));

    expect((await screen.findByTestId('new-token')).textContent).toBe('cairn_secret123');
    expect(screen.getByText('Copy it now: it will not be shown again.')).toBeTruthy();
    expect(await screen.findByRole('cell', { name: 'ci' })).toBeTruthy();
    expect(requests[1]).toMatchObject({
      method: 'POST',
      url: '/api/user/tokens',
      body: { name: 'ci' },
    });
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: /Name/ }).value).toBe('');
  });

  it('revokes a token', async () => {
    const requests = stubFetchSequence(
      list(LAPTOP, CI),
      new Response(null, { status: 204 }),
      list(CI),
    );
    renderApp({ path: '/account/tokens' });

    fireEvent.click(await screen.findByRole('button', { name: 'Revoke: laptop' }));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'laptop' })).toBeNull());
    expect(requests[1]).toMatchObject({ method: 'DELETE', url: '/api/user/tokens/3' });
    expect(within(screen.getByRole('table')).getByRole('cell', { name: 'ci' })).toBeTruthy();
  });

  it("shows the server's message when a token cannot be made", async () => {
    stubFetchSequence(
      list(),
      jsonResponse(400, {
        status: 400,
        message: 'A validation error occurred.',
        errors: [{ field: 'name', messages: ['Longer than maximum length 100.'] }],
      }),
    );
    renderApp({ path: '/account/tokens' });
    expect(await screen.findByText('You have no tokens.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByText('A validation error occurred.')).toBeTruthy();
    expect(screen.queryByTestId('new-token')).toBeNull();
  });

  it('links to the page from the header and offers log-out', () => {
    stubFetchSequence(list());
    renderApp({ path: '/account/tokens' });
    expect(screen.getByRole('link', { name: 'Access tokens' }).getAttribute('href')).toBe(
      '/account/tokens',
    );
    expect(screen.getByRole('link', { name: 'Log out' }).getAttribute('href')).toBe('/logout');
  });
});
