import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { buildCommunity, buildCommunitySearch } from '../../../test/community-builders';
import { jsonResponse, stubFetch, type RecordedRequest } from '../../../test/fetch';
import { renderInDepositForm } from '../../../test/renderInDepositForm';
import type { CommunityJson } from './community-json';
import {
  CommunitySelectionModal,
  type CommunitySelectionModalProps,
} from './CommunitySelectionModal';

const OCEANS = buildCommunity({ id: 'c-1', title: 'Ocean sciences' });
const CLOSED_LAB = buildCommunity({
  id: 'c-2',
  title: 'Closed lab',
  ui: { permissions: { can_include_directly: false, can_submit_record: false }, has_logo: false },
});
const SECRET = buildCommunity({
  id: 'c-3',
  title: 'Secret archive',
  access: { visibility: 'restricted' },
  ui: {
    permissions: { can_include_directly: false, can_submit_record: true },
    membership_role: 'reader',
  },
});
const THEMED = buildCommunity({
  id: 'c-4',
  slug: 'eu-open',
  title: 'EU open science',
  theme: { enabled: true },
  upload_form: { enabled: true },
});

function searchOf(request: RecordedRequest) {
  const url = new URL(request.url, 'http://localhost');
  return { path: url.pathname, ...Object.fromEntries(url.searchParams) };
}

function answerWith(hits: CommunityJson[], total = hits.length) {
  return stubFetch((request) =>
    jsonResponse(200, buildCommunitySearch(hits, total, new URL(request.url, 'http://x').pathname)),
  );
}

function renderModal(props: Partial<CommunitySelectionModalProps> = {}) {
  const onSelect = vi.fn();
  const onClose = vi.fn();
  const result = renderInDepositForm(
    <CommunitySelectionModal
      opened
      onClose={onClose}
      onSelect={onSelect}
      selected={null}
      isRecordPublic
      {...props}
    />,
  );
  return { ...result, onSelect, onClose };
}

async function result(title: string): Promise<HTMLElement> {
  const item = (await screen.findByText(title)).closest('li');
  if (!item) throw new Error(`No result for ${title}`);
  return item;
}

describe('CommunitySelectionModal', () => {
  it('searches all communities, five by best match from page 1, asking for the vnd JSON', async () => {
    const requests = answerWith([OCEANS]);
    renderModal();
    await result('Ocean sciences');
    expect(requests).toHaveLength(1);
    expect(searchOf(requests[0]!)).toEqual({
      path: '/api/communities',
      q: '',
      sort: 'bestmatch',
      page: '1',
      size: '5',
    });
    expect(requests[0]?.headers.get('Accept')).toBe('application/vnd.inveniordm.v1+json');
    expect(screen.getByRole('searchbox', { name: 'Search in all communities' })).toBeTruthy();
  });

  it('searches the person’s own communities on the My communities tab', async () => {
    const requests = answerWith([SECRET]);
    renderModal();
    fireEvent.click(screen.getByRole('tab', { name: 'My communities' }));
    const search = await screen.findByRole('searchbox', { name: 'Search in my communities' });
    await waitFor(() => expect(requests.at(-1)?.url).toContain('/api/user/communities'));

    fireEvent.change(search, { target: { value: 'archive' } });
    fireEvent.keyDown(search, { key: 'Enter' });
    await waitFor(() =>
      expect(searchOf(requests.at(-1)!)).toMatchObject({
        path: '/api/user/communities',
        q: 'archive',
        page: '1',
      }),
    );
  });

  it('pages through the results and starts again at page 1 on a new search', async () => {
    const requests = answerWith([OCEANS], 12);
    renderModal();
    await result('Ocean sciences');
    const pages = screen.getByRole('navigation', { name: 'Pages of communities' });
    expect(within(pages).getByRole('button', { name: '3' })).toBeTruthy();
    expect(within(pages).queryByRole('button', { name: '4' })).toBeNull();

    fireEvent.click(within(pages).getByRole('button', { name: '2' }));
    await waitFor(() => expect(searchOf(requests.at(-1)!)).toMatchObject({ page: '2' }));

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search in all communities' }), {
      target: { value: 'ocean' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(searchOf(requests.at(-1)!)).toMatchObject({ q: 'ocean', page: '1' }),
    );
  });

  it('selects a community and marks the chosen one as Selected', async () => {
    answerWith([OCEANS, buildCommunity({ id: 'c-9', title: 'Glaciers' })]);
    const { onSelect, onClose } = renderModal({ selected: OCEANS });
    const chosen = within(await result('Ocean sciences')).getByRole('button', {
      name: 'Selected: Ocean sciences',
    });
    expect(chosen.textContent).toBe('Selected');
    expect(chosen.getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(
      within(await result('Glaciers')).getByRole('button', { name: 'Select Glaciers' }),
    );
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ id: 'c-9' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('shows the membership role from the configuration, else from the API, and Verified', async () => {
    answerWith([OCEANS, SECRET, THEMED]);
    renderModal({ memberships: { 'c-1': 'owner' }, isRecordPublic: false });
    expect(within(await result('Ocean sciences')).getByText('Owner')).toBeTruthy();
    expect(within(await result('Secret archive')).getByText('Reader')).toBeTruthy();
    expect(within(await result('Secret archive')).getByText('Restricted')).toBeTruthy();
    expect(within(await result('EU open science')).getByText('Verified')).toBeTruthy();
    expect(within(await result('Ocean sciences')).queryByText('Verified')).toBeNull();
  });

  it('gives every result an info popup, opened and closed by keyboard', async () => {
    const described = buildCommunity({
      id: 'c-9',
      title: 'Seabird counts',
      metadata: { title: 'Seabird counts', description: 'Colony counts around the North Sea.' },
      access: { visibility: 'public', record_submission_policy: 'open', review_policy: 'members' },
    });
    answerWith([described, OCEANS, SECRET]);
    renderModal();
    // Selectable or not, each result has its ⓘ.
    for (const [title, label] of [
      ['Seabird counts', 'About Seabird counts'],
      ['Ocean sciences', 'About Ocean sciences'],
      ['Secret archive', "Why can't I select Secret archive?"],
    ]) {
      expect(within(await result(title!)).getByRole('button', { name: label })).toBeTruthy();
    }

    const user = userEvent.setup();
    const info = within(await result('Seabird counts')).getByRole('button', {
      name: 'About Seabird counts',
    });
    while (document.activeElement !== info) await user.tab();
    await user.keyboard('{Enter}');
    const popup = await screen.findByRole('dialog', { name: 'About Seabird counts' });
    expect(within(popup).getByText('Colony counts around the North Sea.')).toBeTruthy();
    expect(
      within(popup)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Anyone can see this community and the records published in it.',
      'Anyone with an account may submit records.',
      'Members publish without review; submissions from others are reviewed.',
    ]);

    await user.keyboard('{Escape}');
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'About Seabird counts' })).toBeNull(),
    );
    // Only the popup closed: the picker is still open, the focus back on the ⓘ.
    expect(screen.getByRole('dialog', { name: 'Select a community' })).toBeTruthy();
    expect(document.activeElement).toBe(info);
  });

  it('says in the popup of a barred community why, then what the community is', async () => {
    answerWith([SECRET]);
    renderModal();
    fireEvent.click(
      within(await result('Secret archive')).getByRole('button', {
        name: "Why can't I select Secret archive?",
      }),
    );
    const popup = await screen.findByRole('dialog', { name: "Why can't I select Secret archive?" });
    expect(popup.textContent).toMatch(
      /^Submission to this community is only allowed if the record is restricted\.Only members can see this community and its records\.Only members may submit records\./,
    );
  });

  it('bars a restricted community while the record is public, explaining in a popup', async () => {
    answerWith([SECRET]);
    const { rerenderWidget } = renderModal();
    const item = await result('Secret archive');
    expect(
      within(item).getByRole<HTMLButtonElement>('button', { name: 'Select Secret archive' })
        .disabled,
    ).toBe(true);
    fireEvent.click(
      within(item).getByRole('button', { name: "Why can't I select Secret archive?" }),
    );
    expect(
      await screen.findByText(
        'Submission to this community is only allowed if the record is restricted.',
      ),
    ).toBeTruthy();

    rerenderWidget(
      <CommunitySelectionModal
        opened
        onClose={vi.fn()}
        onSelect={vi.fn()}
        selected={null}
        isRecordPublic={false}
      />,
    );
    expect(
      within(await result('Secret archive')).getByRole<HTMLButtonElement>('button', {
        name: 'Select Secret archive',
      }).disabled,
    ).toBe(false);
  });

  it('bars communities that take submissions from members only', async () => {
    answerWith([CLOSED_LAB]);
    renderModal();
    const item = await result('Closed lab');
    expect(
      within(item).getByRole<HTMLButtonElement>('button', { name: 'Select Closed lab' }).disabled,
    ).toBe(true);
    fireEvent.click(within(item).getByRole('button', { name: "Why can't I select Closed lab?" }));
    expect(
      await screen.findByText('Submission to this community is only allowed to community members.'),
    ).toBeTruthy();
  });

  it('sends communities with their own upload form to their page on a first submission', async () => {
    answerWith([THEMED]);
    const { unmount } = renderModal();
    const item = await result('EU open science');
    expect(
      within(item).getByRole<HTMLButtonElement>('button', { name: 'Select EU open science' })
        .disabled,
    ).toBe(true);
    const link = within(item).getByRole('link', { name: 'Go to the community EU open science' });
    expect(link.textContent).toBe('Go to the community');
    expect(link.getAttribute('href')).toBe('/communities/eu-open');
    fireEvent.click(
      within(item).getByRole('button', { name: "Why can't I select EU open science?" }),
    );
    expect(
      await screen.findByText(
        'Submission to this community is only allowed by dedicated upload form. Use the button to jump to the form.',
      ),
    ).toBeTruthy();
    unmount();

    answerWith([THEMED]);
    renderModal({ isInitialSubmission: false });
    const later = await result('EU open science');
    expect(within(later).queryByRole('link')).toBeNull();
    expect(
      within(later).getByRole<HTMLButtonElement>('button', { name: 'Select EU open science' })
        .disabled,
    ).toBe(false);
  });

  it('says when nothing matches, and when the search failed', async () => {
    answerWith([]);
    const { unmount } = renderModal();
    expect(await screen.findByText('No communities match your search.')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'My communities' }));
    expect(await screen.findByText('You are not a member of any community yet.')).toBeTruthy();
    unmount();

    stubFetch(() => jsonResponse(400, { status: 400, message: 'Invalid querystring parameters.' }));
    renderModal();
    expect(
      await screen.findByText('The communities could not be loaded. Please try again.'),
    ).toBeTruthy();
  });

  it('speaks German', async () => {
    answerWith([OCEANS]);
    renderInDepositForm(
      <CommunitySelectionModal
        opened
        onClose={vi.fn()}
        onSelect={vi.fn()}
        selected={null}
        isRecordPublic
      />,
      { language: 'de' },
    );
    expect(await screen.findByRole('button', { name: 'Ocean sciences auswählen' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Meine Communities' })).toBeTruthy();
  });
});
