import 'fake-indexeddb/auto';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../../browser';
import { buildDraft } from '../../test/builders';
import { jsonResponse, stubFetch, type RecordedRequest } from '../../test/fetch';
import { renderApp } from '../../test/renderApp';

function typeTitle(value: string) {
  fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value } });
}

function myUploadsLink(): HTMLElement {
  return within(screen.getByRole('banner')).getByRole('link', { name: 'My uploads' });
}

/**
 * A server for the form and My uploads. Saves are refused until `saves.allowed` is set, so an
 * autosave that a slow test run lets through cannot save the edits before the test leaves.
 */
function stubServer(id: string) {
  const saves = { allowed: false };
  const requests = stubFetch((request: RecordedRequest) => {
    if (request.url.startsWith('/api/user/records')) {
      return jsonResponse(200, { hits: { hits: [], total: 0 } });
    }
    if (request.method === 'PUT' || request.method === 'POST') {
      if (!saves.allowed) return jsonResponse(503, { status: 503, message: 'Try again later.' });
      return jsonResponse(
        request.method === 'POST' ? 201 : 200,
        buildDraft({ ...(request.body as object), id, revision_id: 2, files: { enabled: false } }),
      );
    }
    throw new Error(`Unexpected request: ${request.method} ${request.url}`);
  });
  return { requests, saves };
}

function openDraft(id: string) {
  renderApp({
    path: `/uploads/${id}`,
    bootstrap: { draft: buildDraft({ id, files: { enabled: false } }) },
  });
}

const saveRequests = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.method === 'PUT' || r.method === 'POST');

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('leaving the form', () => {
  it('goes at once when nothing is unsaved', async () => {
    stubServer('lv0-00000');
    openDraft('lv0-00000');
    fireEvent.click(myUploadsLink());
    expect(await screen.findByRole('heading', { name: 'My uploads' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks before a link leaves unsaved edits, and keeps them when the person stays', async () => {
    const { requests } = stubServer('lv1-00001');
    openDraft('lv1-00001');
    typeTitle('Typed, not saved');
    fireEvent.click(myUploadsLink());

    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    expect(dialog.textContent).toContain('have not been saved yet');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay on this page' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Title' }).value).toBe(
      'Typed, not saved',
    );
    expect(screen.queryByRole('heading', { name: 'My uploads' })).toBeNull();
    expect(saveRequests(requests).filter((r) => r.headers.get('If-Match') === null)).toEqual([]);
  });

  it('saves and then goes where the person was going', async () => {
    const { requests, saves } = stubServer('lv2-00002');
    openDraft('lv2-00002');
    typeTitle('Saved on the way out');
    fireEvent.click(myUploadsLink());

    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    saves.allowed = true;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save and leave' }));

    expect(await screen.findByRole('heading', { name: 'My uploads' })).toBeTruthy();
    const saved = saveRequests(requests).at(-1);
    expect(saved?.method).toBe('PUT');
    expect(saved?.body).toMatchObject({ metadata: { title: 'Saved on the way out' } });
  });

  it('stays when the save on the way out fails', async () => {
    stubServer('lv3-00003');
    openDraft('lv3-00003');
    typeTitle('Not saved');
    fireEvent.click(myUploadsLink());

    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save and leave' }));

    expect(await screen.findByText('Try again later.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'My uploads' })).toBeNull();
  });

  it('leaves without saving when the person chooses so', async () => {
    stubServer('lv4-00004');
    openDraft('lv4-00004');
    typeTitle('Dropped on purpose');
    fireEvent.click(myUploadsLink());

    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Leave anyway' }));
    expect(await screen.findByRole('heading', { name: 'My uploads' })).toBeTruthy();
  });

  it('asks the browser to confirm closing the tab while edits are unsaved, not after', async () => {
    const { saves } = stubServer('lv5-00005');
    openDraft('lv5-00005');
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);

    typeTitle('Typed, not saved');
    expect(unload()).toBe(true);

    saves.allowed = true;
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Record successfully saved.')).toBeTruthy();
    expect(unload()).toBe(false);
  });

  it('does not ask when an action of the form takes the person away', async () => {
    const { saves } = stubServer('lv6-00006');
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    openDraft('lv6-00006');
    typeTitle('Previewed');
    saves.allowed = true;
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(assign).toHaveBeenCalled());

    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
  });
});

describe('a new upload', () => {
  it('is saved as a draft by the first change, so that My uploads lists it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { requests, saves } = stubServer('new01-00001');
    saves.allowed = true;
    const replaceUrl = vi.spyOn(browser, 'replaceUrl');
    renderApp({ path: '/uploads/new', autosave: true });
    typeTitle('Started, then left');
    await vi.advanceTimersByTimeAsync(5000);

    await waitFor(() => expect(saveRequests(requests)).toHaveLength(1));
    const created = saveRequests(requests)[0];
    expect(created?.method).toBe('POST');
    expect(created?.body).toMatchObject({ metadata: { title: 'Started, then left' } });
    await waitFor(() => expect(replaceUrl).toHaveBeenCalledWith(expect.stringMatching(/new01/)));
    expect(await screen.findByRole('heading', { name: 'Edit upload' })).toBeTruthy();

    fireEvent.click(myUploadsLink());
    expect(await screen.findByRole('heading', { name: 'My uploads' })).toBeTruthy();
  });

  it('takes a Save clicked while autosave creates the draft, after it, on that draft', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answerCreate: (response: Response) => void = () => undefined;
    const requests = stubFetch((request) => {
      if (request.method === 'POST') {
        return new Promise<Response>((resolve) => {
          answerCreate = resolve;
        });
      }
      return jsonResponse(
        200,
        buildDraft({ ...(request.body as object), id: 'new04-00004', revision_id: 2 }),
      );
    });
    renderApp({ path: '/uploads/new', autosave: true });
    typeTitle('Saved twice');
    await vi.advanceTimersByTimeAsync(5000);
    await waitFor(() => expect(requests.map((r) => r.method)).toEqual(['POST']));

    typeTitle('Saved twice, the second time by hand');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    answerCreate(
      jsonResponse(
        201,
        buildDraft({ id: 'new04-00004', revision_id: 1, files: { enabled: false } }),
      ),
    );

    await waitFor(() => expect(requests.map((r) => r.method)).toEqual(['POST', 'PUT']), {
      timeout: 5000,
    });
    expect(await screen.findByText('Record successfully saved.')).toBeTruthy();
    expect(requests[1]?.url).toContain('new04-00004');
    expect(requests[1]?.body).toMatchObject({
      metadata: { title: 'Saved twice, the second time by hand' },
    });
  });

  it('is not created by merely opening the form', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { requests, saves } = stubServer('new02-00002');
    saves.allowed = true;
    renderApp({ path: '/uploads/new', autosave: true });
    await screen.findByRole('textbox', { name: 'Title' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(saveRequests(requests)).toEqual([]);

    fireEvent.click(myUploadsLink());
    expect(await screen.findByRole('heading', { name: 'My uploads' })).toBeTruthy();
  });

  it('asks before a new upload with unsaved input is left, even for another new upload', async () => {
    stubServer('new03-00003');
    renderApp({ path: '/uploads/new' });
    typeTitle('Second thoughts');
    fireEvent.click(within(screen.getByRole('banner')).getByRole('link', { name: 'New upload' }));
    expect(await screen.findByRole('dialog', { name: 'Leave without saving?' })).toBeTruthy();
  });
});
