import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { descriptionOf } from '../../../test/renderApp';
import { PublisherField } from './PublisherField';
import { renderField } from './test-utils';

describe('PublisherField', () => {
  it('binds the publisher with its help, optional, and shows a stored one', () => {
    const { metadata } = renderField(<PublisherField />, { metadata: { publisher: 'Zenodo' } });
    const input = screen.getByRole<HTMLInputElement>('textbox', { name: 'Publisher' });
    expect(input.value).toBe('Zenodo');
    expect(input.required).toBe(false);
    expect(descriptionOf(input)).toBe(
      'The publisher is used to formulate the citation, so consider the prominence of the role.',
    );

    fireEvent.change(input, { target: { value: 'Cairn Data Archive' } });
    fireEvent.blur(input);
    expect(metadata().publisher).toBe('Cairn Data Archive');
    expect(input.getAttribute('aria-invalid')).not.toBe('true');
  });

  it('shows the DOI registration’s message from the server and keeps what was typed', () => {
    const { form, metadata } = renderField(<PublisherField />);
    act(() =>
      form().setError('metadata.publisher', {
        message: 'Missing publisher field required for DOI registration.',
      }),
    );
    const input = screen.getByRole<HTMLInputElement>('textbox', { name: 'Publisher' });
    expect(descriptionOf(input)).toContain(
      'Missing publisher field required for DOI registration.',
    );
    expect(input.getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(input, { target: { value: 'Cairn' } });
    expect(metadata().publisher).toBe('Cairn');
  });

  it('speaks German', () => {
    renderField(<PublisherField />, { language: 'de' });
    expect(screen.getByRole('textbox', { name: 'Verlag' })).toBeTruthy();
  });
});
