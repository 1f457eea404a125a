import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RecordJson } from '../../api/records';
import { AppProviders } from '../../app/AppProviders';
import { createQueryClient } from '../../app/query-client';
import { createI18n } from '../../i18n/i18n';
import { buildBootstrap, buildRecord } from '../../test/builders';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { renderApp } from '../../test/renderApp';
import { AccessRequestSettings } from '../shared/share/AccessRequestSettings';

const ID = 'restr-00001';
const REQUEST = {
  id: '6d3c1d5e-6f0a-4d7b-9a35-0f6f4a1c2b3d',
  type: 'user-access-request',
  status: 'submitted',
  links: { self: 's', comments: 'c', timeline: 't', actions: {} },
};

/** A published record whose files are restricted; the owner takes requests as `settings` says. */
function restricted(settings: Record<string, unknown>): RecordJson {
  return buildRecord({
    id: ID,
    access: {
      record: 'public',
      files: 'restricted',
      embargo: { active: false },
      status: 'restricted',
    },
    parent: { id: 'parnt-00002', access: { owned_by: { user: '99' }, settings } },
    files: { enabled: true, entries: {}, count: 1, total_bytes: 10 },
  });
}

/** Answers the landing page's side requests with nothing, and access requests as given. */
function serve(answer: () => Response) {
  return stubFetch((request) => {
    if (request.method === 'POST' && request.url.includes('/access/')) return answer();
    return jsonResponse(200, { hits: { hits: [], total: 0 } });
  });
}

const OPEN = {
  allow_user_requests: true,
  allow_guest_requests: true,
  accept_conditions_text: '<p>For <em>research</em> only.</p>',
};

describe('asking for restricted files on the landing page', () => {
  it("shows the owner's conditions and sends a signed-in reader's message", async () => {
    const record = restricted(OPEN);
    const requests = serve(() => jsonResponse(200, REQUEST));
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });
    const form = screen.getByRole('region', { name: 'Request access to the files' });
    expect(within(form).getByRole('note', { name: "The owner's conditions" }).textContent).toBe(
      'For research only.',
    );
    expect(within(form).queryByLabelText(/Your e-mail address/)).toBeNull();
    fireEvent.change(within(form).getByLabelText(/Message to the owner/), {
      target: { value: 'For my thesis' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Request access' }));
    expect(await screen.findByText('Request sent')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Follow your request' }).getAttribute('href')).toBe(
      `/me/requests/${REQUEST.id}`,
    );
    const sent = requests.find((r) => r.method === 'POST');
    expect(sent?.url).toContain(`/api/records/${ID}/access/request`);
    expect(sent?.body).toEqual({ message: 'For my thesis' });
  });

  it('asks a guest for their name and address, then to check their e-mail', async () => {
    const record = restricted(OPEN);
    const requests = serve(() =>
      jsonResponse(200, { message: 'Verification link sent out, please check your e-mail inbox' }),
    );
    renderApp({ path: `/records/${ID}`, bootstrap: { record, user: null } });
    const form = screen.getByRole('region', { name: 'Request access to the files' });
    fireEvent.change(within(form).getByLabelText(/Your name/), { target: { value: 'Ada Guest' } });
    fireEvent.change(within(form).getByLabelText(/Your e-mail address/), {
      target: { value: 'guest@example.org' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Request access' }));
    expect(await screen.findByText('Check your e-mail')).toBeTruthy();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      message: '',
      email: 'guest@example.org',
      full_name: 'Ada Guest',
    });
  });

  it('offers nothing where the owner takes no requests, and a guest sign-in where only people may ask', () => {
    serve(() => jsonResponse(500, {}));
    const { unmount } = renderApp({
      path: `/records/${ID}`,
      bootstrap: { record: restricted({}) },
    });
    expect(screen.queryByRole('region', { name: 'Request access to the files' })).toBeNull();
    unmount();
    renderApp({
      path: `/records/${ID}`,
      bootstrap: { record: restricted({ allow_user_requests: true }), user: null },
    });
    expect(screen.queryByRole('region', { name: 'Request access to the files' })).toBeNull();
    expect(
      screen.getByRole('link', { name: 'Sign in to request access to the files' }),
    ).toBeTruthy();
  });

  it('tells a visitor of a restricted record they may not see to sign in or use their link', () => {
    serve(() => jsonResponse(500, {}));
    renderApp({
      path: `/records/${ID}`,
      bootstrap: { user: null, error: { status: 403, message: 'Permission denied.' } },
    });
    expect(screen.getByRole('heading', { name: 'This record is restricted' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      `/login?next=${encodeURIComponent(`/records/${ID}`)}`,
    );
    expect(screen.getByText(/open that link/)).toBeTruthy();
  });
});

describe('the access request settings', () => {
  it('saves all four settings with PUT …/access', async () => {
    const requests = stubFetch(() => jsonResponse(200, restricted(OPEN)));
    render(
      <AppProviders
        bootstrap={buildBootstrap()}
        queryClient={createQueryClient()}
        i18n={createI18n('de')}
        env="test"
      >
        <AccessRequestSettings
          recordId={ID}
          settings={{
            allow_user_requests: false,
            allow_guest_requests: false,
            accept_conditions_text: null,
            secret_link_expiration: 0,
          }}
        />
      </AppProviders>,
    );
    fireEvent.click(screen.getByRole('switch', { name: /Angemeldete Personen/ }));
    fireEvent.change(screen.getByLabelText(/Bedingungen/), { target: { value: 'Nur Forschung' } });
    fireEvent.change(screen.getByLabelText(/Gültigkeit/), { target: { value: '14' } });
    fireEvent.click(screen.getByRole('button', { name: 'Zugangseinstellungen speichern' }));
    await waitFor(() => expect(screen.getByText('Zugangseinstellungen gespeichert.')).toBeTruthy());
    const put = requests.find((r) => r.method === 'PUT');
    expect(put?.url).toContain(`/api/records/${ID}/access`);
    expect(put?.body).toEqual({
      allow_user_requests: true,
      allow_guest_requests: false,
      accept_conditions_text: 'Nur Forschung',
      secret_link_expiration: 14,
    });
  });
});
