import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { RecordJson } from '../../../api/records';
import { browser } from '../../../browser';
import { buildBootstrap, buildDraft, buildRequest } from '../../../test/builders';
import { buildCommunity, buildCommunitySearch } from '../../../test/community-builders';
import { jsonResponse, stubFetch } from '../../../test/fetch';
import { descriptionOf, renderApp } from '../../../test/renderApp';
import type { CommunityJson } from './community-json';
import { stubFetchWithVocabularies } from '../creators/test-responses';

const SITE = 'http://127.0.0.1:5000';

const RESTRICTED = buildCommunity({
  id: 'c-7',
  title: 'Closed archive',
  access: { visibility: 'restricted' },
  ui: {
    permissions: { can_include_directly: false, can_submit_record: true },
    membership_role: 'owner',
  },
});

describe('the deposit page with the community bar and the access panel', () => {
  it('lets a restricted record go to a restricted community, which then keeps Public disabled', async () => {
    stubFetch(() => jsonResponse(200, buildCommunitySearch([RESTRICTED])));
    renderApp({ path: '/uploads/new' });
    const fullRecord = () => screen.getByRole('radiogroup', { name: 'Full record' });

    fireEvent.click(within(fullRecord()).getByRole('radio', { name: 'Restricted' }));
    fireEvent.click(screen.getByRole('button', { name: 'Select a community' }));
    const dialog = await screen.findByRole('dialog', { name: 'Select a community' });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Select Closed archive' }));

    const bar = screen.getByRole('region', { name: 'Community' });
    await waitFor(() => expect(within(bar).getByText('Closed archive')).toBeTruthy());
    expect(within(bar).getByText('Owner')).toBeTruthy();
    expect(
      within(fullRecord()).getByRole<HTMLInputElement>('radio', { name: /Public/ }).disabled,
    ).toBe(true);

    fireEvent.click(
      within(bar).getByRole('button', { name: 'Remove the community Closed archive' }),
    );
    expect(
      within(fullRecord()).getByRole<HTMLInputElement>('radio', { name: /Public/ }).disabled,
    ).toBe(false);
  });
});

/** A metadata-only draft whose review to `community` was created (status draft_with_review). */
function draftForCommunity(community: CommunityJson): RecordJson {
  const draft = buildDraft({ status: 'draft_with_review' });
  return {
    ...draft,
    links: {
      ...draft.links,
      review: `${SITE}/api/records/abcde-12345/draft/review`,
      'submit-review': `${SITE}/api/records/abcde-12345/draft/actions/submit-review`,
    },
    parent: {
      id: 'parnt-00001',
      review: { id: 'r-1', status: 'created', receiver: { community: community.id } },
    },
    expanded: { parent: { review: { receiver: community } } },
  };
}

function submitted(nextHtml: string) {
  return jsonResponse(202, buildRequest({ status: 'submitted', links: { next_html: nextHtml } }));
}

/** Ticks every checkbox of the open dialog and presses its submit button. */
function confirmIn(dialog: HTMLElement, button: string) {
  for (const box of within(dialog).getAllByRole('checkbox')) fireEvent.click(box);
  fireEvent.click(within(dialog).getByRole('button', { name: button }));
}

describe('submitting from the editor to the chosen community', () => {
  const OCEANS = buildCommunity({ id: 'c-1', title: 'Ocean sciences' });

  it('submits for review with the message to the curators and goes to the request', async () => {
    const draft = draftForCommunity(OCEANS);
    const requests = stubFetchWithVocabularies(
      jsonResponse(200, draft),
      submitted(`${SITE}/me/requests/r-1`),
    );
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    renderApp({ path: '/uploads/abcde-12345', bootstrap: { draft } });
    expect(screen.queryByRole('button', { name: 'Publish to community' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Submit for review' }));
    const dialog = await screen.findByRole('dialog', { name: 'Submit for review' });
    fireEvent.change(
      within(dialog).getByRole('textbox', { name: 'Message to curators (optional)' }),
      {
        target: { value: 'Counts from Bass Rock.' },
      },
    );
    confirmIn(dialog, 'Submit record for review');

    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${SITE}/me/requests/r-1`));
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'PUT /api/records/abcde-12345/draft?expand=1',
      'POST /api/records/abcde-12345/draft/actions/submit-review',
    ]);
    expect(requests[1]?.body).toEqual({
      payload: { content: '<p>Counts from Bass Rock.</p>', format: 'html' },
    });
  });

  it('blocks the submission when the person needs a DOI and none is reserved', async () => {
    const draft = draftForCommunity(OCEANS);
    const requests = stubFetchWithVocabularies(jsonResponse(200, draft));
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    renderApp({ path: '/uploads/abcde-12345', bootstrap: { draft } });
    fireEvent.click(screen.getByRole('radio', { name: 'No, I need one' }));

    fireEvent.click(screen.getByRole('button', { name: 'Submit for review' }));
    confirmIn(
      await screen.findByRole('dialog', { name: 'Submit for review' }),
      'Submit record for review',
    );

    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain(
      'The draft was not submitted for review. Record saved with validation feedback in',
    );
    expect(within(banner).getByRole('link', { name: 'Basic information (1)' })).toBeTruthy();
    expect(descriptionOf(screen.getByRole('group', { name: /Digital Object Identifier/ }))).toBe(
      'DOI is needed. You need to reserve a DOI before submitting for review.',
    );
    expect(requests.map((request) => request.method)).toEqual(['PUT']);
    expect(assign).not.toHaveBeenCalled();
  });

  const DIRECT = buildCommunity({
    id: 'c-2',
    title: 'Open glaciers',
    ui: { permissions: { can_include_directly: true, can_submit_record: true } },
  });

  it('publishes straight into a community that includes directly', async () => {
    const draft = draftForCommunity(DIRECT);
    const requests = stubFetchWithVocabularies(
      jsonResponse(200, draft),
      submitted(`${SITE}/records/abcde-12345`),
    );
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    renderApp({ path: '/uploads/abcde-12345', bootstrap: { draft } });

    fireEvent.click(screen.getByRole('button', { name: 'Publish to community' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish to community' });
    // No message: nobody reviews it.
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    confirmIn(dialog, 'Publish record to community');

    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${SITE}/records/abcde-12345`));
    expect(requests[1]?.body).toEqual({});
  });

  it('asks for a review beside "Publish to community" only when the person chose review', async () => {
    const draft = draftForCommunity(DIRECT);
    const requests = stubFetchWithVocabularies(
      jsonResponse(200, draft),
      submitted(`${SITE}/me/requests/r-1`),
    );
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    renderApp({ path: '/uploads/abcde-12345', bootstrap: { draft } });

    fireEvent.click(screen.getByRole('button', { name: 'Submit for review' }));
    confirmIn(
      await screen.findByRole('dialog', { name: 'Submit for review' }),
      'Submit record for review',
    );

    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${SITE}/me/requests/r-1`));
    expect(requests[1]?.body).toEqual({ require_review: true });
  });

  it('shows a draft in review as submitted, with no way to submit it again', () => {
    const draft = { ...draftForCommunity(OCEANS), status: 'in_review' };
    stubFetchWithVocabularies();
    renderApp({ path: '/uploads/abcde-12345', bootstrap: { draft } });
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Submitted for review' }).disabled,
    ).toBe(true);
    expect(screen.getByRole('link', { name: 'View request' }).getAttribute('href')).toBe(
      '/me/requests/r-1',
    );
  });
});

describe("the person's role in the deposit page's communities", () => {
  const OCEANS = buildCommunity({ id: 'c-1', title: 'Ocean sciences' });
  const GLACIERS = buildCommunity({ id: 'c-9', title: 'Glaciers' });
  /** The deposit page's configuration, as the server fills it for a curator of Ocean sciences. */
  const config = {
    ...buildBootstrap().config,
    userCommunitiesMemberships: { 'c-1': 'curator' },
  };

  it('badges the chosen community and the picker’s results from the configuration', async () => {
    // The draft's community as the server expands it: it names no role.
    const draft = draftForCommunity(OCEANS);
    stubFetchWithVocabularies(jsonResponse(200, buildCommunitySearch([OCEANS, GLACIERS])));
    renderApp({ path: '/uploads/abcde-12345', bootstrap: { draft, config } });

    const bar = screen.getByRole('region', { name: 'Community' });
    expect(within(bar).getByText('Ocean sciences')).toBeTruthy();
    expect(within(bar).getByText('Curator')).toBeTruthy();

    fireEvent.click(within(bar).getByRole('button', { name: 'Change' }));
    const dialog = await screen.findByRole('dialog', { name: 'Select a community' });
    const item = (title: string) => within(dialog).getByText(title).closest('li') as HTMLElement;
    await waitFor(() => expect(within(dialog).getByText('Glaciers')).toBeTruthy());
    expect(within(item('Ocean sciences')).getByText('Curator')).toBeTruthy();
    expect(within(item('Glaciers')).queryByText('Curator')).toBeNull();
  });

  it('shows no role where the person holds none', () => {
    stubFetchWithVocabularies();
    renderApp({ path: '/uploads/abcde-12345', bootstrap: { draft: draftForCommunity(OCEANS) } });
    const bar = screen.getByRole('region', { name: 'Community' });
    expect(within(bar).getByText('Ocean sciences')).toBeTruthy();
    expect(within(bar).queryByText('Curator')).toBeNull();
  });
});
