import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LICENSE_DESCRIPTION_MAX } from '@cairn/shared';
import { describe, expect, it } from 'vitest';
import { LicensesField } from './LicensesField';
import { hitsBody, renderField, stubApi, vocabularyHit } from './test-utils';

const LONG = 'Others may share and adapt the work. '.repeat(20);
const CC_BY = vocabularyHit('cc-by-4.0', 'Creative Commons Attribution 4.0 International', {
  description_l10n: LONG,
  props: { url: 'https://creativecommons.org/licenses/by/4.0/legalcode' },
});
const MIT = vocabularyHit('mit', 'MIT License', {
  description_l10n: 'A short permissive licence.',
});

describe('LicensesField', () => {
  it('picks a recommended licence, toggles the tag filters and searches all licences', async () => {
    const requests = stubApi({
      '/api/vocabularies/licenses': (url) =>
        url.searchParams.get('tags') === 'software' ? hitsBody([MIT]) : hitsBody([CC_BY, MIT], 30),
    });
    const { metadata } = renderField(<LicensesField />);

    fireEvent.click(screen.getByRole('button', { name: 'Add standard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add standard license' });
    const ccBy = await within(dialog).findByRole('radio', { name: CC_BY.title_l10n });
    expect(requests[0]?.url).toBe(
      '/api/vocabularies/licenses?tags=recommended&page=1&size=12&ln=en',
    );
    // The description is cut to the shared maximum.
    const shown = within(dialog).getByText((text) => text.startsWith('Others may share'));
    expect(shown.textContent?.length).toBeLessThanOrEqual(LICENSE_DESCRIPTION_MAX + 1);
    expect(shown.textContent?.endsWith('…')).toBe(true);
    // 30 results, 12 a page.
    expect(within(dialog).getByRole('button', { name: 'Page 3' })).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Software' }));
    await waitFor(() =>
      expect(within(dialog).queryByRole('radio', { name: CC_BY.title_l10n })).toBeNull(),
    );
    expect(
      within(dialog).getByRole('button', { name: 'Software' }).getAttribute('aria-pressed'),
    ).toBe('true');

    await userEvent.type(
      within(dialog).getByRole('searchbox', { name: 'Search for licenses' }),
      'cc',
    );
    await waitFor(() =>
      expect(requests.map((r) => r.url)).toContain(
        '/api/vocabularies/licenses?tags=all&page=1&size=12&ln=en&suggest=cc',
      ),
    );
    fireEvent.click(await within(dialog).findByRole('radio', { name: CC_BY.title_l10n }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add license' }));

    expect(metadata().rights).toEqual([
      {
        id: 'cc-by-4.0',
        title: CC_BY.title_l10n,
        description: LONG,
        link: 'https://creativecommons.org/licenses/by/4.0/legalcode',
      },
    ]);
    expect(ccBy).toBeTruthy();
    expect(screen.getByRole('link', { name: `Read more about ${CC_BY.title_l10n}` })).toBeTruthy();
  });

  it('refuses a custom licence without a title or with a bad link on submit, then re-checks as it is typed', () => {
    stubApi({});
    const { metadata } = renderField(<LicensesField />);
    fireEvent.click(screen.getByRole('button', { name: 'Add custom' }));
    const dialog = screen.getByRole('dialog', { name: 'Add custom license' });
    const link = within(dialog).getByRole('textbox', { name: 'Link' });
    fireEvent.change(link, { target: { value: 'not a url' } });
    fireEvent.blur(link);
    expect(within(dialog).queryByText('Link must be a valid URL')).toBeNull();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add license' }));

    expect(within(dialog).getByText('Title is a required field.')).toBeTruthy();
    expect(within(dialog).getByText('Link must be a valid URL')).toBeTruthy();
    expect(metadata().rights).toEqual([]);

    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Title' }), {
      target: { value: 'My licence' },
    });
    expect(within(dialog).queryByText('Title is a required field.')).toBeNull();
    fireEvent.change(link, { target: { value: 'https://example.org/licence' } });
    expect(within(dialog).queryByText('Link must be a valid URL')).toBeNull();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Description' }), {
      target: { value: 'Use it kindly.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add license' }));

    expect(metadata().rights).toEqual([
      { title: 'My licence', description: 'Use it kindly.', link: 'https://example.org/licence' },
    ]);
  });

  it('words the custom licence rules in German', () => {
    stubApi({});
    const { metadata } = renderField(<LicensesField />, { language: 'de' });
    fireEvent.click(screen.getByRole('button', { name: 'Eigene Lizenz hinzufügen' }));
    const dialog = screen.getByRole('dialog', { name: 'Eigene Lizenz hinzufügen' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Link' }), {
      target: { value: 'example' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Lizenz hinzufügen' }));
    expect(within(dialog).getByText('Der Titel ist ein Pflichtfeld.')).toBeTruthy();
    expect(within(dialog).getByText('Der Link muss eine gültige URL sein')).toBeTruthy();
    expect(metadata().rights).toEqual([]);
  });

  it('changes a custom licence in place', () => {
    stubApi({});
    const { metadata } = renderField(<LicensesField />, {
      metadata: { rights: [{ title: 'Old name' }] },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit Old name' }));
    const dialog = screen.getByRole('dialog', { name: 'Change custom license' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Title' }), {
      target: { value: 'New name' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change license' }));
    expect(metadata().rights).toEqual([{ title: 'New name' }]);
  });

  it('names licences stored by id alone, reorders them with buttons and labels the keyboard drag handle', async () => {
    const requests = stubApi({
      '/api/vocabularies/licenses/cc-by-4.0': () => CC_BY,
      '/api/vocabularies/licenses/mit': () => MIT,
    });
    const { metadata } = renderField(<LicensesField />, {
      metadata: { rights: [{ id: 'cc-by-4.0' }, { id: 'mit' }, { title: 'Mine' }] },
    });
    await screen.findByText('MIT License');
    expect(requests).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: 'Move Mine up' }));
    expect(metadata().rights.map((r) => r.id ?? r.title)).toEqual(['cc-by-4.0', 'Mine', 'mit']);

    const handle = screen.getByRole('button', { name: `Drag to reorder ${CC_BY.title_l10n}` });
    expect(handle.getAttribute('aria-roledescription')).toBe('sortable');
    expect(descriptionText(handle)).toContain('press Space or Enter to pick up the item');

    fireEvent.click(screen.getByRole('button', { name: 'Remove Mine' }));
    expect(metadata().rights.map((r) => r.id ?? r.title)).toEqual(['cc-by-4.0', 'mit']);
  });
});

function descriptionText(element: HTMLElement): string {
  const id = element.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? '') : '';
}
