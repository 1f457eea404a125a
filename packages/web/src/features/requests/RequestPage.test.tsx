import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildDraft, buildRecord } from '../../test/builders';
import { errorResponse, jsonResponse, stubFetch, type RecordedRequest } from '../../test/fetch';
import { renderApp } from '../../test/renderApp';

const SITE = 'http://127.0.0.1:5000';
const ID = '6f1c2b7e-0d4a-4c1e-9a57-3b8f2d9e1c44';
const API = `${SITE}/api/requests/${ID}`;

function buildRequest(overrides: Record<string, unknown> = {}, actions: string[] = []) {
  return {
    id: ID,
    number: '7',
    title: 'Gannet colony counts',
    type: 'community-submission',
    status: 'submitted',
    is_open: true,
    is_closed: false,
    created: '2024-05-02T10:00:00+00:00',
    created_by: { user: '2' },
    receiver: { community: 'c-1' },
    topic: { record: 'abcde-12345' },
    revision_id: 2,
    links: {
      self: API,
      self_html: `${SITE}/me/requests/${ID}`,
      comments: `${API}/comments`,
      timeline: `${API}/timeline`,
      actions: Object.fromEntries(actions.map((a) => [a, `${API}/actions/${a}`])),
    },
    expanded: {
      created_by: { id: '2', username: null, profile: { full_name: 'Grace Hopper' } },
      receiver: {
        id: 'c-1',
        slug: 'seabirds',
        metadata: { title: 'Seabird Monitoring' },
        links: { self_html: `${SITE}/communities/seabirds` },
      },
    },
    ...overrides,
  };
}

function buildComment(id: string, content: string, mine: boolean, author = 'Grace Hopper') {
  return {
    id,
    type: 'C',
    payload: { content, format: 'html' },
    created_by: { user: mine ? '1' : '2' },
    created: '2024-05-02T10:05:00+00:00',
    updated: '2024-05-02T10:05:00+00:00',
    revision_id: 1,
    permissions: { can_update_comment: mine, can_delete_comment: mine },
    links: { self: `${API}/comments/${id}` },
    expanded: { created_by: { profile: { full_name: author } } },
  };
}

const ACCEPTED_LOG = {
  id: 'e-log',
  type: 'L',
  payload: { event: 'accepted' },
  created_by: { user: '1' },
  created: '2024-05-03T09:00:00+00:00',
  permissions: {},
  links: { self: `${API}/comments/e-log` },
  expanded: { created_by: { profile: { full_name: 'Ada Lovelace' } } },
};

interface ServerState {
  request: ReturnType<typeof buildRequest>;
  events: unknown[];
  draft?: boolean;
  /** The record's `parent.access.settings.secret_link_expiration`. */
  linkDays?: number;
  /** Answers for unsafe calls, by `METHOD url`; default 200/201 with the state updated. */
  failures?: Record<string, Response>;
}

/** A small in-memory request resource, answering as the API does. */
function serve(state: ServerState): RecordedRequest[] {
  return stubFetch((req) => {
    const path = req.url.split('?')[0] ?? '';
    const failure = state.failures?.[`${req.method} ${path}`];
    if (failure) return failure;
    if (req.method === 'GET' && path === `/api/requests/${ID}`)
      return jsonResponse(200, state.request);
    if (req.method === 'GET' && path === `/api/requests/${ID}/timeline`)
      return jsonResponse(200, { hits: { hits: state.events, total: state.events.length } });
    if (req.method === 'GET' && path === '/api/records/abcde-12345/draft')
      return state.draft === false
        ? errorResponse('PID_DOES_NOT_EXIST')
        : jsonResponse(200, buildDraft({ metadata: { title: 'Gannet colony counts' } }));
    if (req.method === 'GET' && path === '/api/records/abcde-12345')
      return jsonResponse(
        200,
        buildRecord({
          metadata: { title: 'Gannet colony counts' },
          ...(state.linkDays !== undefined
            ? { parent: { access: { settings: { secret_link_expiration: state.linkDays } } } }
            : {}),
        }),
      );
    if (req.method === 'POST' && path === `/api/requests/${ID}/comments`) {
      const content = (req.body as { payload: { content: string } }).payload.content;
      const event = buildComment(`e-${state.events.length + 1}`, content, true, 'Ada Lovelace');
      state.events.push(event);
      return jsonResponse(201, event);
    }
    const action = /^\/api\/requests\/[^/]+\/actions\/(\w+)$/.exec(path)?.[1];
    if (req.method === 'POST' && action) {
      const status = { accept: 'accepted', decline: 'declined', cancel: 'cancelled' }[action]!;
      state.request = buildRequest({ status, is_open: false, is_closed: true });
      state.events.push({ ...ACCEPTED_LOG, payload: { event: status } });
      return jsonResponse(200, state.request);
    }
    throw new Error(`Unexpected request: ${req.method} ${req.url}`);
  });
}

describe('RequestPage', () => {
  it('shows a guest’s access request without a community row, naming the guest by address', async () => {
    serve({
      request: buildRequest(
        {
          type: 'guest-access-request',
          created_by: { email: 'reader@example.org' },
          receiver: { user: '1' },
          expanded: {},
        },
        ['accept', 'decline'],
      ),
      events: [],
    });
    renderApp({ path: `/me/requests/${ID}` });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Gannet colony counts' }),
    ).toBeTruthy();
    expect(screen.queryByText('Community', { selector: 'dt' })).toBeNull();
    expect(screen.getByText('reader@example.org', { selector: 'dd' })).toBeTruthy();
  });

  it("accepts a guest's request with the record's days for their link", async () => {
    const requests = serve({
      request: buildRequest(
        {
          type: 'guest-access-request',
          created_by: { email: 'reader@example.org' },
          receiver: { user: '1' },
          expanded: {},
        },
        ['accept', 'decline'],
      ),
      events: [],
      draft: false,
      linkDays: 14,
    });
    renderApp({ path: `/me/requests/${ID}` });
    fireEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    const dialog = await screen.findByRole('dialog');
    const days = within(dialog).getByRole<HTMLInputElement>('textbox', {
      name: /Days the guest's link lasts/,
    });
    await waitFor(() => expect(days.value).toBe('14'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(requests.some((r) => r.url.endsWith('/actions/accept'))).toBe(true));
    const accept = requests.find((r) => r.url.endsWith('/actions/accept'))!;
    expect(accept.body).toEqual({ payload: { format: 'html', secret_link_expiration: 14 } });
  });

  it("accepts a person's request for the days chosen, else without end", async () => {
    const requests = serve({
      request: buildRequest(
        { type: 'user-access-request', receiver: { user: '1' }, expanded: {} },
        ['accept', 'decline'],
      ),
      events: [],
      draft: false,
      linkDays: 14,
    });
    renderApp({ path: `/me/requests/${ID}` });
    fireEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    const dialog = await screen.findByRole('dialog');
    const days = within(dialog).getByRole<HTMLInputElement>('textbox', {
      name: /Days the person's access lasts/,
    });
    expect(days.value).toBe('0');
    fireEvent.change(days, { target: { value: '5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(requests.some((r) => r.url.endsWith('/actions/accept'))).toBe(true));
    const accept = requests.find((r) => r.url.endsWith('/actions/accept'))!;
    expect(accept.body).toEqual({ payload: { format: 'html', secret_link_expiration: 5 } });
  });

  it('shows the request, its community, creator, record and conversation to a curator', async () => {
    const requests = serve({
      request: buildRequest({}, ['accept', 'decline']),
      events: [buildComment('e-1', '<p>Please review <strong>this</strong>.</p>', false)],
    });
    renderApp({ path: `/me/requests/${ID}` });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Gannet colony counts' }),
    ).toBeTruthy();
    expect(screen.getByText('Submitted')).toBeTruthy();
    expect(screen.getByText('Community submission #7')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Seabird Monitoring' }).getAttribute('href')).toBe(
      '/communities/seabirds',
    );
    expect(screen.getByText('Grace Hopper', { selector: 'dd' })).toBeTruthy();
    expect(
      (await screen.findByRole('link', { name: 'Preview the draft' })).getAttribute('href'),
    ).toBe('/records/abcde-12345?preview=1');
    const comment = await screen.findByRole('article', { name: 'Comment by Grace Hopper' });
    expect(within(comment).getByText('this').tagName).toBe('STRONG');
    expect(within(comment).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Accept and publish' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Decline' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel request' })).toBeNull();
    expect(requests[0]?.url).toBe(`/api/requests/${ID}?expand=1`);
  });

  it('offers the submitter only to cancel, and no decision once the request is closed', async () => {
    const state: ServerState = { request: buildRequest({}, ['cancel']), events: [] };
    serve(state);
    renderApp({ path: `/me/requests/${ID}` });

    fireEvent.click(await screen.findByRole('button', { name: 'Cancel request' }));
    expect(screen.queryByRole('button', { name: 'Accept and publish' })).toBeNull();
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this request?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel request' }));

    expect(await screen.findByText('Cancelled')).toBeTruthy();
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Cancel request' })).toBeNull(),
    );
  });

  it('accepts with a comment, then shows the record instead of the draft', async () => {
    const state: ServerState = { request: buildRequest({}, ['accept', 'decline']), events: [] };
    const requests = serve(state);
    renderApp({ path: `/me/requests/${ID}` });

    fireEvent.click(await screen.findByRole('button', { name: 'Accept and publish' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Accept this request and publish the record in the community?',
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Comment (optional)' }), {
      target: { value: 'Welcome <aboard>' },
    });
    state.draft = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept and publish' }));

    expect(await screen.findByText('Accepted')).toBeTruthy();
    expect(requests.find((r) => r.method === 'POST')).toMatchObject({
      url: `/api/requests/${ID}/actions/accept`,
      body: { payload: { content: '<p>Welcome &lt;aboard&gt;</p>', format: 'html' } },
    });
    expect(
      await screen.findByText('Ada Lovelace accepted this request', { exact: false }),
    ).toBeTruthy();
    expect(
      (await screen.findByRole('link', { name: 'View the record' })).getAttribute('href'),
    ).toBe('/records/abcde-12345');
  });

  it('keeps the dialog open and says why when an action is refused', async () => {
    serve({
      request: buildRequest({}, ['accept', 'decline']),
      events: [],
      failures: {
        [`POST /api/requests/${ID}/actions/decline`]: jsonResponse(400, {
          status: 400,
          message: 'Cannot decline a request that is cancelled.',
        }),
      },
    });
    renderApp({ path: `/me/requests/${ID}` });

    fireEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    const dialog = await screen.findByRole('dialog', { name: 'Decline this request?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Decline' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Cannot decline a request that is cancelled.',
    );
    expect(screen.getByText('Submitted')).toBeTruthy();
  });

  it('posts a comment as escaped HTML, refuses an empty one and keeps the text when sending fails', async () => {
    const state: ServerState = { request: buildRequest(), events: [] };
    const requests = serve(state);
    renderApp({ path: `/me/requests/${ID}` });

    const box = await screen.findByRole('textbox', { name: 'Add a comment' });
    fireEvent.click(screen.getByRole('button', { name: 'Comment' }));
    expect(await screen.findByText('Write a comment first.')).toBeTruthy();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    state.failures = {
      [`POST /api/requests/${ID}/comments`]: errorResponse('PERMISSION_DENIED'),
    };
    fireEvent.change(box, { target: { value: 'Added the README.\nSee v2.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Comment' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Permission denied.');
    expect((box as HTMLTextAreaElement).value).toBe('Added the README.\nSee v2.');

    state.failures = {};
    fireEvent.click(screen.getByRole('button', { name: 'Comment' }));
    const comment = await screen.findByRole('article', { name: 'Comment by Ada Lovelace' });
    expect(comment.innerHTML).toContain('Added the README.<br>See v2.');
    await waitFor(() => expect((box as HTMLTextAreaElement).value).toBe(''));
  });

  it('edits and deletes one’s own comment with If-Match', async () => {
    const events = [buildComment('e-1', '<p>First words</p>', true, 'Ada Lovelace')];
    const requests = stubFetch((req) => {
      const path = req.url.split('?')[0] ?? '';
      if (req.method === 'GET' && path === `/api/requests/${ID}`)
        return jsonResponse(200, buildRequest({ topic: null }));
      if (req.method === 'GET' && path.endsWith('/timeline'))
        return jsonResponse(200, { hits: { hits: events, total: events.length } });
      if (req.method === 'PUT') {
        events[0] = { ...events[0]!, payload: { content: '<p>Better words</p>', format: 'html' } };
        return jsonResponse(200, events[0]);
      }
      if (req.method === 'DELETE') {
        events.length = 0;
        return jsonResponse(204);
      }
      throw new Error(`Unexpected request: ${req.method} ${req.url}`);
    });
    renderApp({ path: `/me/requests/${ID}` });

    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const editor = screen.getByRole('textbox', { name: 'Edit comment' });
    expect((editor as HTMLTextAreaElement).value).toBe('First words');
    fireEvent.change(editor, { target: { value: 'Better words' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Better words')).toBeTruthy();
    const put = requests.find((r) => r.method === 'PUT')!;
    expect(put.url).toBe(`/api/requests/${ID}/comments/e-1`);
    expect(put.headers.get('If-Match')).toBe('1');
    expect(put.body).toEqual({ payload: { content: '<p>Better words</p>', format: 'html' } });

    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No comments yet.')).toBeTruthy();
    expect(requests.find((r) => r.method === 'DELETE')?.url).toBe(
      `/api/requests/${ID}/comments/e-1`,
    );
  });

  it('says so when the request cannot be seen', async () => {
    stubFetch(() => errorResponse('PERMISSION_DENIED'));
    renderApp({ path: `/me/requests/${ID}` });
    expect(await screen.findByText('The request could not be loaded.')).toBeTruthy();
    expect(screen.getByText('Permission denied.')).toBeTruthy();
  });
});
