import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { doiNeededFor } from '@cairn/shared';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../../i18n/i18n';
import { renderInDepositForm } from '../../../test/renderInDepositForm';
import { PidField } from './PidField';

const noop = () => undefined;

function choice(name: string): HTMLInputElement {
  return screen.getByRole<HTMLInputElement>('radio', { name });
}

const RESERVED = {
  doi: { identifier: '10.1234/cairn.abc12', provider: 'datacite', client: 'datacite' },
};

describe('PidField', () => {
  it('offers "don\'t need one" only where DOIs are optional, preselecting the configured answer', () => {
    const { unmount } = renderInDepositForm(<PidField onReserve={noop} onDiscard={noop} />);
    expect(screen.getByText('Do you already have a DOI for this upload?')).toBeTruthy();
    expect(choice("No, I don't need one").checked).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'DOI' }).disabled).toBe(true);
    unmount();

    renderInDepositForm(
      <PidField
        onReserve={noop}
        onDiscard={noop}
        config={{ required: true, defaultSelected: 'no' }}
      />,
    );
    expect(screen.queryByRole('radio', { name: "No, I don't need one" })).toBeNull();
    expect(choice('No, I need one').checked).toBe(true);
    expect(screen.getByRole('button', { name: 'Get a DOI now!' })).toBeTruthy();
  });

  it('stores an external DOI only after typing pauses, and at once on leaving the input', async () => {
    const { form } = renderInDepositForm(<PidField onReserve={noop} onDiscard={noop} />);
    fireEvent.click(choice('Yes, I already have one'));
    expect(form.getValues('pids')).toEqual({ doi: { identifier: '', provider: 'external' } });

    const input = screen.getByRole('textbox', { name: 'DOI' });
    expect(input.getAttribute('placeholder')).toBe('Copy/paste your existing DOI here...');
    fireEvent.change(input, { target: { value: '10.5281/zenodo.1' } });
    fireEvent.change(input, { target: { value: '10.5281/zenodo.12' } });
    // Within the debounce nothing is stored yet.
    expect(form.getValues('pids.doi.identifier')).toBe('');
    await waitFor(() =>
      expect(form.getValues('pids.doi')).toEqual({
        identifier: '10.5281/zenodo.12',
        provider: 'external',
      }),
    );

    fireEvent.change(input, { target: { value: '10.5281/zenodo.123' } });
    fireEvent.blur(input);
    expect(form.getValues('pids.doi.identifier')).toBe('10.5281/zenodo.123');
  });

  it('shows the server’s verdict on a bad external DOI and keeps what was typed', () => {
    const { form } = renderInDepositForm(<PidField onReserve={noop} onDiscard={noop} />, {
      values: { pids: { doi: { identifier: 'not-a-doi', provider: 'external' } } },
    });
    act(() => form.setError('pids.doi', { message: 'Invalid DOI identifier.' }));
    expect(screen.getByText('Invalid DOI identifier.')).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'DOI' }).value).toBe('not-a-doi');
  });

  it('reserves a DOI through the core, then shows it with a discard button', () => {
    const onReserve = vi.fn();
    const onDiscard = vi.fn();
    const { form, rerenderWidget } = renderInDepositForm(
      <PidField onReserve={onReserve} onDiscard={onDiscard} />,
      { values: { pids: { doi: { identifier: '10.1/x', provider: 'external' } } } },
    );
    fireEvent.click(choice('No, I need one'));
    expect(form.getValues('pids')).toEqual({});
    fireEvent.click(screen.getByRole('button', { name: 'Get a DOI now!' }));
    expect(onReserve).toHaveBeenCalledTimes(1);

    rerenderWidget(<PidField onReserve={onReserve} onDiscard={onDiscard} busy="reserve" />);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Get a DOI now!' }).disabled).toBe(
      true,
    );

    act(() => form.setValue('pids', RESERVED));
    rerenderWidget(<PidField onReserve={onReserve} onDiscard={onDiscard} />);
    expect(screen.getByText('10.1234/cairn.abc12')).toBeTruthy();
    // A reserved DOI must be discarded before the answer can change.
    expect(choice('Yes, I already have one').disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Discard the reserved DOI.' }));
    expect(onDiscard).toHaveBeenCalledTimes(1);
  });

  it('clears the PIDs when no DOI is needed', () => {
    const { form } = renderInDepositForm(
      <PidField onReserve={noop} onDiscard={noop} config={{ defaultSelected: 'yes' }} />,
      { values: { pids: { doi: { identifier: '10.1/x', provider: 'external' } } } },
    );
    fireEvent.click(choice("No, I don't need one"));
    expect(form.getValues('pids')).toEqual({});
    expect(screen.getByText('The upload will be published without a DOI.')).toBeTruthy();
  });

  it('locks the answer of a published record that has a DOI', () => {
    renderInDepositForm(<PidField onReserve={noop} onDiscard={noop} isPublished />, {
      values: { pids: { doi: { identifier: '10.1/x', provider: 'external' } } },
    });
    expect(choice('No, I need one').disabled).toBe(true);
    expect(screen.getByText('The DOI of a published record cannot be changed.')).toBeTruthy();
  });

  it('requires a DOI when the parent has one, and allows only a DOI from this site', () => {
    renderInDepositForm(
      <PidField
        onReserve={noop}
        onDiscard={noop}
        parentDoi="10.1234/cairn.parent"
        doiTransition="managed"
      />,
    );
    expect(screen.queryByRole('radio', { name: "No, I don't need one" })).toBeNull();
    expect(choice('No, I need one').checked).toBe(true);
    expect(choice('Yes, I already have one').disabled).toBe(true);
    expect(
      screen.getByText(
        'A previous version used a DOI registered from Cairn. This version must also use a DOI from Cairn.',
      ),
    ).toBeTruthy();
    expect(choice('No, I need one').required).toBe(true);
  });

  it('bars a DOI from this site after a version published without one', () => {
    renderInDepositForm(<PidField onReserve={noop} onDiscard={noop} doiTransition="unmanaged" />);
    expect(choice('No, I need one').disabled).toBe(true);
    expect(choice('Yes, I already have one').disabled).toBe(false);
    expect(
      screen.getByText(
        'A previous version was published with a DOI from an external provider or without one. You cannot use a DOI registered from Cairn for this version.',
      ),
    ).toBeTruthy();
  });

  it('offers only what the instance allows', () => {
    const { unmount } = renderInDepositForm(
      <PidField
        onReserve={noop}
        onDiscard={noop}
        config={{ canBeUnmanaged: false, required: true }}
      />,
    );
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.getByRole('button', { name: 'Get a DOI now!' })).toBeTruthy();
    unmount();

    renderInDepositForm(
      <PidField
        onReserve={noop}
        onDiscard={noop}
        config={{ canBeManaged: false, required: true }}
      />,
    );
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'DOI' })).toBeTruthy();
  });

  it('refuses a configuration that allows neither managed nor unmanaged DOIs', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() =>
      renderInDepositForm(
        <PidField
          onReserve={noop}
          onDiscard={noop}
          config={{ canBeManaged: false, canBeUnmanaged: false }}
        />,
      ),
    ).toThrow('A PID field must allow managed, unmanaged, or both.');
  });

  it('tells the core a DOI is missing after "No, I need one", with the message for each action', () => {
    const onChoiceChange = vi.fn();
    const { form } = renderInDepositForm(
      <PidField onReserve={noop} onDiscard={noop} onChoiceChange={onChoiceChange} />,
    );
    fireEvent.click(choice('No, I need one'));
    expect(onChoiceChange).toHaveBeenLastCalledWith('no');
    // The core's DOI check with the answer the widget reported.
    const check = (isDoiRequired: boolean, pids = form.getValues('pids')) =>
      doiNeededFor('publish', { isDoiRequired, pids, userNeedsDoi: true });
    expect(check(false)).toBe('publish');
    expect(check(true)).toBeUndefined();
    expect(check(false, RESERVED)).toBeUndefined();

    const t = createI18n('en').t;
    act(() => form.setError('pids.doi', { message: t('depositPids.doiNeededPublish') }));
    expect(
      screen.getByText('DOI is needed. You need to reserve a DOI before publishing.'),
    ).toBeTruthy();
    expect(t('depositPids.doiNeededSubmit')).toBe(
      'DOI is needed. You need to reserve a DOI before submitting for review.',
    );
  });

  it('speaks German', () => {
    renderInDepositForm(<PidField onReserve={noop} onDiscard={noop} />, { language: 'de' });
    expect(screen.getByText('Haben Sie bereits einen DOI für diesen Upload?')).toBeTruthy();
  });
});
