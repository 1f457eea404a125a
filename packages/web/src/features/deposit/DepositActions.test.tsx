import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../../browser';
import { buildDraft } from '../../test/builders';
import { jsonResponse, stubFetch, stubFetchSequence } from '../../test/fetch';
import { descriptionOf, renderApp } from '../../test/renderApp';
import { ActionButton } from './ActionButton';
import { createInitialActionState, type DepositAction } from './action-state';

const SITE = 'http://127.0.0.1:5000';

const METADATA_ONLY = buildDraft({ files: { enabled: false } });

function openDraft(draft = METADATA_ONLY, bootstrap: Record<string, unknown> = {}) {
  renderApp({ path: `/uploads/${draft.id}`, bootstrap: { draft, ...bootstrap } });
}

function dialog(name: string): HTMLElement {
  return screen.getByRole('dialog', { name });
}

/** Messages of the errors the page logged (the router's error page logs what a page threw). */
function thrownMessages(spy: { mock: { calls: unknown[][] } }): string[] {
  return spy.mock.calls.flat().flatMap((value) => (value instanceof Error ? [value.message] : []));
}

/** Answers each request when the test says so, so that what shows meanwhile can be seen. */
function stubHeldFetch() {
  const waiting: ((response: Response) => void)[] = [];
  const requests = stubFetch(
    () =>
      new Promise<Response>((resolve) => {
        waiting.push(resolve);
      }),
  );
  return {
    requests,
    /** Answers the oldest request still waiting. */
    answer: async (response: Response) => {
      await waitFor(() => expect(waiting.length).toBeGreaterThan(0));
      act(() => waiting.shift()?.(response));
    },
  };
}

/** The action bar's button of `action` (every one names its action). */
function actionButton(action: DepositAction): HTMLButtonElement {
  const button = document.querySelector<HTMLButtonElement>(`button[data-action="${action}"]`);
  if (!button) throw new Error(`No button for ${action}`);
  return button;
}

function isSpinning(button: HTMLElement): boolean {
  return button.hasAttribute('data-loading');
}

describe('ActionButton', () => {
  it('refuses to render without an action name', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() =>
      render(
        <ActionButton actionState={createInitialActionState()} onClick={() => undefined}>
          Go
        </ActionButton>,
      ),
    ).toThrow('The submit btn must set the form action name.');
  });
});

describe('deposit actions', () => {
  it('asks for every extra checkbox of the publish dialog before publishing', async () => {
    const requests = stubFetchSequence(
      jsonResponse(200, METADATA_ONLY),
      jsonResponse(202, { ...METADATA_ONLY, links: { self_html: `${SITE}/records/abcde-12345` } }),
    );
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    openDraft(METADATA_ONLY, {
      config: {
        publishModalExtra: {
          checkboxes: [{ id: 'terms', label: 'I accept the terms of use.' }],
          text: 'Read the policy first.',
        },
      },
    });

    fireEvent.click(screen.getByRole('button', { name: 'Publish' }));
    const modal = dialog('Are you sure you want to publish this record?');
    expect(modal.textContent).toContain(
      'Once the record is published you will no longer be able to change the files in the upload!',
    );
    expect(modal.textContent).toContain('Read the policy first.');
    fireEvent.click(within(modal).getByRole('button', { name: 'Publish' }));
    expect(modal.textContent).toContain('You must accept this');
    expect(requests).toHaveLength(0);

    fireEvent.click(within(modal).getByRole('checkbox', { name: 'I accept the terms of use.' }));
    fireEvent.click(within(modal).getByRole('button', { name: 'Publish' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${SITE}/records/abcde-12345`));
    expect(requests.map((r) => r.method)).toEqual(['PUT', 'POST']);
  });

  it('raises an error for duplicate extra checkbox ids', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    openDraft(METADATA_ONLY, {
      config: {
        publishModalExtra: {
          checkboxes: [
            { id: 'terms', label: 'A' },
            { id: 'terms', label: 'B' },
          ],
        },
      },
    });
    expect(thrownMessages(logged)).toContain(
      'Duplicate extra checkbox id "terms" in the publish dialog.',
    );
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
  });

  it.each([
    [buildDraft(), 'Delete', 'Are you sure you want to delete this draft?'],
    [
      buildDraft({ versions: { index: 2 } }),
      'Discard version',
      'Are you sure you want to delete this new version?',
    ],
    [
      buildDraft({ is_published: true }),
      'Discard changes',
      'Are you sure you want to discard the changes to this draft?',
    ],
  ])('confirms before deleting with its own wording (%#)', async (draft, label, question) => {
    const requests = stubFetchSequence(jsonResponse(204));
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    openDraft(draft);

    fireEvent.click(screen.getByRole('button', { name: label }));
    const modal = dialog(label);
    expect(modal.textContent).toContain(question);
    fireEvent.click(within(modal).getByRole('button', { name: label }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('/me/uploads'));
    expect(requests[0]?.method).toBe('DELETE');
    expect(requests[0]?.url).toBe('/api/records/abcde-12345/draft');
  });

  it('names the close button of its dialogs, in the page’s language', async () => {
    openDraft(buildDraft());
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(dialog('Delete')).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Publish' }));
    const publish = dialog('Are you sure you want to publish this record?');
    expect(within(publish).getByRole('button', { name: 'Close' })).toBeTruthy();
  });

  it('says so when deleting fails', async () => {
    stubFetchSequence(jsonResponse(500, { status: 500, message: 'Storage is down.' }));
    openDraft(buildDraft());
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(dialog('Delete')).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Storage is down.');
  });

  it('cannot delete a new upload before its first save', () => {
    renderApp({ path: '/uploads/new' });
    expect(screen.getByRole('button', { name: 'Delete' }).hasAttribute('disabled')).toBe(true);
  });

  it('saves, then opens the preview of the draft', async () => {
    const requests = stubFetchSequence(jsonResponse(200, METADATA_ONLY));
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    openDraft();
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith(`${SITE}/records/abcde-12345?preview=1`),
    );
    expect(requests.map((r) => r.method)).toEqual(['PUT']);
  });

  it('does not preview a draft with validation errors', async () => {
    stubFetchSequence(
      jsonResponse(200, {
        ...METADATA_ONLY,
        errors: [{ field: 'metadata.title', messages: ['Missing data for required field.'] }],
      }),
    );
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    openDraft();
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Unable to display preview. Please correct validation issues in Basic information (1)',
    );
    expect(assign).not.toHaveBeenCalled();
  });

  it('shows the status of a draft in review with a link to its request in a new tab', () => {
    openDraft(
      buildDraft({
        status: 'in_review',
        parent: { id: 'p1', review: { id: 'req-9', receiver: { community: 'c1' } } },
      }),
    );
    expect(screen.getByText('In review')).toBeTruthy();
    const link = screen.getByRole('link', { name: 'View request' });
    expect(link.getAttribute('href')).toBe('/me/requests/req-9');
    expect(link.getAttribute('target')).toBe('_blank');
  });

  it('refuses a draft of unknown status', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    openDraft(buildDraft({ status: 'teleported' }));
    expect(thrownMessages(logged)).toContain('Status is undefined');
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('creates a new version of a published record and goes to its draft', async () => {
    const published = buildDraft({
      is_published: true,
      status: 'published',
      links: { ...buildDraft().links, versions: `${SITE}/api/records/abcde-12345/versions` },
    });
    const requests = stubFetchSequence(
      jsonResponse(201, buildDraft({ id: 'fghij-67890', versions: { index: 2 } })),
    );
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    openDraft(published);
    fireEvent.click(screen.getByRole('button', { name: 'New version' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${SITE}/uploads/fghij-67890`));
    expect(requests[0]?.url).toBe('/api/records/abcde-12345/versions');
  });

  it('shows the server’s message when a new version cannot be made', async () => {
    const published = buildDraft({
      is_published: true,
      status: 'published',
      links: { ...buildDraft().links, versions: `${SITE}/api/records/abcde-12345/versions` },
    });
    stubFetchSequence(
      jsonResponse(400, { status: 400, message: 'A new version draft exists already.' }),
      jsonResponse(503),
    );
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    openDraft(published);

    fireEvent.click(screen.getByRole('button', { name: 'New version' }));
    const banner = (await screen.findByText('A new version draft exists already.')).closest(
      '[role="alert"]',
    );
    expect(banner?.getAttribute('data-tone')).toBe('negative');
    expect(assign).not.toHaveBeenCalled();

    // Without a message of the server's, the banner says it in its own words.
    fireEvent.click(screen.getByRole('button', { name: 'New version' }));
    expect(
      await screen.findByText(
        'A new version could not be created. Please try again. If the problem persists, contact user support.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('A new version draft exists already.')).toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });

  it('disables new version without the permission and says why', async () => {
    openDraft(buildDraft({ is_published: true, status: 'published' }), {
      permissions: { can_new_version: false },
    });
    const button = screen.getByRole('button', { name: 'New version' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    fireEvent.mouseEnter(button);
    expect((await screen.findByRole('tooltip')).textContent).toBe(
      "You don't have permissions to create a new version.",
    );
  });

  it('spins the button of the running action and holds the others until it ends', async () => {
    const held = stubHeldFetch();
    openDraft();
    const [save, preview, publish] = (['save', 'preview', 'publish'] as const).map(actionButton);
    expect([save, preview, publish].some((button) => isSpinning(button!))).toBe(false);

    fireEvent.click(save!);
    await waitFor(() => expect(isSpinning(save!)).toBe(true));
    expect(isSpinning(preview!)).toBe(false);
    expect(preview!.disabled).toBe(true);
    expect(publish!.disabled).toBe(true);

    await held.answer(jsonResponse(200, METADATA_ONLY));
    await waitFor(() => expect(isSpinning(save!)).toBe(false));
    expect(preview!.disabled).toBe(false);
    expect(publish!.disabled).toBe(false);
    expect(await screen.findByText('Record successfully saved.')).toBeTruthy();
  });

  it('spins Publish through the save and the publish call, and stops it when publishing fails', async () => {
    const held = stubHeldFetch();
    openDraft();
    fireEvent.click(actionButton('publish'));
    const modal = dialog('Are you sure you want to publish this record?');
    fireEvent.click(within(modal).getByRole('button', { name: 'Publish' }));

    await waitFor(() => expect(isSpinning(actionButton('publish'))).toBe(true));
    expect(isSpinning(actionButton('save'))).toBe(false);
    expect(actionButton('save').disabled).toBe(true);
    await held.answer(jsonResponse(200, METADATA_ONLY));
    await waitFor(() => expect(held.requests.map((r) => r.method)).toEqual(['PUT', 'POST']));
    expect(isSpinning(actionButton('publish'))).toBe(true);

    await held.answer(jsonResponse(500, { status: 500, message: 'Internal server error.' }));
    await waitFor(() => expect(isSpinning(actionButton('publish'))).toBe(false));
    expect(actionButton('save').disabled).toBe(false);
    expect((await screen.findByRole('alert')).textContent).toContain('Internal server error.');
  });

  it('blocks publishing when the person needs a DOI and none is reserved', async () => {
    const requests = stubFetchSequence(jsonResponse(200, METADATA_ONLY));
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    openDraft();
    fireEvent.click(screen.getByRole('radio', { name: 'No, I need one' }));

    fireEvent.click(screen.getByRole('button', { name: 'Publish' }));
    const modal = dialog('Are you sure you want to publish this record?');
    fireEvent.click(within(modal).getByRole('button', { name: 'Publish' }));

    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain(
      'The draft was not published. Record saved with validation feedback in',
    );
    expect(within(banner).getByRole('link', { name: 'Basic information (1)' })).toBeTruthy();
    expect(descriptionOf(screen.getByRole('group', { name: /Digital Object Identifier/ }))).toBe(
      'DOI is needed. You need to reserve a DOI before publishing.',
    );
    // Saved, then stopped: nothing was published.
    expect(requests.map((r) => r.method)).toEqual(['PUT']);
    expect(assign).not.toHaveBeenCalled();
  });

  it('publishes once the person says no DOI is needed after all', async () => {
    const requests = stubFetchSequence(
      jsonResponse(200, METADATA_ONLY),
      jsonResponse(202, { ...METADATA_ONLY, links: { self_html: `${SITE}/records/abcde-12345` } }),
    );
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    openDraft();
    fireEvent.click(screen.getByRole('radio', { name: 'No, I need one' }));
    fireEvent.click(screen.getByRole('radio', { name: "No, I don't need one" }));

    fireEvent.click(screen.getByRole('button', { name: 'Publish' }));
    const modal = dialog('Are you sure you want to publish this record?');
    fireEvent.click(within(modal).getByRole('button', { name: 'Publish' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${SITE}/records/abcde-12345`));
    expect(requests.map((r) => r.method)).toEqual(['PUT', 'POST']);
  });

  it('disables publish while files are enabled but none are uploaded', () => {
    openDraft(buildDraft({ files: { enabled: true, entries: {} } }));
    expect(screen.getByRole('button', { name: 'Publish' }).hasAttribute('disabled')).toBe(true);
  });
});
