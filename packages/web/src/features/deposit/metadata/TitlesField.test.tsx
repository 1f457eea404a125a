import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { descriptionOf } from '../../../test/renderApp';
import { hitsBody, renderField, stubApi, TITLE_TYPES, vocabularyHit } from './test-utils';
import { TitlesField } from './TitlesField';

describe('TitlesField', () => {
  it('says on blur that a title is too short, and clears it once fixed', () => {
    stubApi({ '/api/vocabularies/titletypes': () => hitsBody(TITLE_TYPES) });
    const { metadata } = renderField(<TitlesField />);
    const title = screen.getByRole('textbox', { name: 'Title' });

    fireEvent.change(title, { target: { value: 'Oc' } });
    fireEvent.blur(title);
    expect(descriptionOf(title)).toContain('Shorter than minimum length 3.');
    expect(title.getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(title, { target: { value: 'Ocean' } });
    fireEvent.blur(title);
    expect(descriptionOf(title)).not.toContain('Shorter than minimum length 3.');
    expect(metadata().title).toBe('Ocean');
  });

  it('wraps a long title instead of scrolling it: line breaks become spaces, Enter submits', async () => {
    stubApi({ '/api/vocabularies/titletypes': () => hitsBody(TITLE_TYPES) });
    const user = userEvent.setup();
    const { metadata, container } = renderField(<TitlesField />);
    const title = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Title' });
    expect(title.tagName).toBe('TEXTAREA');
    const submitted = vi.fn((event: Event) => event.preventDefault());
    container.querySelector('form')!.addEventListener('submit', submitted);

    await user.click(title);
    await user.paste('Glacier melt\r\nin Greenland\n\n2018');
    expect(metadata().title).toBe('Glacier melt in Greenland 2018');
    await user.keyboard('{Enter}');
    expect(submitted).toHaveBeenCalledTimes(1);
    expect(title.value).toBe('Glacier melt in Greenland 2018');
    expect(metadata().title).toBe('Glacier melt in Greenland 2018');
  });

  it('renders nothing again while the title is typed', () => {
    stubApi({ '/api/vocabularies/titletypes': () => hitsBody(TITLE_TYPES) });
    const renders = vi.fn();
    const { metadata } = renderField(
      <Profiler id="titles" onRender={renders}>
        <TitlesField />
      </Profiler>,
    );
    const title = screen.getByRole('textbox', { name: 'Title' });
    fireEvent.change(title, { target: { value: 'Oc' } });
    renders.mockClear();

    for (const value of ['Oce', 'Ocea', 'Ocean']) fireEvent.change(title, { target: { value } });
    expect(renders).not.toHaveBeenCalled();
    expect(metadata().title).toBe('Ocean');
  });

  it('adds an additional title as an alternative title, with its type shown by title', async () => {
    const requests = stubApi({ '/api/vocabularies/titletypes': () => hitsBody(TITLE_TYPES) });
    const { metadata } = renderField(<TitlesField />);

    fireEvent.click(screen.getByRole('button', { name: 'Add title' }));
    const row = screen.getByRole('group', { name: 'Additional title 1' });
    fireEvent.change(within(row).getByRole('textbox', { name: 'Additional title' }), {
      target: { value: 'Meerestemperaturen' },
    });

    await waitFor(() =>
      expect(within(row).getByRole<HTMLInputElement>('combobox', { name: 'Type' }).value).toBe(
        'Alternative title',
      ),
    );
    expect(metadata().additional_titles).toEqual([
      { title: 'Meerestemperaturen', type: 'alternative-title', lang: '' },
    ]);
    expect(requests[0]?.url).toBe('/api/vocabularies/titletypes?size=200&ln=en');
    expect(requests[0]?.headers.get('Accept')).toBe('application/vnd.inveniordm.v1+json');
  });

  it('picks the language of an additional title from the server suggestions', async () => {
    const requests = stubApi({
      '/api/vocabularies/titletypes': () => hitsBody(TITLE_TYPES),
      '/api/vocabularies/languages': (url) =>
        url.searchParams.get('suggest') === 'germ'
          ? hitsBody([vocabularyHit('deu', 'German')])
          : hitsBody([]),
    });
    const { metadata } = renderField(<TitlesField />, {
      metadata: {
        additional_titles: [{ title: 'Meerestemperaturen', type: 'subtitle', lang: '' }],
      },
    });
    const row = screen.getByRole('group', { name: 'Additional title 1' });
    const language = within(row).getByRole('combobox', { name: 'Language' });

    await userEvent.type(language, 'germ');
    fireEvent.click(await screen.findByRole('option', { name: 'German' }));

    expect(metadata().additional_titles[0]?.lang).toBe('deu');
    expect(requests.map((request) => request.url)).toContain(
      '/api/vocabularies/languages?suggest=germ&size=20&ln=en',
    );
  });

  it('shows a stored language by its title, looked up once by id', async () => {
    const requests = stubApi({
      '/api/vocabularies/titletypes': () => hitsBody(TITLE_TYPES),
      '/api/vocabularies/languages/fra': () => vocabularyHit('fra', 'French'),
    });
    renderField(<TitlesField />, {
      metadata: {
        additional_titles: [{ title: 'Températures', type: 'translated-title', lang: 'fra' }],
      },
    });
    const row = screen.getByRole('group', { name: 'Additional title 1' });

    await waitFor(() =>
      expect(within(row).getByRole<HTMLInputElement>('combobox', { name: 'Language' }).value).toBe(
        'French',
      ),
    );
    expect(requests.filter((r) => r.url.startsWith('/api/vocabularies/languages/'))).toHaveLength(
      1,
    );
  });

  it('removes and reorders additional titles with buttons', () => {
    stubApi({ '/api/vocabularies/titletypes': () => hitsBody(TITLE_TYPES) });
    const { metadata } = renderField(<TitlesField />, {
      metadata: {
        additional_titles: [
          { title: 'First', type: 'subtitle', lang: '' },
          { title: 'Second', type: 'subtitle', lang: '' },
          { title: 'Third', type: 'subtitle', lang: '' },
        ],
      },
    });

    fireEvent.click(screen.getByRole('button', { name: 'Move Additional title 3 up' }));
    expect(metadata().additional_titles.map((t) => t.title)).toEqual(['First', 'Third', 'Second']);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Additional title 1' }));
    expect(metadata().additional_titles.map((t) => t.title)).toEqual(['Third', 'Second']);
  });

  it('shows a server error on an additional title on its input', () => {
    stubApi({ '/api/vocabularies/titletypes': () => hitsBody(TITLE_TYPES) });
    const { form } = renderField(<TitlesField />, {
      metadata: { additional_titles: [{ title: 'Ab', type: 'subtitle', lang: '' }] },
    });
    fireEvent.click(document.body);
    form().setError('metadata.additional_titles.0.title', {
      message: 'Shorter than minimum length 3.',
    });
    return waitFor(() =>
      expect(descriptionOf(screen.getByRole('textbox', { name: 'Additional title' }))).toContain(
        'Shorter than minimum length 3.',
      ),
    );
  });
});
