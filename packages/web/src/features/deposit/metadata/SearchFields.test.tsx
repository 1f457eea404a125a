import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { toDescriptionHtml } from './description-html';
import { FundingField } from './FundingField';
import { LanguagesField } from './LanguagesField';
import { SubjectsField } from './SubjectsField';
import { hitsBody, renderField, stubApi, vocabularyHit } from './test-utils';

describe('LanguagesField', () => {
  it('suggests languages as the person types and shows stored ones by title', async () => {
    const requests = stubApi({
      '/api/vocabularies/languages/eng': () => vocabularyHit('eng', 'English'),
      '/api/vocabularies/languages': (url) =>
        url.searchParams.get('suggest') === 'pol'
          ? hitsBody([vocabularyHit('pol', 'Polish')])
          : hitsBody([]),
    });
    const { metadata } = renderField(<LanguagesField />, { metadata: { languages: ['eng'] } });
    await screen.findByText('English');

    await userEvent.type(screen.getByRole('combobox', { name: 'Languages' }), 'pol');
    fireEvent.click(await screen.findByRole('option', { name: 'Polish' }));

    expect(metadata().languages).toEqual(['eng', 'pol']);
    const suggest = requests.find((r) => r.url.includes('suggest='));
    expect(suggest?.url).toBe('/api/vocabularies/languages?suggest=pol&size=20&ln=en');
    expect(suggest?.headers.get('Accept')).toBe('application/vnd.inveniordm.v1+json');
    // Picked from suggestions: its title is known without asking for it by id.
    expect(requests.some((r) => r.url.startsWith('/api/vocabularies/languages/pol'))).toBe(false);
  });
});

describe('SubjectsField', () => {
  it('adds a suggested subject and a free-text keyword, and removes one', async () => {
    const requests = stubApi({
      '/api/subjects': () =>
        hitsBody([{ id: 'https://id.nlm.nih.gov/mesh/D002477', subject: 'Cells', scheme: 'MeSH' }]),
    });
    const { metadata } = renderField(<SubjectsField />);
    const input = screen.getByRole('textbox', { name: 'Keywords and subjects' });

    await userEvent.type(input, 'MeSH:cell');
    fireEvent.click(await screen.findByRole('option', { name: '(MeSH) Cells' }));
    await waitFor(() => expect(metadata().subjects).toHaveLength(1));
    expect(requests.at(-1)?.url).toBe('/api/subjects?size=20&suggest=MeSH%3Acell');

    await userEvent.type(input, 'ocean warming{Enter}');
    expect(metadata().subjects).toEqual([
      { id: 'https://id.nlm.nih.gov/mesh/D002477', subject: 'Cells' },
      { subject: 'ocean warming' },
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Remove Cells' }));
    expect(metadata().subjects).toEqual([{ subject: 'ocean warming' }]);
  });
});

describe('FundingField', () => {
  const FUNDER = { id: '00k4n6c32', name: 'European Commission', acronym: 'EC' };
  const AWARD = {
    id: '00k4n6c32::101001',
    number: '101001',
    acronym: 'OCEAN',
    title: { en: 'Ocean heat' },
    funder: { id: '00k4n6c32', name: 'European Commission' },
  };

  it('adds a funder with one of its awards and shows both', async () => {
    const requests = stubApi({
      '/api/funders': () => hitsBody([FUNDER]),
      '/api/awards': () => hitsBody([AWARD]),
    });
    const { metadata } = renderField(<FundingField />);
    fireEvent.click(screen.getByRole('button', { name: 'Add award/grant' }));
    const dialog = screen.getByRole('dialog', { name: 'Add award/grant' });

    await userEvent.type(within(dialog).getByRole('combobox', { name: 'Funder' }), 'europ');
    fireEvent.click(await screen.findByRole('option', { name: 'European Commission (EC)' }));
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Award' }));
    fireEvent.click(await screen.findByRole('option', { name: 'OCEAN — Ocean heat (101001)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add award' }));

    expect(metadata().funding).toEqual([
      {
        funder: { id: '00k4n6c32', name: 'European Commission' },
        award: { id: '00k4n6c32::101001', number: '101001', acronym: 'OCEAN', title: 'Ocean heat' },
      },
    ]);
    expect(requests.map((r) => r.url)).toContain('/api/awards?size=5&funders=00k4n6c32');
    expect(screen.getByText('European Commission')).toBeTruthy();
    expect(screen.getByText('OCEAN — Ocean heat (101001)')).toBeTruthy();
  });

  it('checks a custom award on submit with InvenioRDM messages, then as it is corrected', async () => {
    stubApi({ '/api/funders': () => hitsBody([FUNDER]) });
    const { metadata } = renderField(<FundingField />);
    fireEvent.click(screen.getByRole('button', { name: 'Add award/grant' }));
    const dialog = screen.getByRole('dialog', { name: 'Add award/grant' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'URL' }), {
      target: { value: 'https://example.org/grant' },
    });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add award' }));
    expect(within(dialog).getByText('Funder is required.')).toBeTruthy();
    expect(within(dialog).getByText('URL must be set alongside title or number.')).toBeTruthy();

    fireEvent.change(within(dialog).getByRole('textbox', { name: 'URL' }), {
      target: { value: 'grant page' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add award' }));
    expect(within(dialog).getByText('URL must be valid.')).toBeTruthy();

    await userEvent.type(within(dialog).getByRole('combobox', { name: 'Funder' }), 'europ');
    fireEvent.click(await screen.findByRole('option', { name: 'European Commission (EC)' }));
    expect(within(dialog).queryByText('Funder is required.')).toBeNull();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'URL' }), {
      target: { value: 'https://example.org/grant' },
    });
    expect(within(dialog).queryByText('URL must be valid.')).toBeNull();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Number' }), {
      target: { value: 'G-7' },
    });
    expect(within(dialog).queryByText('URL must be set alongside title or number.')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add award' }));

    expect(metadata().funding).toEqual([
      {
        funder: { id: '00k4n6c32', name: 'European Commission' },
        award: { number: 'G-7', url: 'https://example.org/grant' },
      },
    ]);
  });

  it('words the funding rules in German, and takes any URL the server takes', () => {
    stubApi({ '/api/funders': () => hitsBody([FUNDER]) });
    const { metadata } = renderField(<FundingField />, { language: 'de' });
    fireEvent.click(screen.getByRole('button', { name: 'Förderung hinzufügen' }));
    const dialog = screen.getByRole('dialog', { name: 'Förderung hinzufügen' });
    const url = within(dialog).getByRole('textbox', { name: 'URL' });
    fireEvent.change(url, { target: { value: 'ftp://example.org/grant' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Förderung hinzufügen' }));
    expect(within(dialog).getByText('Der Förderer ist ein Pflichtfeld.')).toBeTruthy();
    expect(
      within(dialog).getByText('Eine URL muss zusammen mit Titel oder Nummer angegeben werden.'),
    ).toBeTruthy();
    fireEvent.change(url, { target: { value: 'Webseite' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Förderung hinzufügen' }));
    expect(within(dialog).getByText('Die URL muss gültig sein.')).toBeTruthy();
    expect(metadata().funding).toEqual([]);
  });

  it('names a funder stored by id alone', async () => {
    stubApi({ '/api/funders/00k4n6c32': () => FUNDER });
    renderField(<FundingField />, {
      metadata: { funding: [{ funder: { id: '00k4n6c32' }, award: {} }] },
    });
    expect(await screen.findByText('European Commission (EC)')).toBeTruthy();
  });
});

describe('toDescriptionHtml', () => {
  it('keeps only the tags the server allows and safe links', () => {
    expect(
      toDescriptionHtml(
        '<h2>Aim</h2><p onclick="x()">A <strong>bold</strong> <a href="javascript:alert(1)" target="_blank">bad</a> <a href="https://example.org" target="_blank" class="x">good</a></p><img src="x"><script>alert(1)</script>',
      ),
    ).toBe(
      '<h2>Aim</h2><p>A <strong>bold</strong> <a>bad</a> <a href="https://example.org">good</a></p>',
    );
  });

  it('stores an empty editor as no description', () => {
    expect(toDescriptionHtml('<p></p>')).toBe('');
    expect(toDescriptionHtml('<p><br></p><p></p>')).toBe('');
  });
});
