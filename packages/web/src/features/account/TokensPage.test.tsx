import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetchSequence } from '../../test/fetch';
import { ADA } from '../../test/builders';
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

  it('turns e-mail notifications off and on, saving each change with the account', async () => {
    const requests = stubFetchSequence(
      list(),
      jsonResponse(200, { locale: null, email_notifications: false }),
      jsonResponse(200, { locale: null, email_notifications: true }),
    );
    renderApp({ path: '/account/tokens' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your account' })).toBeTruthy();
    const email = screen.getByRole<HTMLInputElement>('switch', {
      name: /^Send me e-mail about my requests/,
    });
    expect(email.checked).toBe(true);
    fireEvent.click(email);
    expect(await screen.findByText('Saved: you will receive no e-mail.')).toBeTruthy();
    expect(email.checked).toBe(false);
    expect(requests[1]).toMatchObject({
      method: 'PUT',
      url: '/api/user/preferences',
      body: { email_notifications: false },
    });
    fireEvent.click(email);
    expect(await screen.findByText('Saved: you will receive e-mail.')).toBeTruthy();
    expect(email.checked).toBe(true);
    expect(requests[2]).toMatchObject({ body: { email_notifications: true } });
  });

  it('shows the setting kept with the account, and says when a change could not be saved', async () => {
    stubFetchSequence(list(), jsonResponse(500, { status: 500, message: 'Internal server error' }));
    renderApp({
      path: '/account/tokens',
      bootstrap: { user: { ...ADA, locale: null, emailNotifications: false } },
    });
    const email = await screen.findByRole<HTMLInputElement>('switch', {
      name: /^Send me e-mail about my requests/,
    });
    expect(email.checked).toBe(false);
    fireEvent.click(email);
    expect(await screen.findByText('The setting could not be saved')).toBeTruthy();
    expect(email.checked).toBe(false);
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
