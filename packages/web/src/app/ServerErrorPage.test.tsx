import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../test/renderApp';

describe("a deleted record's page", () => {
  it('shows its tombstone: why, when, the note and how to cite it', async () => {
    renderApp({
      path: '/records/abcde-12345',
      bootstrap: {
        error: {
          status: 410,
          message: 'Record deleted',
          tombstone: {
            removal_reason: { id: 'spam', title: { en: 'Spam', de: 'Spam' } },
            note: 'Advertising for a shop.',
            removed_by: { user: '1' },
            removal_date: '2026-03-04T10:00:00.000Z',
            citation_text: 'Doe (2024): Cheap watches',
            is_visible: true,
          },
        },
      },
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This record was removed' }),
    ).toBeTruthy();
    const term = (name: string) => screen.getByText(name, { selector: 'dt' });
    expect(term('Reason').nextElementSibling?.textContent).toBe('Spam');
    expect(term('Removed on').nextElementSibling?.textContent).toBe('March 4, 2026');
    expect(term('Note').nextElementSibling?.textContent).toBe('Advertising for a shop.');
    expect(term('Citation').nextElementSibling?.textContent).toBe('Doe (2024): Cheap watches');
    const search = screen.getByRole('link', { name: 'Search the repository' });
    expect(search.getAttribute('href')).toBe('/search');
  });

  it('names the reason by its id when the vocabulary has no title for it', async () => {
    renderApp({
      path: '/records/abcde-12345',
      bootstrap: {
        error: {
          status: 410,
          message: 'Record deleted',
          tombstone: { removal_reason: { id: 'legal' } },
        },
      },
    });
    expect(await screen.findByText('legal', { selector: 'dd' })).toBeTruthy();
    expect(screen.queryByText('Citation', { selector: 'dt' })).toBeNull();
  });

  it('is a plain error page for any other error', async () => {
    renderApp({
      path: '/records/abcde-12345',
      bootstrap: { error: { status: 404, message: 'Gone' } },
    });
    expect(await screen.findByText('Page not found')).toBeTruthy();
  });
});
