import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { descriptionOf } from '../../../test/renderApp';
import { buildFormValues, renderInDepositForm } from '../../../test/renderInDepositForm';
import { RichTextField } from './RichTextField';

/** A screen the field never comes near: what a long form shows above a description. */
class FarAwayObserver {
  observe(): void {}
  disconnect(): void {}
}

function renderDescription(html: string) {
  return renderInDepositForm(<RichTextField name="metadata.description" label="Description" />, {
    values: { metadata: { ...buildFormValues().metadata, description: html } },
  });
}

function editor(): HTMLElement | null {
  return document.querySelector('[contenteditable="true"]');
}

describe('RichTextField', () => {
  it('shows the text until the field comes near the screen, then the editor', async () => {
    renderDescription('<p>Counts from <strong>Bass Rock</strong>.</p>');

    await waitFor(() => expect(editor()).not.toBeNull());
    expect(editor()?.textContent).toBe('Counts from Bass Rock.');
  });

  it('keeps the editor away below the fold, showing the text read only', async () => {
    vi.stubGlobal('IntersectionObserver', FarAwayObserver);
    renderDescription(
      '<p>Counts from <strong>Bass Rock</strong>.</p><p>Second <img src="x" onerror="alert(1)">paragraph.</p>',
    );

    // The text alone, a line per paragraph: the formatting comes with the editor.
    const placeholder = screen.getByRole('textbox', { name: 'Description' });
    expect(placeholder.textContent).toBe('Counts from Bass Rock.\nSecond paragraph.');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(placeholder.querySelector('strong, img')).toBeNull();
    expect(editor()).toBeNull();
  });

  it('shows a server message and the required mark before the editor has come', () => {
    vi.stubGlobal('IntersectionObserver', FarAwayObserver);
    const { form } = renderInDepositForm(
      <RichTextField name="metadata.description" label="Description" required />,
    );
    act(() =>
      form.setError('metadata.description', { message: 'Missing data for required field.' }),
    );
    const placeholder = screen.getByRole('textbox', { name: 'Description' });
    expect(descriptionOf(placeholder)).toBe('Missing data for required field.');
    expect(placeholder.getAttribute('aria-invalid')).toBe('true');
    expect(placeholder.getAttribute('aria-required')).toBe('true');
    expect(editor()).toBeNull();
  });

  it('brings the editor, with the caret in it, when the field is reached with the keyboard', async () => {
    vi.stubGlobal('IntersectionObserver', FarAwayObserver);
    renderDescription('<p>Gulls</p>');

    fireEvent.focus(screen.getByRole('textbox', { name: 'Description' }));

    await waitFor(() => expect(editor()).not.toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(editor()));
  });
});
