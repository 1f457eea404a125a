import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { descriptionOf } from '../../../test/renderApp';
import { renderInDepositForm } from '../../../test/renderInDepositForm';
import type { CommunityJson } from '../community/community-json';
import { AccessField } from './AccessField';

const RESTRICTED_COMMUNITY: CommunityJson = {
  id: 'c-1',
  slug: 'secret-lab',
  metadata: { title: 'Secret lab' },
  links: {},
  access: { visibility: 'restricted' },
};

const DAY_MS = 86_400_000;

function radio(group: string, name: string): HTMLInputElement {
  return within(screen.getByRole('radiogroup', { name: group })).getByRole<HTMLInputElement>(
    'radio',
    { name },
  );
}

function statusBox(): string {
  return screen.getByRole('note').textContent ?? '';
}

function embargoBox(): HTMLInputElement {
  return screen.getByRole<HTMLInputElement>('checkbox', { name: 'Apply an embargo' });
}

describe('AccessField', () => {
  it('starts a new record public, with files public and no embargo possible', () => {
    renderInDepositForm(<AccessField />);
    expect(radio('Full record', 'Public').checked).toBe(true);
    expect(radio('Files only', 'Public').checked).toBe(true);
    expect(statusBox()).toBe('PublicThe record and files are publicly accessible.');
    expect(embargoBox().disabled).toBe(true);
    expect(
      screen.getByText('Record or files protection must be restricted to apply an embargo.'),
    ).toBeTruthy();
  });

  it('restricts the full record, then applies an embargo with its date and reason', async () => {
    const { form } = renderInDepositForm(<AccessField />);
    fireEvent.click(radio('Full record', 'Restricted'));

    expect(form.getValues('access.record')).toBe('restricted');
    expect(screen.getByText('The full record is restricted.')).toBeTruthy();
    expect(screen.queryByRole('radiogroup', { name: 'Files only' })).toBeNull();
    expect(statusBox()).toBe(
      'RestrictedThe record can only be accessed by users specified in the permissions.',
    );

    fireEvent.click(embargoBox());
    // The date picker's code loads when the embargo is first shown.
    const until = await screen.findByRole('textbox', { name: 'Embargo until' });
    fireEvent.change(until, { target: { value: '2100-01-01' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Embargo reason' }), {
      target: { value: 'Patent pending' },
    });

    expect(form.getValues('access')).toEqual({
      record: 'restricted',
      files: 'public',
      embargo: { active: true, until: '2100-01-01', reason: 'Patent pending' },
    });
    expect(statusBox()).toBe(
      'Embargoed (full record)On Friday, January 1, 2100 the record will automatically be made publicly accessible. Until then, the record can only be accessed by users specified in the permissions.',
    );
  });

  it('clears the embargo when Public is chosen again', () => {
    const { form } = renderInDepositForm(<AccessField />, {
      values: {
        access: {
          record: 'restricted',
          files: 'restricted',
          embargo: { active: true, until: '2100-01-01', reason: 'Patent' },
        },
      },
    });
    fireEvent.click(radio('Full record', 'Public'));
    expect(form.getValues('access.embargo')).toEqual({ active: false });
    expect(screen.queryByRole('textbox', { name: 'Embargo until' })).toBeNull();
  });

  it('clears the embargo when the files are made public again', () => {
    const { form } = renderInDepositForm(<AccessField />, {
      values: {
        access: {
          record: 'public',
          files: 'restricted',
          embargo: { active: true, until: '2100-01-01' },
        },
      },
    });
    expect(statusBox()).toBe(
      'Embargoed (files-only)The record is publicly accessible. On Friday, January 1, 2100 the files will automatically be made publicly accessible. Until then, the files can only be accessed by users specified in the permissions.',
    );
    fireEvent.click(radio('Files only', 'Public'));
    expect(form.getValues('access')).toEqual({
      record: 'public',
      files: 'public',
      embargo: { active: false },
    });
  });

  it('shows a public record with restricted files and lets the files be embargoed', () => {
    renderInDepositForm(<AccessField />);
    fireEvent.click(radio('Files only', 'Restricted'));
    expect(statusBox()).toBe(
      'Public with restricted filesThe record is publicly accessible. The files can only be accessed by users specified in the permissions.',
    );
    expect(embargoBox().disabled).toBe(false);
  });

  it('unchecking the embargo resets it', () => {
    const { form } = renderInDepositForm(<AccessField />, {
      values: {
        access: {
          record: 'restricted',
          files: 'restricted',
          embargo: { active: true, until: '2100-01-01', reason: 'x' },
        },
      },
    });
    fireEvent.click(embargoBox());
    expect(form.getValues('access.embargo')).toEqual({ active: false });
  });

  it('sets the files public when the record becomes metadata-only', () => {
    const { form } = renderInDepositForm(<AccessField />, {
      values: { access: { record: 'public', files: 'restricted', embargo: { active: false } } },
    });
    act(() => form.setValue('files.enabled', false));
    expect(form.getValues('access.files')).toBe('public');
    expect(screen.getByText('The record has no files.')).toBeTruthy();
    expect(statusBox()).toBe('PublicThe record is publicly accessible.');
  });

  it('forces a restricted community onto a public record and disables Public until it is removed', () => {
    const { form, rerenderWidget } = renderInDepositForm(
      <AccessField community={RESTRICTED_COMMUNITY} />,
    );
    expect(form.getValues('access')).toEqual({
      record: 'restricted',
      files: 'restricted',
      embargo: { active: false },
    });
    expect(radio('Full record', 'Public').disabled).toBe(true);
    expect(
      screen.getByText(
        'The selected community is restricted, so the record must be restricted too.',
      ),
    ).toBeTruthy();
    expect(embargoBox().disabled).toBe(true);
    expect(statusBox()).toContain('Restricted');

    rerenderWidget(<AccessField community={null} />);
    expect(radio('Full record', 'Public').disabled).toBe(false);
    fireEvent.click(radio('Full record', 'Public'));
    expect(form.getValues('access.record')).toBe('public');
  });

  it('locks Restricted on a published record past the grace period, telling whom to contact', () => {
    const created = new Date(Date.now() - 40 * DAY_MS).toISOString();
    const published = { isPublished: true, created, storedRecordAccess: 'public' };
    const { rerenderWidget } = renderInDepositForm(
      <AccessField record={published} gracePeriod={{ days: 30, allowAfterGrace: false }} />,
    );
    const restricted = radio('Full record', 'Restricted');
    expect(restricted.disabled).toBe(true);
    expect(
      screen.getByText(/Please contact support if you still need to make these changes\./),
    ).toBeTruthy();

    rerenderWidget(
      <AccessField record={published} gracePeriod={{ days: 30, allowAfterGrace: true }} />,
    );
    expect(radio('Full record', 'Restricted').disabled).toBe(false);

    rerenderWidget(
      <AccessField record={published} gracePeriod={{ days: 60, allowAfterGrace: false }} />,
    );
    expect(radio('Full record', 'Restricted').disabled).toBe(false);

    rerenderWidget(
      <AccessField
        record={{ ...published, isPublished: false }}
        gracePeriod={{ days: 30, allowAfterGrace: false }}
      />,
    );
    expect(radio('Full record', 'Restricted').disabled).toBe(false);
  });

  it('says when a past embargo was lifted, with its reason', () => {
    renderInDepositForm(<AccessField />, {
      values: {
        access: {
          record: 'public',
          files: 'public',
          embargo: { active: false, until: '2020-01-01', reason: 'Patent' },
        },
      },
    });
    expect(screen.getByText(/Embargo was lifted on Wednesday, January 1, 2020\./)).toBeTruthy();
    expect(screen.getByText(/Reason: Patent/)).toBeTruthy();
  });

  it('requires a future embargo end date in YYYY-MM-DD when the form is validated', async () => {
    const { form } = renderInDepositForm(<AccessField />, {
      values: { access: { record: 'restricted', files: 'restricted', embargo: { active: true } } },
    });
    await act(() => form.trigger('access.embargo.until'));
    expect(screen.getByText('Missing data for required field.')).toBeTruthy();

    act(() => form.setValue('access.embargo.until', '2001-01-01'));
    await act(() => form.trigger('access.embargo.until'));
    expect(screen.getByText('Embargo end date must be set to a future date.')).toBeTruthy();

    act(() => form.setValue('access.embargo.until', '01/01/2100'));
    await act(() => form.trigger('access.embargo.until'));
    expect(screen.getByText('Not a valid date.')).toBeTruthy();
  });

  it('shows the server’s errors on the access choices', () => {
    const { form } = renderInDepositForm(<AccessField />);
    act(() =>
      form.setError('access.record', {
        message:
          'Record visibility can not be changed to restricted anymore. Please contact support if you still need to make these changes.',
      }),
    );
    expect(descriptionOf(screen.getByRole('radiogroup', { name: 'Full record' }))).toContain(
      'can not be changed to restricted anymore',
    );
  });

  it('speaks German', () => {
    renderInDepositForm(<AccessField />, { language: 'de' });
    expect(screen.getByRole('radiogroup', { name: 'Gesamter Datensatz' })).toBeTruthy();
    expect(statusBox()).toBe('ÖffentlichDer Datensatz und die Dateien sind öffentlich zugänglich.');
  });
});
