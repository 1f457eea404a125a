import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../../browser';
import { ADA } from '../../test/builders';
import { jsonResponse, stubFetchSequence } from '../../test/fetch';
import { descriptionOf, renderApp } from '../../test/renderApp';

function logIn(email: string, password: string) {
  fireEvent.change(screen.getByRole('textbox', { name: 'Email' }), { target: { value: email } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('LoginPage', () => {
  it('shows the field errors of a 400 answer under their inputs', async () => {
    stubFetchSequence(
      jsonResponse(400, {
        status: 400,
        message: 'A validation error occurred.',
        errors: [{ field: 'email', messages: ['Not a valid email address.'] }],
      }),
    );
    renderApp({ path: '/login', bootstrap: { user: null } });

    logIn('ada@', 'secret-password');

    const email = screen.getByRole('textbox', { name: 'Email' });
    await waitFor(() => expect(descriptionOf(email)).toContain('Not a valid email address.'));
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says why the credentials were refused', async () => {
    stubFetchSequence(
      jsonResponse(401, {
        status: 401,
        message: 'Invalid email or password.',
        code: 'INVALID_CREDENTIALS',
      }),
    );
    renderApp({ path: '/login', bootstrap: { user: null } });

    logIn('ada@example.org', 'wrong-password');

    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email or password.');
  });

  it('says how long to wait when the attempts are throttled', async () => {
    stubFetchSequence(
      jsonResponse(429, {
        status: 429,
        message: 'Too many attempts. Try again in 15 minutes.',
        code: 'RATE_LIMITED',
      }),
    );
    renderApp({ path: '/login', bootstrap: { user: null } });

    logIn('ada@example.org', 'a-guess');

    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Try again in 15 minutes.',
    );
  });

  it('asks for what is missing without calling the server', async () => {
    const requests = stubFetchSequence();
    renderApp({ path: '/login', bootstrap: { user: null } });

    logIn('', '');

    const email = screen.getByRole('textbox', { name: 'Email' });
    await waitFor(() => expect(descriptionOf(email)).toContain('Enter your email address.'));
    expect(requests).toHaveLength(0);
  });

  it('loads the requested page after logging in', async () => {
    document.cookie = 'csrftoken=token-123';
    const requests = stubFetchSequence(jsonResponse(200, { user: ADA }));
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    renderApp({ path: '/login?next=%2Fuploads%2Fnew', bootstrap: { user: null } });

    logIn('ada@example.org', 'correct-password');

    await waitFor(() => expect(assign).toHaveBeenCalledWith('/uploads/new'));
    expect(requests[0]?.url).toBe('/api/auth/login');
    expect(requests[0]?.body).toEqual({ email: 'ada@example.org', password: 'correct-password' });
    expect(requests[0]?.headers.get('X-CSRFToken')).toBe('token-123');
  });

  it('goes to the uploads dashboard without a safe next page', async () => {
    stubFetchSequence(jsonResponse(200, { user: ADA }));
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    renderApp({ path: '/login?next=https%3A%2F%2Fevil.example', bootstrap: { user: null } });

    logIn('ada@example.org', 'correct-password');

    await waitFor(() => expect(assign).toHaveBeenCalledWith('/me/uploads'));
  });

  it('links to signing up, keeping the next page', () => {
    renderApp({ path: '/login?next=%2Fuploads%2Fnew', bootstrap: { user: null } });
    const link = within(screen.getByRole('main')).getByRole('link', { name: 'Sign up' });
    expect(link.getAttribute('href')).toBe('/signup?next=%2Fuploads%2Fnew');
  });
});
