import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { descriptionOf } from '../../../test/renderApp';
import { DescriptionsField } from './DescriptionsField';
import { hitsBody, renderField, stubApi, vocabularyHit } from './test-utils';

const DESCRIPTION_TYPES = [
  vocabularyHit('abstract', 'Abstract'),
  vocabularyHit('methods', 'Methods'),
  vocabularyHit('technical-info', 'Technical info'),
];

/** The row of additional description `n`, once its editor has loaded. */
async function row(n: number): Promise<HTMLElement> {
  const group = screen.getByRole('group', { name: `Additional description ${n}` });
  await waitFor(() => expect(group.querySelector('[contenteditable="true"]')).not.toBeNull());
  return group;
}

function editorIn(group: HTMLElement): HTMLElement {
  return group.querySelector<HTMLElement>('[contenteditable="true"]')!;
}

/** Pastes `html` into a rich-text editor, as a person pasting from a word processor does. */
function paste(editor: HTMLElement, html: string) {
  const text = html.replace(/<[^>]*>/g, '');
  fireEvent.paste(editor, {
    clipboardData: {
      types: ['text/html', 'text/plain'],
      getData: (type: string) => ({ 'text/html': html, 'text/plain': text })[type] ?? '',
    },
  });
}

describe('DescriptionsField', () => {
  it('adds an additional description with its text, type and language', async () => {
    const requests = stubApi({
      '/api/vocabularies/descriptiontypes': () => hitsBody(DESCRIPTION_TYPES),
      '/api/vocabularies/languages': (url) =>
        url.searchParams.get('suggest') === 'germ'
          ? hitsBody([vocabularyHit('deu', 'German')])
          : hitsBody([]),
    });
    const { metadata } = renderField(<DescriptionsField />);
    expect(metadata().additional_descriptions).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Add description' }));
    const first = await row(1);
    paste(editorIn(first), '<p>Sampled <strong>at dawn</strong>.</p><img src=x onerror=alert(1)>');
    fireEvent.click(within(first).getByRole('combobox', { name: 'Type' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Methods' }));
    await userEvent.type(within(first).getByRole('combobox', { name: 'Language' }), 'germ');
    fireEvent.click(await screen.findByRole('option', { name: 'German' }));

    expect(metadata().additional_descriptions).toEqual([
      { description: '<p>Sampled <strong>at dawn</strong>.</p>', type: 'methods', lang: 'deu' },
    ]);
    // The main description is a field of its own, untouched.
    expect(metadata().description).toBe('');
    expect(requests.map((request) => request.url)).toContain(
      '/api/vocabularies/descriptiontypes?size=200&ln=en',
    );
  });

  it('marks the text and the type of an additional description as required, not its language', async () => {
    stubApi({ '/api/vocabularies/descriptiontypes': () => hitsBody(DESCRIPTION_TYPES) });
    renderField(<DescriptionsField />, {
      metadata: { additional_descriptions: [{ description: '', type: '', lang: '' }] },
    });
    const first = await row(1);
    expect(editorIn(first).getAttribute('aria-required')).toBe('true');
    expect(within(first).getByRole('combobox', { name: 'Type' }).hasAttribute('required')).toBe(
      true,
    );
    expect(within(first).getByRole('combobox', { name: 'Language' }).hasAttribute('required')).toBe(
      false,
    );
  });

  it('shows the server’s messages on the text and type of the row they are about', async () => {
    stubApi({ '/api/vocabularies/descriptiontypes': () => hitsBody(DESCRIPTION_TYPES) });
    const { form } = renderField(<DescriptionsField />, {
      metadata: {
        additional_descriptions: [
          { description: '<p>Field notes.</p>', type: 'methods', lang: '' },
          { description: '', type: '', lang: '' },
        ],
      },
    });
    const second = await row(2);
    act(() => {
      form().setError('metadata.additional_descriptions.1.description', {
        message: 'Missing data for required field.',
      });
      form().setError('metadata.additional_descriptions.1.type', {
        message: 'Missing data for required field.',
      });
    });
    await waitFor(() =>
      expect(descriptionOf(editorIn(second))).toContain('Missing data for required field.'),
    );
    expect(editorIn(second).getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(within(second).getByRole('combobox', { name: 'Type' }))).toContain(
      'Missing data for required field.',
    );
    const first = await row(1);
    expect(editorIn(first).getAttribute('aria-invalid')).toBeNull();
    expect(editorIn(first).textContent).toBe('Field notes.');
  });

  it('removes and reorders additional descriptions with buttons', () => {
    stubApi({ '/api/vocabularies/descriptiontypes': () => hitsBody(DESCRIPTION_TYPES) });
    const { metadata } = renderField(<DescriptionsField />, {
      metadata: {
        additional_descriptions: [
          { description: '<p>One</p>', type: 'abstract', lang: '' },
          { description: '<p>Two</p>', type: 'methods', lang: '' },
        ],
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Move Additional description 2 up' }));
    expect(metadata().additional_descriptions.map((entry) => entry.type)).toEqual([
      'methods',
      'abstract',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Additional description 1' }));
    expect(metadata().additional_descriptions).toEqual([
      { description: '<p>One</p>', type: 'abstract', lang: '' },
    ]);
  });
});
