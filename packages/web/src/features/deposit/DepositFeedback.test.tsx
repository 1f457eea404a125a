import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderInDepositForm } from '../../test/renderInDepositForm';
import type { ActionOutcome } from './action-state';
import { DepositFeedback } from './DepositFeedback';
import { ResourceTypeField } from './metadata/ResourceTypeField';
import { TitlesField } from './metadata/TitlesField';

const TITLE_ERROR = { field: 'metadata.title', messages: ['Missing data for required field.'] };
const FUNDER_ERROR = { field: 'metadata.funding.0.funder', messages: ['Not a valid string.'] };

function renderBanner(outcome: ActionOutcome, language = 'en') {
  const onDismiss = vi.fn();
  renderInDepositForm(<DepositFeedback outcome={outcome} onDismiss={onDismiss} />, { language });
  return { onDismiss };
}

/** The banner, found by its role: problems interrupt (alert), the rest is a status. */
function banner(role: 'alert' | 'status'): HTMLElement {
  return screen.getByRole(role);
}

/** The text a person reads in the banner, its close button aside. */
function textOf(element: HTMLElement): string {
  const clone = element.cloneNode(true) as HTMLElement;
  clone.querySelectorAll('button').forEach((button) => button.remove());
  return (clone.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * The banner's message for each action state, row by row, with the words a person reads: the
 * state's text, then the form sections with their error counts where the text ends in "in".
 */
const BANNERS: [string, ActionOutcome, 'positive' | 'warning' | 'negative', string][] = [
  [
    'Saved',
    { action: 'save', kind: 'succeeded', errors: [] },
    'positive',
    'Record successfully saved.',
  ],
  [
    'Saved with feedback',
    { action: 'save', kind: 'validation-failed', errors: [TITLE_ERROR, FUNDER_ERROR] },
    'warning',
    'Record saved with validation feedback in Basic information (1), Funding (1)',
  ],
  [
    'Draft loaded with errors',
    { action: 'load', kind: 'validation-failed', errors: [TITLE_ERROR] },
    'warning',
    'Draft has validation feedback in Basic information (1)',
  ],
  [
    'Save failed',
    { action: 'save', kind: 'failed', errors: [] },
    'negative',
    'The draft was not saved. Please try again. If the problem persists, contact user support.',
  ],
  [
    'Publish failed',
    { action: 'publish', kind: 'failed', errors: [] },
    'negative',
    'The draft was not published. Please try again. If the problem persists, contact user support.',
  ],
  [
    'Publish blocked by validation',
    { action: 'publish', kind: 'validation-failed', errors: [TITLE_ERROR] },
    'warning',
    'The draft was not published. Record saved with validation feedback in Basic information (1)',
  ],
  [
    'Submit review failed',
    { action: 'submit-review', kind: 'failed', errors: [] },
    'negative',
    'The draft was not submitted for review. Please try again. If the problem persists, contact user support.',
  ],
  [
    'Submit blocked by validation',
    { action: 'submit-review', kind: 'validation-failed', errors: [TITLE_ERROR] },
    'warning',
    'The draft was not submitted for review. Record saved with validation feedback in Basic information (1)',
  ],
  [
    'Delete failed',
    { action: 'delete', kind: 'failed', errors: [] },
    'negative',
    'Draft deletion failed. Please try again. If the problem persists, contact user support.',
  ],
  [
    'Preview failed',
    { action: 'preview', kind: 'failed', errors: [] },
    'negative',
    'Draft preview failed. Please try again. If the problem persists, contact user support.',
  ],
  [
    'Reserve identifier failed',
    { action: 'reserve-pid', kind: 'failed', errors: [] },
    'negative',
    'Identifier reservation failed. Please try again. If the problem persists, contact user support.',
  ],
  [
    'Discard identifier failed',
    { action: 'discard-pid', kind: 'failed', errors: [] },
    'negative',
    'Identifier could not be discarded. Please try again. If the problem persists, contact user support.',
  ],
  [
    'Save before file upload failed',
    { action: 'save-before-upload', kind: 'failed', errors: [] },
    'negative',
    'Draft save failed before file upload. Please try again. If the problem persists, contact user support.',
  ],
  [
    'File import failed',
    { action: 'import-files', kind: 'failed', errors: [] },
    'negative',
    'Files import from the previous version failed. Please try again. If the problem persists, contact user support.',
  ],
];

describe('DepositFeedback', () => {
  it.each(BANNERS)('%s: %s shows its text and tone', (_, outcome, severity, text) => {
    renderBanner(outcome);
    const role = severity === 'positive' ? 'status' : 'alert';
    const element = banner(role);
    expect(textOf(element)).toBe(text);
    // Severity shows as the banner's tone; success is the suggestive info style.
    expect(element.getAttribute('data-tone')).toBe(severity === 'positive' ? 'info' : severity);
  });

  it('links each section named in the banner to the section', () => {
    renderBanner({ action: 'save', kind: 'validation-failed', errors: [TITLE_ERROR] });
    const link = within(banner('alert')).getByRole('link', { name: 'Basic information (1)' });
    expect(link.getAttribute('href')).toBe('#basic-information');
  });

  it('takes a section link to the first field with an error and focuses it without opening it', () => {
    const resourceTypeError = {
      field: 'metadata.resource_type',
      messages: ['Missing data for required field.'],
    };
    const { form } = renderInDepositForm(
      <>
        <DepositFeedback
          outcome={{ action: 'save', kind: 'validation-failed', errors: [resourceTypeError] }}
          onDismiss={() => undefined}
        />
        <section id="basic-information" tabIndex={-1}>
          <TitlesField />
          <ResourceTypeField />
        </section>
      </>,
    );
    act(() => {
      form.setError('metadata.resource_type', { message: 'Missing data for required field.' });
    });
    fireEvent.click(within(banner('alert')).getByRole('link', { name: 'Basic information (1)' }));

    const resourceType = screen.getByRole('combobox', { name: 'Resource type' });
    expect(document.activeElement).toBe(resourceType);
    expect(resourceType.getAttribute('aria-expanded')).not.toBe('true');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByText('Missing data for required field.')).toBeTruthy();
  });

  it('is suggestive (info) when the feedback holds no error of severity error', () => {
    renderBanner({
      action: 'save',
      kind: 'validation-failed',
      errors: [{ ...TITLE_ERROR, severity: 'warning' }],
    });
    const element = banner('status');
    expect(element.getAttribute('data-tone')).toBe('info');
    expect(textOf(element)).toBe('Record saved with validation feedback in Basic information (1)');
  });

  it('shows the server’s message instead of the default text', () => {
    renderBanner({
      action: 'publish',
      kind: 'failed',
      errors: [],
      serverMessage: 'The record has open review requests.',
    });
    expect(textOf(banner('alert'))).toBe('The record has open review requests.');
  });

  it('shows a schema error instead of the default text', () => {
    renderBanner({
      action: 'save',
      kind: 'failed',
      errors: [{ field: '_schema', messages: ['Invalid input type.'] }],
    });
    expect(textOf(banner('alert'))).toBe('Invalid input type.');
  });

  it('lists the messages of fields no section shows', () => {
    renderBanner({
      action: 'save',
      kind: 'validation-failed',
      errors: [{ field: 'parent.review', messages: ['Review not allowed.'] }],
    });
    const element = banner('alert');
    expect(textOf(element)).toMatch(/^Record saved with validation feedback in Other \(1\)/);
    expect(within(element).getByRole('listitem').textContent).toBe(
      'parent.review: Review not allowed.',
    );
  });

  it('warns in the warning style for a state it does not know', () => {
    renderBanner({ action: 'teleport', kind: 'failed', errors: [] } as unknown as ActionOutcome);
    const element = banner('alert');
    expect(element.getAttribute('data-tone')).toBe('warning');
    expect(textOf(element)).toBe(
      'Something unexpected happened. Please check the form and try again.',
    );
  });

  it('can be dismissed', () => {
    const { onDismiss } = renderBanner({ action: 'save', kind: 'succeeded', errors: [] });
    fireEvent.click(within(banner('status')).getByRole('button', { name: 'Dismiss' }));
    expect(onDismiss).toHaveBeenCalledOnce();
  });

  it('speaks German', () => {
    renderBanner({ action: 'publish', kind: 'validation-failed', errors: [TITLE_ERROR] }, 'de');
    expect(textOf(banner('alert'))).toBe(
      'Der Entwurf wurde nicht veröffentlicht. Datensatz gespeichert, mit Hinweisen zur Validierung in Grundlegende Informationen (1)',
    );
  });
});
