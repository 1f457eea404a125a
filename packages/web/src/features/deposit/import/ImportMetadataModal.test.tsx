import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ImportMetadataAnswer } from '@cairn/shared';
import { describe, expect, it, vi } from 'vitest';
import { buildDraft } from '../../../test/builders';
import { errorResponse, jsonResponse, stubFetch, type RecordedRequest } from '../../../test/fetch';
import { renderApp } from '../../../test/renderApp';
import { buildFormValues, renderInDepositForm } from '../../../test/renderInDepositForm';
import { answerCreatorsRequest } from '../creators/test-responses';
import { ImportMetadataModal } from './ImportMetadataModal';
import { DATACITE_CREATORS, DATACITE_DOI } from './test-answers';

const DOI = DATACITE_DOI;
const IMPORT_URL = '/api/records/abcde-12345/draft/actions/import-metadata';

/** The server's answer for a DataCite DOI, as import-metadata.test.ts's sample reads. */
const ANSWER: ImportMetadataAnswer = {
  metadata: {
    title: 'Snow depth and density along an elevation transect',
    creators: DATACITE_CREATORS,
    languages: [{ id: 'eng' }],
    version: '2.1',
  },
  unmatched: [
    {
      field: 'metadata.creators.1.affiliations.0',
      value: 'Institute of Unlisted Studies',
      kept: 'free_text',
    },
    { field: 'metadata.languages.1', value: 'Klingon', kept: 'dropped' },
  ],
  errors: [
    {
      field: 'metadata.creators.2.person_or_org.identifiers.0.identifier',
      messages: ['Invalid ORCID identifier.'],
    },
  ],
  source: { format: 'doi', doi: DOI, agency: 'datacite' },
  suggested_related_identifiers: [
    { scheme: 'doi', identifier: DOI, relation_type: { id: 'isderivedfrom' } },
    { scheme: 'doi', identifier: DOI, relation_type: { id: 'issupplementto' } },
  ],
};

/**
 * The server as far as the editor and the dialog ask it: the import answers `importAnswer`,
 * organisations and languages by id, the vocabularies' lists empty; anything else (a save) fails
 * the test, since nothing here may be saved.
 */
function stubServer(importAnswer: () => Response): RecordedRequest[] {
  return stubFetch((request) => {
    const url = new URL(request.url, 'http://localhost');
    const known = answerCreatorsRequest(request);
    if (known) return known;
    if (request.method === 'POST' && url.pathname === IMPORT_URL) return importAnswer();
    if (url.pathname === '/api/affiliations/01ggx4157') {
      return jsonResponse(200, { id: '01ggx4157', name: 'CERN' });
    }
    if (url.pathname === '/api/vocabularies/languages/eng') {
      return jsonResponse(200, { id: 'eng', title_l10n: 'English', tags: [] });
    }
    if (request.method === 'GET' && url.pathname.startsWith('/api/vocabularies/')) {
      return jsonResponse(200, { hits: { hits: [], total: 0 }, links: {}, sortBy: 'title' });
    }
    throw new Error(`Unexpected request: ${request.method} ${request.url}`);
  });
}

function importRequests(requests: RecordedRequest[]) {
  return requests.filter((request) => request.url.endsWith(IMPORT_URL));
}

async function openDialog() {
  fireEvent.click(await screen.findByRole('button', { name: 'Import metadata' }));
  return screen.findByRole('dialog', { name: 'Import metadata' });
}

function fetchDoi(dialog: HTMLElement, doi = DOI) {
  fireEvent.change(within(dialog).getByRole('textbox', { name: 'DOI' }), {
    target: { value: ` ${doi} ` },
  });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Fetch' }));
}

function field(dialog: HTMLElement, name: string): HTMLInputElement {
  return within(dialog).getByRole<HTMLInputElement>('checkbox', { name });
}

function titleInput(): HTMLInputElement {
  return screen.getByRole<HTMLInputElement>('textbox', { name: 'Title' });
}

function creatorNames(): string[] {
  return within(screen.getByRole('list', { name: 'Creators' }))
    .getAllByRole('listitem')
    .map((row) => row.querySelector('p')?.textContent ?? '');
}

describe('the Import metadata dialog', () => {
  it('reviews a DOI’s metadata and writes only the fields taken into the form', async () => {
    const requests = stubServer(() => jsonResponse(200, ANSWER));
    renderApp({ path: '/uploads/abcde-12345', bootstrap: { draft: buildDraft() } });
    const dialog = await openDialog();
    fetchDoi(dialog);

    await within(dialog).findByText(`Read from DOI ${DOI} (DataCite).`, { exact: false });
    expect(importRequests(requests).map((request) => request.body)).toEqual([{ doi: DOI }]);
    // Taken at first: the fields the draft holds nothing in; the title and creators are its own.
    expect(field(dialog, 'Title').checked).toBe(false);
    expect(field(dialog, 'Creators').checked).toBe(false);
    expect(field(dialog, 'Languages').checked).toBe(true);
    expect(field(dialog, 'Version').checked).toBe(true);
    // Beside each other: what the import sets, and what the form has now.
    expect(within(dialog).getByText('Ocean temperatures')).toBeTruthy();
    expect(within(dialog).getByText(ANSWER.metadata.title!)).toBeTruthy();
    // The organisation matched by id is named; what matched nothing is said under its field.
    await within(dialog).findByText('Carberry, Josiah · ORCID 0000-0002-1825-0097 · CERN');
    await within(dialog).findByText('English');
    within(dialog).getByText(
      '“Institute of Unlisted Studies” kept as free text: no vocabulary entry matched',
    );
    within(dialog).getByText('“Klingon” left out: no match');
    within(dialog).getByText('Creators: Invalid ORCID identifier.');

    fireEvent.click(field(dialog, 'Creators'));
    fireEvent.click(field(dialog, `This upload is derived from ${DOI}`));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Take 4 fields' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(titleInput().value).toBe('Ocean temperatures');
    expect(creatorNames()).toEqual(['Carberry, Josiah', 'Mulligan, Zoë']);
    expect(screen.getByRole('textbox', { name: 'Version' })).toHaveProperty('value', '2.1');
    expect(
      screen
        .getAllByRole('status')
        .some(
          (status) =>
            status.textContent ===
            '4 fields taken from the import; autosave stores them with the draft.',
        ),
    ).toBe(true);
    // Nothing was saved by the import: the only requests were the import and its look-ups.
    expect(requests.filter((request) => request.method !== 'GET')).toHaveLength(1);
  });

  it('takes everything, or nothing, at a click', async () => {
    stubServer(() => jsonResponse(200, ANSWER));
    renderApp({ path: '/uploads/abcde-12345', bootstrap: { draft: buildDraft() } });
    const dialog = await openDialog();
    fetchDoi(dialog);
    await within(dialog).findByRole('button', { name: 'Take all' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep mine' }));
    expect(within(dialog).getByRole('button', { name: 'Take nothing' })).toHaveProperty(
      'disabled',
      true,
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Take all' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Take 4 fields' }));

    await waitFor(() => expect(titleInput().value).toBe(ANSWER.metadata.title));
    expect(creatorNames()).toEqual(['Carberry, Josiah', 'Mulligan, Zoë']);
  });

  it('leaves the form as it was when cancelled after the review', async () => {
    stubServer(() => jsonResponse(200, ANSWER));
    renderApp({ path: '/uploads/abcde-12345', bootstrap: { draft: buildDraft() } });
    const dialog = await openDialog();
    fetchDoi(dialog);
    await within(dialog).findByRole('button', { name: 'Take all' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Take all' }));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(titleInput().value).toBe('Ocean temperatures');
    expect(creatorNames()).toEqual(['Lovelace, Ada']);
  });

  it('shows the server’s message for an unknown DOI and changes nothing', async () => {
    const message = `DOI ${DOI} is unknown to DataCite and to Crossref.`;
    stubServer(() => errorResponse('NOT_FOUND', { message }));
    renderApp({ path: '/uploads/abcde-12345', bootstrap: { draft: buildDraft() } });
    const dialog = await openDialog();
    fetchDoi(dialog);

    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe(`${message} Nothing in the form was changed.`);
    expect(titleInput().value).toBe('Ocean temperatures');
    // Another try starts from the same dialog.
    expect(within(dialog).getByRole('textbox', { name: 'DOI' })).toHaveProperty(
      'value',
      ` ${DOI} `,
    );
  });

  it('sends a chosen file’s text, and refuses one over 5 MB before sending anything', async () => {
    const requests = stubServer(() =>
      jsonResponse(200, { ...ANSWER, source: { format: 'bibtex' } }),
    );
    renderApp({ path: '/uploads/abcde-12345', bootstrap: { draft: buildDraft() } });
    const dialog = await openDialog();
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;

    const large = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'huge.bib');
    fireEvent.change(input, { target: { files: [large] } });
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      '“huge.bib” is larger than 5 MB',
    );
    expect(importRequests(requests)).toEqual([]);

    const bibtex = '@article{a, title = {Glaciers}, year = {2024}}';
    fireEvent.change(input, { target: { files: [new File([bibtex], 'glacier.bib')] } });
    await within(dialog).findByText('Read from a BibTeX file.', { exact: false });
    expect(importRequests(requests).map((request) => request.body)).toEqual([{ content: bibtex }]);
  });

  it('reads a file dropped on the dialog', async () => {
    const requests = stubServer(() => jsonResponse(200, { ...ANSWER, source: { format: 'cff' } }));
    renderApp({ path: '/uploads/abcde-12345', bootstrap: { draft: buildDraft() } });
    const dialog = await openDialog();
    const cff = 'cff-version: 1.2.0\ntitle: Glaciers\n';
    fireEvent.drop(within(dialog).getByText('A metadata file'), {
      dataTransfer: { files: [new File([cff], 'CITATION.cff')] },
    });
    await within(dialog).findByText('Read from a CITATION.cff file.', { exact: false });
    expect(importRequests(requests).map((request) => request.body)).toEqual([{ content: cff }]);
  });

  it('speaks German', async () => {
    const onApply = vi.fn();
    renderInDepositForm(
      <ImportMetadataModal
        opened
        onClose={() => undefined}
        ensureDraft={() => Promise.resolve({ id: 'abcde-12345' })}
        currentMetadata={() => buildFormValues().metadata}
        toFormMetadata={() => buildFormValues().metadata}
        onApply={onApply}
      />,
      { language: 'de' },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Metadaten importieren' });
    within(dialog).getByRole('button', { name: 'Abrufen' });
    within(dialog).getByRole('button', { name: 'Datei auswählen' });
  });
});
