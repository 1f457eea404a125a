import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { descriptionOf } from '../../../test/renderApp';
import { DatesField } from './DatesField';
import { IdentifiersField } from './IdentifiersField';
import { PublicationDateField } from './PublicationDateField';
import { ReferencesField } from './ReferencesField';
import { RelatedWorksField } from './RelatedWorksField';
import { ResourceTypeField } from './ResourceTypeField';
import { hitsBody, renderField, stubApi, vocabularyHit } from './test-utils';
import { VersionField } from './VersionField';

const DATE_TYPES = [vocabularyHit('collected', 'Collected'), vocabularyHit('created', 'Created')];
const RELATION_TYPES = [vocabularyHit('cites', 'Cites'), vocabularyHit('iscitedby', 'Is cited by')];
const LINKABLE = [vocabularyHit('publication-article', 'Journal article')];

function blurWith(input: HTMLElement, value: string) {
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

describe('PublicationDateField', () => {
  it('accepts EDTF dates and intervals and says so on blur when not', () => {
    renderField(<PublicationDateField />);
    const input = screen.getByRole('textbox', { name: 'Publication date' });
    for (const value of ['2020', '2020-06', '2020-06-01', '1939/1945']) {
      blurWith(input, value);
      expect(input.getAttribute('aria-invalid'), value).not.toBe('true');
    }
    blurWith(input, '2020-13-01');
    expect(descriptionOf(input)).toContain('Please provide a valid date or interval.');
    blurWith(input, '1945/1939');
    expect(descriptionOf(input)).toContain('The end of the interval is before its start.');
  });
});

describe('ResourceTypeField', () => {
  it('lists the depositable types from the page without asking the server', () => {
    const requests = stubApi({});
    const { metadata } = renderField(<ResourceTypeField />);
    fireEvent.click(screen.getByRole('combobox', { name: 'Resource type' }));
    fireEvent.click(screen.getByRole('option', { name: 'Software' }));
    expect(metadata().resource_type).toBe('software');
    expect(requests).toHaveLength(0);
  });

  it('names each "Other" with its type and groups the types as the vocabulary nests them', () => {
    const { metadata } = renderField(<ResourceTypeField />, {
      bootstrap: {
        vocabularies: {
          resourcetypes: [
            { id: 'dataset', title: 'Dataset' },
            { id: 'image', title: 'Image' },
            { id: 'image-other', title: 'Other' },
            { id: 'other', title: 'Other' },
            { id: 'publication', title: 'Publication' },
            { id: 'publication-other', title: 'Other' },
          ],
        },
      },
    });
    const combobox = screen.getByRole('combobox', { name: 'Resource type' });
    fireEvent.click(combobox);
    const listbox = screen.getByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Dataset', 'Image', 'Image: Other', 'Other', 'Publication', 'Publication: Other']);

    fireEvent.click(screen.getByRole('option', { name: 'Image: Other' }));
    expect(metadata().resource_type).toBe('image-other');
    expect((combobox as HTMLInputElement).value).toBe('Image: Other');
  });

  it('asks for depositable types when the page brought none', async () => {
    const requests = stubApi({
      '/api/vocabularies/resourcetypes': () => hitsBody([vocabularyHit('image-photo', 'Photo')]),
    });
    renderField(<ResourceTypeField />, { bootstrap: { vocabularies: { resourcetypes: [] } } });
    fireEvent.click(screen.getByRole('combobox', { name: 'Resource type' }));
    await screen.findByRole('option', { name: 'Photo' });
    expect(requests[0]?.url).toBe(
      '/api/vocabularies/resourcetypes?size=200&ln=en&tags=depositable',
    );
  });
});

describe('VersionField', () => {
  it('says on blur when the version is longer than allowed', () => {
    renderField(<VersionField />);
    const input = screen.getByRole('textbox', { name: 'Version' });
    blurWith(input, 'v'.repeat(192));
    expect(descriptionOf(input)).toContain('Longer than maximum length 191.');
    blurWith(input, 'v1.0.0');
    expect(descriptionOf(input)).not.toContain('Longer than maximum length');
  });

  it('checks again as a value with a message is corrected, before the field is left', () => {
    renderField(<VersionField />);
    const input = screen.getByRole('textbox', { name: 'Version' });
    fireEvent.change(input, { target: { value: 'v'.repeat(192) } });
    // Not while typing the first time: only a field that has shown a message is checked as typed.
    expect(input.getAttribute('aria-invalid')).not.toBe('true');
    fireEvent.blur(input);
    expect(descriptionOf(input)).toContain('Longer than maximum length 191.');
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'v'.repeat(191) } });
    expect(descriptionOf(input)).not.toContain('Longer than maximum length');
    expect(input.getAttribute('aria-invalid')).not.toBe('true');
  });
});

describe('DatesField', () => {
  it('adds a date with its type and checks the date format on blur', async () => {
    stubApi({ '/api/vocabularies/datetypes': () => hitsBody(DATE_TYPES) });
    const { metadata } = renderField(<DatesField />);
    fireEvent.click(screen.getByRole('button', { name: 'Add date' }));
    const row = screen.getByRole('group', { name: 'Date 1' });
    const date = within(row).getByRole('textbox', { name: 'Date' });

    blurWith(date, '2020-02-30');
    expect(descriptionOf(date)).toContain('Please provide a valid date or interval.');
    blurWith(date, '2020/2019-05');
    expect(descriptionOf(date)).toContain('The end of the interval is before its start.');
    blurWith(date, '2019-05/2020');
    expect(date.getAttribute('aria-invalid')).not.toBe('true');

    fireEvent.click(within(row).getByRole('combobox', { name: 'Type' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Collected' }));
    fireEvent.change(within(row).getByRole('textbox', { name: 'Description' }), {
      target: { value: 'Field season' },
    });
    expect(metadata().dates).toEqual([
      { date: '2019-05/2020', type: 'collected', description: 'Field season' },
    ]);
  });
});

describe('IdentifiersField', () => {
  it('checks an identifier against its scheme on blur', () => {
    const { metadata } = renderField(<IdentifiersField />, {
      metadata: { identifiers: [{ identifier: '', scheme: 'doi' }] },
    });
    const identifier = screen.getByRole('textbox', { name: 'Identifier' });
    blurWith(identifier, 'not-a-doi');
    expect(descriptionOf(identifier)).toContain('Invalid DOI identifier.');
    blurWith(identifier, '10.1234/foo.bar');
    expect(descriptionOf(identifier)).not.toContain('Invalid DOI identifier.');
    expect(metadata().identifiers).toEqual([{ identifier: '10.1234/foo.bar', scheme: 'doi' }]);
  });

  it('shows the server message on the scheme of a row', async () => {
    const { form } = renderField(<IdentifiersField />, {
      metadata: { identifiers: [{ identifier: 'x', scheme: '' }] },
    });
    form().setError('metadata.identifiers.0.scheme', { message: 'Invalid scheme.' });
    await waitFor(() =>
      expect(descriptionOf(screen.getByRole('combobox', { name: 'Scheme' }))).toContain(
        'Invalid scheme.',
      ),
    );
  });
});

describe('RelatedWorksField', () => {
  it('takes a relation, an identifier, a scheme and an optional linkable resource type', async () => {
    const requests = stubApi({
      '/api/vocabularies/relationtypes': () => hitsBody(RELATION_TYPES),
      '/api/vocabularies/resourcetypes': () => hitsBody(LINKABLE),
    });
    const { metadata } = renderField(<RelatedWorksField />);
    fireEvent.click(screen.getByRole('button', { name: 'Add related work' }));
    const row = screen.getByRole('group', { name: 'Related work 1' });

    fireEvent.click(within(row).getByRole('combobox', { name: 'Relation' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Is cited by' }));
    fireEvent.change(within(row).getByRole('textbox', { name: 'Identifier' }), {
      target: { value: 'https://example.org/paper' },
    });
    await userEvent.click(within(row).getByRole('combobox', { name: 'Scheme' }));
    fireEvent.click(await screen.findByRole('option', { name: 'URL' }));

    expect(within(row).getByRole('combobox', { name: 'Resource type (optional)' })).toBeTruthy();
    expect(metadata().related_identifiers).toEqual([
      {
        relation_type: 'iscitedby',
        identifier: 'https://example.org/paper',
        scheme: 'url',
        resource_type: '',
      },
    ]);
    expect(requests.map((r) => r.url)).toContain(
      '/api/vocabularies/resourcetypes?size=200&ln=en&tags=linkable',
    );
  });
});

describe('ReferencesField', () => {
  it('adds, edits and removes references', () => {
    const { metadata } = renderField(<ReferencesField />);
    fireEvent.click(screen.getByRole('button', { name: 'Add reference' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Reference string' }), {
      target: { value: 'Lovelace, A. (1843). Notes.' },
    });
    expect(metadata().references).toEqual([{ reference: 'Lovelace, A. (1843). Notes.' }]);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Reference 1' }));
    expect(metadata().references).toEqual([]);
  });
});
