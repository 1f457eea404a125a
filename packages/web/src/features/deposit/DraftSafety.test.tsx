import 'fake-indexeddb/auto';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildDraft } from '../../test/builders';
import { errorResponse, jsonResponse, stubFetch, stubFetchSequence } from '../../test/fetch';
import { renderApp } from '../../test/renderApp';
import { createDraftJournal } from './draft-journal';

function titleInput(): HTMLInputElement {
  return screen.getByRole<HTMLInputElement>('textbox', { name: 'Title' });
}

function typeTitle(value: string) {
  fireEvent.change(titleInput(), { target: { value } });
}

function openDraft(id: string, { autosave = false } = {}) {
  const draft = buildDraft({ id, files: { enabled: false } });
  renderApp({ path: `/uploads/${id}`, bootstrap: { draft }, autosave });
  return draft;
}

afterEach(() => {
  vi.useRealTimers();
  setVisibility('visible');
});

function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}

describe('autosave', () => {
  it('saves after a pause, on the revision it last saw', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const requests = stubFetchSequence(
      jsonResponse(200, buildDraft({ id: 'auto1-00001', revision_id: 2 })),
    );
    openDraft('auto1-00001', { autosave: true });
    typeTitle('Ocean temperatures, revised');
    await vi.advanceTimersByTimeAsync(5000);

    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.method).toBe('PUT');
    expect(requests[0]?.headers.get('If-Match')).toBe('1');
    expect(requests[0]?.body).toMatchObject({ metadata: { title: 'Ocean temperatures, revised' } });
    expect((await screen.findByText(/Saved automatically at/)).textContent).toBeTruthy();
  });

  it('does not save when nothing changed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const requests = stubFetchSequence();
    openDraft('auto2-00002', { autosave: true });
    typeTitle('Ocean temperatures');
    await vi.advanceTimersByTimeAsync(5000);
    expect(requests).toHaveLength(0);
  });
});

describe('conflicts', () => {
  it('shows both versions when the draft changed elsewhere, and keeps mine on request', async () => {
    const theirs = buildDraft({
      id: 'conf1-00001',
      revision_id: 5,
      files: { enabled: false },
      metadata: { ...buildDraft().metadata, title: 'Title from the other tab' },
      updated: '2026-03-02T14:02:00.000000+00:00',
      updated_by: { user: '7', name: 'Ada Lovelace' },
    });
    const requests = stubFetchSequence(
      errorResponse('REVISION_MISMATCH', { message: "Revision id provided(1) doesn't match" }),
      jsonResponse(200, theirs),
      jsonResponse(200, { ...theirs, revision_id: 6 }),
    );
    openDraft('conf1-00001');
    typeTitle('My title');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', { name: 'This draft was changed elsewhere' });
    // Whose save came first, named as the server names them.
    expect(within(dialog).getByTestId('conflict-saved-by').textContent).toBe(
      `Saved by Ada Lovelace at ${new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date('2026-03-02T14:02:00Z'))}`,
    );
    const row = within(dialog).getByRole('row', { name: /metadata\.title/ });
    expect(row.textContent).toContain('My title');
    expect(row.textContent).toContain('Title from the other tab');
    expect(titleInput().value).toBe('My title');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep my version' }));

    await waitFor(() => expect(requests).toHaveLength(3));
    expect(requests[2]?.method).toBe('PUT');
    expect(requests[2]?.headers.get('If-Match')).toBe('5');
    expect(requests[2]?.body).toMatchObject({ metadata: { title: 'My title' } });
  });

  it('saves again, asking nothing, when only files changed the revision meanwhile', async () => {
    // A folder uploading raises the revision with every file while the person types.
    const mine = buildDraft({ id: 'conf3-00003', files: { enabled: false } });
    const theirs = { ...mine, revision_id: 40 };
    const requests = stubFetchSequence(
      errorResponse('REVISION_MISMATCH'),
      jsonResponse(200, theirs),
      jsonResponse(200, {
        ...theirs,
        revision_id: 41,
        metadata: { ...mine.metadata, title: 'My title' },
      }),
    );
    openDraft('conf3-00003');
    typeTitle('My title');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(requests).toHaveLength(3));
    expect(requests[2]?.method).toBe('PUT');
    expect(requests[2]?.headers.get('If-Match')).toBe('40');
    expect(requests[2]?.body).toMatchObject({ metadata: { title: 'My title' } });
    expect(screen.queryByRole('dialog', { name: 'This draft was changed elsewhere' })).toBeNull();
  });

  it('takes the saved version when the person chooses it', async () => {
    const theirs = buildDraft({
      id: 'conf2-00002',
      revision_id: 5,
      metadata: { ...buildDraft().metadata, title: 'Title from the other tab' },
    });
    stubFetchSequence(errorResponse('REVISION_MISMATCH'), jsonResponse(200, theirs));
    openDraft('conf2-00002');
    typeTitle('My title');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', { name: 'This draft was changed elsewhere' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use the saved version' }));

    await waitFor(() => expect(titleInput().value).toBe('Title from the other tab'));
  });
});

describe('edit journal', () => {
  it('offers back edits that were never saved after a reload', async () => {
    stubFetch(() => {
      throw new Error('offline');
    });
    const first = renderApp({
      path: '/uploads/jour1-00001',
      bootstrap: { draft: buildDraft({ id: 'jour1-00001' }) },
    });
    typeTitle('Typed before the crash');
    // The journal is written shortly after typing; read it back to know it landed.
    const journal = createDraftJournal();
    await waitFor(async () =>
      expect((await journal.read('jour1-00001'))?.values.metadata.title).toBe(
        'Typed before the crash',
      ),
    );
    first.unmount();

    openDraft('jour1-00001');
    expect(titleInput().value).toBe('Ocean temperatures');
    fireEvent.click(await screen.findByRole('button', { name: 'Restore changes' }));
    expect(titleInput().value).toBe('Typed before the crash');
  });

  it.each([
    ['the tab is put away', () => setVisibility('hidden')],
    ['the page is left', () => window.dispatchEvent(new Event('pagehide'))],
  ])('writes the latest edits at once when %s', async (_, leave) => {
    // Timers of a page put away may never run: only the flush can write the journal here.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    stubFetch(() => {
      throw new Error('offline');
    });
    openDraft('jour6-00006');
    typeTitle('Typed just before closing the laptop');
    leave();

    const entry = await createDraftJournal().read('jour6-00006');
    expect(entry?.values.metadata.title).toBe('Typed just before closing the laptop');
  });

  it('restores edits after a save refused because the session expired (401)', async () => {
    const requests = stubFetchSequence(
      jsonResponse(401, {
        status: 401,
        message:
          "The server could not verify that you are authorized to access the URL requested. You either supplied the wrong credentials (e.g. a bad password), or your browser doesn't understand how to supply the credentials required.",
      }),
    );
    const first = renderApp({
      path: '/uploads/jour5-00005',
      bootstrap: { draft: buildDraft({ id: 'jour5-00005', files: { enabled: false } }) },
    });
    typeTitle('Typed while the session ran out');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The server could not verify that you are authorized',
    );
    expect(requests).toHaveLength(1);
    // The refused save left the edit in the journal: nothing was saved to forget it by.
    const journal = createDraftJournal();
    await waitFor(async () =>
      expect((await journal.read('jour5-00005'))?.values.metadata.title).toBe(
        'Typed while the session ran out',
      ),
    );
    first.unmount();

    // Signed in again, the person opens the draft as the server still has it.
    openDraft('jour5-00005');
    expect(titleInput().value).toBe('Ocean temperatures');
    fireEvent.click(await screen.findByRole('button', { name: 'Restore changes' }));
    expect(titleInput().value).toBe('Typed while the session ran out');
  });

  it('keeps the last of several quick edits, and the edits after that', async () => {
    stubFetch(() => {
      throw new Error('offline');
    });
    renderApp({
      path: '/uploads/jour4-00004',
      bootstrap: { draft: buildDraft({ id: 'jour4-00004' }) },
    });
    const journal = createDraftJournal();
    const journaledTitle = async () => (await journal.read('jour4-00004'))?.values.metadata.title;

    typeTitle('First');
    typeTitle('Second');
    await waitFor(async () => expect(await journaledTitle()).toBe('Second'));
    typeTitle('Third');
    await waitFor(async () => expect(await journaledTitle()).toBe('Third'));
  });

  it('forgets discarded edits', async () => {
    const journal = createDraftJournal();
    const values = structuredClone(
      (await import('./draft-values')).createDraftValues(buildDraft(), { defaultLocale: 'en' }, ''),
    );
    values.metadata.title = 'Old edit';
    await journal.write({
      key: 'jour2-00002',
      values,
      writtenAt: new Date().toISOString(),
      baseRevision: 1,
    });
    openDraft('jour2-00002');
    fireEvent.click(await screen.findByRole('button', { name: 'Discard them' }));
    await waitFor(async () => expect(await journal.read('jour2-00002')).toBeUndefined());
    expect(titleInput().value).toBe('Ocean temperatures');
  });

  it('offers nothing when the journal matches the saved draft', async () => {
    const journal = createDraftJournal();
    const { createDraftValues } = await import('./draft-values');
    await journal.write({
      key: 'jour3-00003',
      values: createDraftValues(buildDraft({ id: 'jour3-00003' }), { defaultLocale: 'en' }, ''),
      writtenAt: new Date().toISOString(),
      baseRevision: 1,
    });
    openDraft('jour3-00003');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Restore changes' })).toBeNull();
  });
});
