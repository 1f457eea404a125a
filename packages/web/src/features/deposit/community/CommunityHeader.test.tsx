import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildCommunity, buildCommunitySearch } from '../../../test/community-builders';
import { jsonResponse, stubFetch } from '../../../test/fetch';
import { descriptionOf } from '../../../test/renderApp';
import { renderInDepositForm } from '../../../test/renderInDepositForm';
import { CommunityHeader, type CommunityRecordState } from './CommunityHeader';

const NEW_RECORD: CommunityRecordState = { isNew: true, canManage: true };
const OCEANS = buildCommunity({
  id: 'c-oceans',
  title: 'Ocean sciences',
  theme: { enabled: true },
  ui: {
    permissions: { can_include_directly: true, can_submit_record: true },
    has_logo: true,
    membership_role: 'curator',
  },
});

function header() {
  return screen.getByRole('region', { name: 'Community' });
}

describe('CommunityHeader', () => {
  it('prompts for a community when none is chosen', () => {
    renderInDepositForm(
      <CommunityHeader community={undefined} record={NEW_RECORD} onChange={vi.fn()} />,
    );
    expect(
      within(header()).getByText('Select the community where you want to submit your record.'),
    ).toBeTruthy();
    expect(within(header()).getByRole('button', { name: 'Select a community' })).toBeTruthy();
    expect(within(header()).queryByRole('button', { name: /Remove/ })).toBeNull();
  });

  it('shows the chosen community with its logo, role and Verified badge', () => {
    const { container } = renderInDepositForm(
      <CommunityHeader community={OCEANS} record={NEW_RECORD} onChange={vi.fn()} />,
    );
    expect(within(header()).getByText('Ocean sciences')).toBeTruthy();
    expect(within(header()).getByText('Verified')).toBeTruthy();
    expect(within(header()).getByText('Curator')).toBeTruthy();
    expect(container.querySelector('img')?.getAttribute('src')).toBe(
      'http://127.0.0.1:5000/api/communities/c-oceans/logo',
    );
    expect(within(header()).getByRole('button', { name: 'Change' })).toBeTruthy();
  });

  it('shows no Verified badge for a community without a theme', () => {
    renderInDepositForm(
      <CommunityHeader
        community={buildCommunity({ id: 'c-2', title: 'Plain' })}
        record={NEW_RECORD}
        onChange={vi.fn()}
      />,
    );
    expect(within(header()).queryByText('Verified')).toBeNull();
  });

  it('removes the community', () => {
    const onChange = vi.fn();
    renderInDepositForm(
      <CommunityHeader community={OCEANS} record={NEW_RECORD} onChange={onChange} />,
    );
    fireEvent.click(
      within(header()).getByRole('button', { name: 'Remove the community Ocean sciences' }),
    );
    expect(onChange).toHaveBeenCalledWith(null);
  });

  it('disables change and remove on a record the person cannot manage, saying why', () => {
    renderInDepositForm(
      <CommunityHeader
        community={OCEANS}
        record={{ isNew: false, canManage: false, status: 'draft_with_review' }}
        onChange={vi.fn()}
      />,
    );
    const change = within(header()).getByRole<HTMLButtonElement>('button', { name: 'Change' });
    expect(change.disabled).toBe(true);
    expect(descriptionOf(change)).toBe(
      "You don't have permission to change the community of this upload.",
    );
    expect(
      within(header()).getByRole<HTMLButtonElement>('button', { name: /Remove/ }).disabled,
    ).toBe(true);
  });

  it('disables them while in review and after a declined review, by the editor flag', () => {
    const { rerenderWidget } = renderInDepositForm(
      <CommunityHeader
        community={OCEANS}
        record={{
          isNew: false,
          canManage: true,
          status: 'in_review',
          disableSelectionButton: true,
        }}
        onChange={vi.fn()}
      />,
    );
    const change = () =>
      within(header()).getByRole<HTMLButtonElement>('button', { name: 'Change' });
    expect(change().disabled).toBe(true);
    expect(descriptionOf(change())).toBe(
      'The community cannot be changed while the upload is in review.',
    );

    rerenderWidget(
      <CommunityHeader
        community={OCEANS}
        record={{ isNew: false, canManage: true, status: 'declined', disableSelectionButton: true }}
        onChange={vi.fn()}
      />,
    );
    expect(descriptionOf(change())).toContain('The review was declined or has expired.');

    rerenderWidget(
      <CommunityHeader
        community={OCEANS}
        record={{ isNew: false, canManage: true, status: 'draft_with_review' }}
        onChange={vi.fn()}
      />,
    );
    expect(change().disabled).toBe(false);
  });

  it('hides the buttons, or the whole bar, as the editor state says', () => {
    const { rerenderWidget } = renderInDepositForm(
      <CommunityHeader
        community={OCEANS}
        record={{ isNew: false, canManage: true, status: 'published', showSelectionButton: false }}
        onChange={vi.fn()}
      />,
    );
    expect(within(header()).getByText('Ocean sciences')).toBeTruthy();
    expect(within(header()).queryByRole('button')).toBeNull();

    rerenderWidget(
      <CommunityHeader
        community={null}
        record={{ isNew: false, canManage: true, status: 'published', showHeader: false }}
        onChange={vi.fn()}
      />,
    );
    expect(screen.queryByRole('region', { name: 'Community' })).toBeNull();
  });

  it('names a deleted community as such', () => {
    renderInDepositForm(
      <CommunityHeader
        community={{
          id: 'gone',
          is_ghost: true,
          metadata: { title: 'Deleted community' },
          access: {},
          links: {},
        }}
        record={NEW_RECORD}
        onChange={vi.fn()}
      />,
    );
    expect(within(header()).getByText('Deleted community')).toBeTruthy();
  });

  it('opens the picker and hands the chosen community to the core', async () => {
    stubFetch(() => jsonResponse(200, buildCommunitySearch([OCEANS])));
    const onChange = vi.fn();
    renderInDepositForm(
      <CommunityHeader community={null} record={NEW_RECORD} onChange={onChange} />,
    );
    fireEvent.click(within(header()).getByRole('button', { name: 'Select a community' }));

    const dialog = await screen.findByRole('dialog', { name: 'Select a community' });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Select Ocean sciences' }));
    expect(onChange).toHaveBeenCalledWith(OCEANS);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('speaks German', () => {
    renderInDepositForm(
      <CommunityHeader community={null} record={NEW_RECORD} onChange={vi.fn()} />,
      { language: 'de' },
    );
    expect(screen.getByRole('button', { name: 'Community auswählen' })).toBeTruthy();
  });
});
