import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../../browser';
import { ADA } from '../../test/builders';
import { errorResponse, jsonResponse, stubFetchSequence } from '../../test/fetch';
import { descriptionOf, renderApp } from '../../test/renderApp';

function signUp(name: string, email: string, password: string) {
  fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: name } });
  fireEvent.change(screen.getByRole('textbox', { name: 'Email' }), { target: { value: email } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
}

describe('SignupPage', () => {
  it('shows an email address already taken under the email input', async () => {
    stubFetchSequence(
      errorResponse('EMAIL_TAKEN', { message: 'This email address is already registered.' }),
    );
    renderApp({ path: '/signup', bootstrap: { user: null } });

    signUp('Ada Lovelace', 'ada@example.org', 'long-enough');

    const email = screen.getByRole('textbox', { name: 'Email' });
    await waitFor(() =>
      expect(descriptionOf(email)).toContain('This email address is already registered.'),
    );
  });

  it('shows the server field errors', async () => {
    stubFetchSequence(
      jsonResponse(400, {
        status: 400,
        message: 'A validation error occurred.',
        errors: [{ field: 'name', messages: ['Name cannot be blank.'] }],
      }),
    );
    renderApp({ path: '/signup', bootstrap: { user: null } });

    signUp(' ', 'ada@example.org', 'long-enough');

    const name = screen.getByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(descriptionOf(name)).toContain('Name cannot be blank.'));
  });

  it('creates the account and loads the dashboard', async () => {
    const requests = stubFetchSequence(jsonResponse(201, { user: ADA }));
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    renderApp({ path: '/signup', bootstrap: { user: null } });

    signUp('Ada Lovelace', 'ada@example.org', 'long-enough');

    await waitFor(() => expect(assign).toHaveBeenCalledWith('/me/uploads'));
    expect(requests[0]?.body).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.org',
      password: 'long-enough',
    });
  });
});
