import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildCommunity } from '../../../test/community-builders';
import { renderInDepositForm } from '../../../test/renderInDepositForm';
import { SubmitReviewModal, textToHtml, type SubmitReviewModalProps } from './SubmitReviewModal';

const OCEANS = buildCommunity({ id: 'c-1', title: 'Ocean sciences' });
const ACCESS =
  "The 'Ocean sciences' curators will have access to view and edit your upload's metadata and files.";
const PUBLISH =
  'If your upload is accepted by the community curators, it will be immediately published. Before that, you will still be able to modify metadata and files of this upload.';

function renderDialog(props: Partial<SubmitReviewModalProps> = {}) {
  const onSubmit = vi.fn();
  const onClose = vi.fn();
  const result = renderInDepositForm(
    <SubmitReviewModal
      opened
      onClose={onClose}
      community={OCEANS}
      directPublish={false}
      onSubmit={onSubmit}
      {...props}
    />,
  );
  return { ...result, onSubmit, onClose };
}

function tick(label: string) {
  fireEvent.click(screen.getByRole('checkbox', { name: label }));
}

describe('SubmitReviewModal', () => {
  it('asks for review, validating its checkboxes on submit only', async () => {
    const { onSubmit } = renderDialog();
    expect(screen.getByRole('dialog', { name: 'Submit for review' })).toBeTruthy();
    expect(
      screen.getByText('Before requesting review, please read and check the following:'),
    ).toBeTruthy();
    // Nothing is said before the first submit.
    expect(screen.queryByText('You must accept this.')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Submit record for review' }));
    await waitFor(() => expect(screen.getAllByText('You must accept this.')).toHaveLength(2));
    expect(onSubmit).not.toHaveBeenCalled();

    tick(ACCESS);
    // Ticking does not re-validate: the messages stay until the next submit.
    expect(screen.getAllByText('You must accept this.')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Submit record for review' }));
    await waitFor(() => expect(screen.getAllByText('You must accept this.')).toHaveLength(1));

    tick(PUBLISH);
    fireEvent.change(screen.getByRole('textbox', { name: 'Message to curators (optional)' }), {
      target: { value: 'Please check <the> data.\n\nThanks & regards' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Submit record for review' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        content: '<p>Please check &lt;the&gt; data.</p><p>Thanks &amp; regards</p>',
      }),
    );
  });

  it('returns an empty message when none was written', async () => {
    const { onSubmit } = renderDialog();
    tick(ACCESS);
    tick(PUBLISH);
    fireEvent.click(screen.getByRole('button', { name: 'Submit record for review' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ content: '' }));
  });

  it('publishes straight into a community that allows it, without a message', async () => {
    const { onSubmit } = renderDialog({ directPublish: true });
    expect(screen.getByRole('dialog', { name: 'Publish to community' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Message to curators (optional)' })).toBeNull();
    tick(ACCESS);
    tick(
      "Your upload will be immediately published in 'Ocean sciences'. You will no longer be able to change the files in the upload! However, you will still be able to update the record's metadata later.",
    );
    fireEvent.click(screen.getByRole('button', { name: 'Publish record to community' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ content: '' }));
  });

  it('does not ask a published record to accept being published', async () => {
    const { onSubmit } = renderDialog({ isPublished: true });
    expect(screen.getByRole('dialog', { name: 'Submit to community' })).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: PUBLISH })).toBeNull();
    tick(ACCESS);
    fireEvent.click(screen.getByRole('button', { name: 'Submit record to community' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
  });

  it('requires every extra checkbox of the instance', async () => {
    const { onSubmit } = renderDialog({
      extraCheckboxes: [{ id: 'terms', label: 'I accept the terms of use.' }],
    });
    tick(ACCESS);
    tick(PUBLISH);
    fireEvent.click(screen.getByRole('button', { name: 'Submit record for review' }));
    await waitFor(() => expect(screen.getAllByText('You must accept this.')).toHaveLength(1));
    expect(onSubmit).not.toHaveBeenCalled();
    tick('I accept the terms of use.');
    fireEvent.click(screen.getByRole('button', { name: 'Submit record for review' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
  });

  it('refuses extra checkboxes that share an id', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() =>
      renderDialog({
        extraCheckboxes: [
          { id: 'terms', label: 'A' },
          { id: 'terms', label: 'B' },
        ],
      }),
    ).toThrow('Extra checkboxes need unique ids: "terms" is used twice.');
  });

  it('keeps the message typed before a submit that failed validation', () => {
    renderDialog({ initialContent: textToHtml('First line\nsecond <line>') });
    expect(
      screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message to curators (optional)' })
        .value,
    ).toBe('First line\nsecond <line>');
  });

  it('closes on Cancel and shows the busy state of the core', () => {
    const { onClose, rerenderWidget } = renderDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
    rerenderWidget(
      <SubmitReviewModal
        opened
        onClose={onClose}
        community={OCEANS}
        directPublish={false}
        busy
        onSubmit={vi.fn()}
      />,
    );
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Cancel' }).disabled).toBe(true);
  });

  it('closes on its named close button, as every dialog of the app does', () => {
    const { onClose } = renderDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('speaks German', () => {
    renderInDepositForm(
      <SubmitReviewModal
        opened
        onClose={vi.fn()}
        community={OCEANS}
        directPublish={false}
        onSubmit={vi.fn()}
      />,
      { language: 'de' },
    );
    expect(screen.getByRole('dialog', { name: 'Zur Begutachtung einreichen' })).toBeTruthy();
    expect(
      screen.getByRole('textbox', { name: 'Nachricht an die Kuratoren (optional)' }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Schließen' })).toBeTruthy();
  });
});
