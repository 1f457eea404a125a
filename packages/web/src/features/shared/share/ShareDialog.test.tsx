import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GrantJson, SecretLinkJson } from '@cairn/shared';
import { ADA, buildRecord } from '../../../test/builders';
import { jsonResponse, stubFetch, type RecordedRequest } from '../../../test/fetch';
import { renderApp } from '../../../test/renderApp';

const ID = 'abcde-12345';
const API = `/api/records/${ID}/access`;

/** Ada's record, as the landing page receives it. */
const record = buildRecord({
  id: ID,
  parent: { id: 'p-1', access: { owned_by: { user: ADA.id } } },
});

/**
 * The record's links and grants as the server keeps them, answering the dialog's requests; a
 * grant to user 3 is refused with the server's words.
 */
function shareServer(
  options: { people?: (q: string) => Response | Promise<Response> | undefined } = {},
) {
  const links: SecretLinkJson[] = [
    {
      id: 'l-1',
      token: 'secret-token-1',
      permission: 'view',
      created_at: '2026-01-01T00:00:00Z',
      expires_at: '2026-12-31',
      description: 'For reviewers',
    },
  ];
  const grants: Array<GrantJson & { name: string }> = [
    {
      subject: { type: 'user', id: '2' },
      permission: 'view',
      origin: 'api:1',
      name: 'Grace Hopper',
    },
  ];
  const listed = () => ({
    hits: {
      hits: grants.map(({ name, ...g }) => ({
        ...g,
        expanded: { subject: { id: g.subject.id, username: null, profile: { full_name: name } } },
      })),
      total: grants.length,
    },
  });
  const requests = stubFetch((request: RecordedRequest) => {
    const { pathname, search } = new URL(request.url, window.location.origin);
    const body = request.body as Record<string, unknown> | undefined;
    if (pathname === `${API}/links` && request.method === 'GET')
      return jsonResponse(200, { hits: { hits: links, total: links.length } });
    if (pathname === `${API}/links` && request.method === 'POST') {
      const link: SecretLinkJson = {
        id: `l-${links.length + 1}`,
        token: `secret-token-${links.length + 1}`,
        permission: body!.permission as SecretLinkJson['permission'],
        created_at: '2026-01-02T00:00:00Z',
        expires_at: (body!.expires_at as string | undefined) ?? null,
        description: (body!.description as string | undefined) ?? '',
      };
      links.push(link);
      return jsonResponse(201, link);
    }
    if (pathname.startsWith(`${API}/links/`) && request.method === 'PATCH') {
      const expiry = body!.expires_at as string | undefined;
      if (expiry && expiry > '2026-12-31')
        return jsonResponse(400, {
          status: 400,
          message: 'A validation error occurred.',
          errors: [{ field: 'expires_at', messages: ['The expiration date cannot be extended.'] }],
        });
      return jsonResponse(200, { ...links[0], ...body });
    }
    if (pathname.startsWith(`${API}/links/`) && request.method === 'DELETE') {
      links.splice(0, 1);
      return new Response(null, { status: 204 });
    }
    if (pathname === `${API}/users` && request.method === 'GET') {
      expect(search).toBe('?expand=1');
      return jsonResponse(200, listed());
    }
    const people = pathname === '/api/users' && options.people?.(request.url.split('q=')[1] ?? '');
    if (people) return people;
    if (pathname === '/api/users')
      return jsonResponse(200, {
        hits: {
          hits: [
            { id: '3', username: null, profile: { full_name: 'Ida Noddack' } },
            { id: '4', username: null, profile: { full_name: 'Inge Lehmann' } },
          ],
          total: 2,
        },
      });
    if (pathname === `${API}/grants` && request.method === 'POST') {
      const [grant] = body!.grants as Array<{ subject: { id: string }; permission: string }>;
      if (grant!.subject.id === '3')
        return jsonResponse(400, {
          status: 400,
          message: 'A validation error occurred.',
          errors: [
            { field: 'grants.subject.id', messages: ['Could not find the specified subject.'] },
          ],
        });
      grants.push({
        subject: { type: 'user', id: grant!.subject.id },
        permission: grant!.permission as GrantJson['permission'],
        origin: 'api:1',
        name: 'Inge Lehmann',
      });
      return jsonResponse(201, listed());
    }
    if (pathname.startsWith(`${API}/users/`) && request.method === 'PATCH')
      return jsonResponse(200, { ...grants[0], ...body });
    if (pathname.startsWith(`${API}/users/`) && request.method === 'DELETE') {
      grants.splice(0, 1);
      return new Response(null, { status: 204 });
    }
    return jsonResponse(404, {
      status: 404,
      message: `Not stubbed: ${request.method} ${pathname}`,
    });
  });
  return { requests, links, grants };
}

const sent = (requests: RecordedRequest[], method: string, path: string) =>
  requests.filter(
    (r) => r.method === method && new URL(r.url, window.location.origin).pathname === path,
  );

/** The access routes answer plain JSON only: every request of the dialog asks for it. */
function expectPlainJson(requests: RecordedRequest[]) {
  const accepts = requests
    .filter((r) => r.url.includes('/access/'))
    .map((r) => `${r.method} ${r.headers.get('accept')}`);
  expect(new Set(accepts.map((a) => a.split(' ')[1]))).toEqual(new Set(['application/json']));
  expect(accepts.some((a) => a.startsWith('POST'))).toBe(true);
}

async function openDialog() {
  const button = await screen.findByRole('button', { name: 'Share' });
  fireEvent.click(button);
  return {
    button,
    dialog: await screen.findByRole('dialog', { name: 'Share “Ocean temperatures”' }),
  };
}

describe('the Share dialog', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is offered to the owner and a manage grantee, not to other readers', async () => {
    shareServer();
    const first = renderApp({ path: `/records/${ID}`, bootstrap: { record } });
    expect(await screen.findByRole('button', { name: 'Share' })).toBeTruthy();
    first.unmount();
    const stranger = { ...ADA, id: '7', locale: null, emailNotifications: true };
    const second = renderApp({ path: `/records/${ID}`, bootstrap: { record, user: stranger } });
    await screen.findByRole('heading', { name: 'Ocean temperatures' });
    expect(screen.queryByRole('button', { name: 'Share' })).toBeNull();
    second.unmount();
    renderApp({
      path: `/records/${ID}`,
      bootstrap: { record, user: stranger, grant: { permission: 'manage' } },
    });
    expect(await screen.findByRole('button', { name: 'Share' })).toBeTruthy();
  });

  it('lists, creates, changes and revokes links, showing the server’s reasons', async () => {
    const { requests } = shareServer();
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });
    const { dialog } = await openDialog();
    const address = await within(dialog).findByRole<HTMLInputElement>('textbox', {
      name: 'Address of For reviewers',
    });
    expect(address.value).toBe(`${window.location.origin}/records/${ID}?token=secret-token-1`);

    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Permission' }), {
      target: { value: 'preview' },
    });
    fireEvent.change(within(dialog).getByLabelText('Expires on'), {
      target: { value: '2099-01-31' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Description (optional)' }), {
      target: { value: 'Co-authors' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create link' }));
    await within(dialog).findByRole('textbox', { name: 'Address of Co-authors' });
    expect(sent(requests, 'POST', `${API}/links`).map((r) => r.body)).toEqual([
      { permission: 'preview', expires_at: '2099-01-31', description: 'Co-authors' },
    ]);

    // A later expiry is refused: the server's own words are shown.
    const expiry = within(dialog).getByLabelText(
      'Expiry of For reviewers (may only be made earlier)',
    );
    fireEvent.change(expiry, { target: { value: '2027-06-01' } });
    fireEvent.keyDown(expiry, { key: 'Enter' });
    expect(await within(dialog).findByText('The expiration date cannot be extended.')).toBeTruthy();
    fireEvent.change(
      within(dialog).getByRole('combobox', { name: 'Permission of For reviewers' }),
      {
        target: { value: 'edit' },
      },
    );
    await waitFor(() =>
      expect(sent(requests, 'PATCH', `${API}/links/l-1`).map((r) => r.body)).toEqual([
        { expires_at: '2027-06-01' },
        { permission: 'edit' },
      ]),
    );

    // Revoking asks first; no means nothing is sent.
    const confirm = vi
      .spyOn(window, 'confirm')
      .mockReturnValueOnce(false)
      .mockReturnValueOnce(true);
    const revoke = within(dialog).getByRole('button', { name: 'Revoke For reviewers' });
    fireEvent.click(revoke);
    expect(sent(requests, 'DELETE', `${API}/links/l-1`)).toEqual([]);
    fireEvent.click(revoke);
    expect(confirm).toHaveBeenCalledWith('Revoke For reviewers? It stops working at once.');
    await waitFor(() =>
      expect(
        within(dialog).queryByRole('textbox', { name: 'Address of For reviewers' }),
      ).toBeNull(),
    );
    expect(sent(requests, 'DELETE', `${API}/links/l-1`)).toHaveLength(1);
    expectPlainJson(requests);
  });

  it('leads a never-published draft’s links to its preview', async () => {
    shareServer();
    const draft = { ...record, is_draft: true, is_published: false };
    renderApp({ path: `/records/${ID}?preview=1`, bootstrap: { record: draft } });
    const { dialog } = await openDialog();
    const address = await within(dialog).findByRole<HTMLInputElement>('textbox', {
      name: 'Address of For reviewers',
    });
    expect(address.value).toBe(
      `${window.location.origin}/records/${ID}?preview=1&token=secret-token-1`,
    );
  });

  it('lists no one whose name no longer fits while the server looks for what is typed now', async () => {
    const found = (...names: string[]) =>
      jsonResponse(200, {
        hits: {
          hits: names.map((name, i) => ({
            id: String(10 + i),
            username: null,
            profile: { full_name: name },
          })),
          total: names.length,
        },
      });
    shareServer({
      people: (q) =>
        decodeURIComponent(q).includes('K')
          ? new Promise<Response>(() => undefined)
          : found('Grace Colleague', 'Grace Keys'),
    });
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });
    const { dialog } = await openDialog();
    fireEvent.click(within(dialog).getByRole('tab', { name: 'People' }));
    const person = within(dialog).getByRole('combobox', { name: 'Person' });
    await userEvent.type(person, 'Grace');
    expect(await screen.findByRole('option', { name: 'Grace Colleague' })).toBeTruthy();

    await userEvent.type(person, ' Keys');
    expect(screen.getByRole('option', { name: 'Grace Keys' })).toBeTruthy();
    expect(screen.queryByRole('option', { name: 'Grace Colleague' })).toBeNull();
  });

  it('finds people, shares with them, changes and revokes their access by name', async () => {
    const { requests } = shareServer();
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });
    const { dialog } = await openDialog();
    fireEvent.click(within(dialog).getByRole('tab', { name: 'People' }));
    expect(await within(dialog).findByRole('cell', { name: 'Grace Hopper' })).toBeTruthy();

    const person = within(dialog).getByRole('combobox', { name: 'Person' });
    await userEvent.type(person, 'In');
    fireEvent.click(await screen.findByRole('option', { name: 'Ida Noddack' }));
    fireEvent.change(within(dialog).getAllByRole('combobox', { name: 'Permission' })[0]!, {
      target: { value: 'edit' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Message (optional)' }), {
      target: { value: 'Please check the units' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(await within(dialog).findByText('Could not find the specified subject.')).toBeTruthy();

    await userEvent.clear(person);
    await userEvent.type(person, 'Inge');
    fireEvent.click(await screen.findByRole('option', { name: 'Inge Lehmann' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Tell them by e-mail' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(await within(dialog).findByRole('cell', { name: 'Inge Lehmann' })).toBeTruthy();
    expect(within(dialog).getByRole('status').textContent).toBe('Shared with Inge Lehmann.');
    expect(sent(requests, 'POST', `${API}/grants`).map((r) => r.body)).toEqual([
      {
        grants: [{ subject: { type: 'user', id: '3' }, permission: 'edit' }],
        message: 'Please check the units',
        notify: true,
      },
      {
        grants: [{ subject: { type: 'user', id: '4' }, permission: 'edit' }],
        message: 'Please check the units',
        notify: false,
      },
    ]);

    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Permission of Grace Hopper' }), {
      target: { value: 'manage' },
    });
    await waitFor(() =>
      expect(sent(requests, 'PATCH', `${API}/users/2`).map((r) => r.body)).toEqual([
        { permission: 'manage' },
      ]),
    );
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke Grace Hopper' }));
    await waitFor(() =>
      expect(within(dialog).queryByRole('cell', { name: 'Grace Hopper' })).toBeNull(),
    );
    expect(sent(requests, 'DELETE', `${API}/users/2`)).toHaveLength(1);
    expectPlainJson(requests);
  });

  it('closes with Escape and gives the focus back to Share', async () => {
    shareServer();
    renderApp({ path: `/records/${ID}`, bootstrap: { record } });
    const button = await screen.findByRole('button', { name: 'Share' });
    button.focus();
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Share “Ocean temperatures”' });
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(button));
  });
});
