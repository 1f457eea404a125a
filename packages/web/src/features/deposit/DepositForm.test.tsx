import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PublicConfigSchema } from '@cairn/shared';
import { browser } from '../../browser';
import { buildDraft, buildRecord } from '../../test/builders';
import { errorResponse, jsonResponse } from '../../test/fetch';
import { descriptionOf, renderApp } from '../../test/renderApp';
import { stubFetchWithVocabularies as stubFetchSequence } from './creators/test-responses';

function input(name: string): HTMLInputElement {
  return screen.getByRole<HTMLInputElement>('textbox', { name });
}

function type(name: string, value: string) {
  fireEvent.change(input(name), { target: { value } });
}

function chooseResourceType(title: string) {
  fireEvent.click(screen.getByRole('combobox', { name: 'Resource type' }));
  fireEvent.click(screen.getByRole('option', { name: title }));
}

/** Adds a creator through the creators widget's dialog. */
async function addCreator(fill: Record<string, string>, type?: 'Organization') {
  fireEvent.click(screen.getByRole('button', { name: 'Add creator' }));
  const dialog = screen.getByRole('dialog');
  if (type) fireEvent.click(within(dialog).getByRole('radio', { name: type }));
  for (const [name, value] of Object.entries(fill)) {
    fireEvent.change(within(dialog).getByRole('textbox', { name }), { target: { value } });
  }
  fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

async function fillNewUpload() {
  type('Title', 'Ocean temperatures');
  await addCreator({ 'Family name': 'Lovelace', 'Given names': 'Ada' });
  type('Publication date', '2024-05-01');
  chooseResourceType('Dataset');
}

const METADATA_ONLY = buildDraft({ files: { enabled: false } });

/** A saved metadata-only draft: publishable without files. */
function openMetadataOnlyDraft() {
  renderApp({ path: '/uploads/abcde-12345', bootstrap: { draft: METADATA_ONLY } });
}

/** Publish, then confirm in the dialog. */
function confirmPublish() {
  fireEvent.click(screen.getByRole('button', { name: 'Publish' }));
  const dialog = screen.getByRole('dialog', {
    name: 'Are you sure you want to publish this record?',
  });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
}

/** The banner's success message; the creators list's drag-and-drop live region is a status too. */
async function findSavedStatus(): Promise<HTMLElement> {
  const text = await screen.findByText('Record successfully saved.');
  const status = text.closest<HTMLElement>('[role="status"]');
  if (!status) throw new Error('The message is not in a status region');
  return status;
}

/** The row of the creators list that names `name`. */
function creatorRow(name: string): HTMLElement {
  const row = screen
    .getAllByRole('listitem')
    .find((item) => item.hasAttribute('aria-posinset') && item.textContent?.includes(name));
  if (!row) throw new Error(`No creator row for ${name}`);
  return row;
}

describe('DepositForm', () => {
  it('creates the draft on the first save and says so', async () => {
    const requests = stubFetchSequence(jsonResponse(201, buildDraft()));
    const replaceUrl = vi.spyOn(browser, 'replaceUrl');
    renderApp({ path: '/uploads/new' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('New upload');

    await fillNewUpload();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect((await findSavedStatus()).textContent).toContain('Record successfully saved.');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Edit upload');
    expect(requests).toHaveLength(1);
    expect(requests[0]?.method).toBe('POST');
    expect(requests[0]?.url).toBe('/api/records?expand=1');
    expect(requests[0]?.body).toEqual({
      metadata: {
        title: 'Ocean temperatures',
        creators: [
          { person_or_org: { type: 'personal', family_name: 'Lovelace', given_name: 'Ada' } },
        ],
        publication_date: '2024-05-01',
        resource_type: { id: 'dataset' },
      },
      access: { record: 'public', files: 'public', embargo: { active: false } },
      files: { enabled: true },
      pids: {},
      custom_fields: {},
    });
    expect(replaceUrl).toHaveBeenCalledWith('http://127.0.0.1:5000/uploads/abcde-12345');
    expect(window.location.pathname).toBe('/uploads/abcde-12345');
  });

  it('shows the custom fields area the instance configures, or no section without one', () => {
    const { unmount } = renderApp({
      path: '/uploads/new',
      bootstrap: {
        config: PublicConfigSchema.parse({
          customFieldsUi: [
            { field: 'cern:beam', ui_widget: 'ComingSoonField', props: { label: 'Beam line' } },
          ],
        }),
      },
    });
    const nav = screen.getByRole('navigation', { name: 'Form sections' });
    expect(within(nav).getByRole('link', { name: 'Additional details' })).toBeTruthy();
    const section = document.getElementById('custom-fields')!;
    expect(within(section).getByRole('group', { name: /Beam line/ }).textContent).toContain(
      'Coming soon',
    );
    expect(within(section).queryByRole('group', { name: 'Journal' })).toBeNull();
    unmount();

    renderApp({
      path: '/uploads/new',
      bootstrap: { config: PublicConfigSchema.parse({ customFieldsUi: [] }) },
    });
    expect(
      within(screen.getByRole('navigation', { name: 'Form sections' })).queryByRole('link', {
        name: 'Additional details',
      }),
    ).toBeNull();
    expect(document.getElementById('custom-fields')).toBeNull();
  });

  it('defaults the publication date of a new upload to today', () => {
    renderApp({ path: '/uploads/new' });
    expect(input('Publication date').value).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(input('Publication date').placeholder).toBe(
      'YYYY-MM-DD or YYYY-MM-DD/YYYY-MM-DD for intervals. MM and DD are optional.',
    );
  });

  it('sends an organisation by its name', async () => {
    const requests = stubFetchSequence(jsonResponse(201, buildDraft()));
    renderApp({ path: '/uploads/new' });

    await addCreator({ Name: 'CERN' }, 'Organization');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await findSavedStatus();
    expect(requests[0]?.body).toMatchObject({
      metadata: { creators: [{ person_or_org: { type: 'organizational', name: 'CERN' } }] },
    });
  });

  it('replaces the draft on later saves, based on the revision it last saw', async () => {
    const requests = stubFetchSequence(
      jsonResponse(201, buildDraft()),
      jsonResponse(200, buildDraft({ revision_id: 2 })),
    );
    renderApp({ path: '/uploads/new' });
    await fillNewUpload();

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await findSavedStatus();
    type('Title', 'Ocean temperatures 2024');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(requests).toHaveLength(2));
    expect(requests[1]?.method).toBe('PUT');
    expect(requests[1]?.url).toBe('/api/records/abcde-12345/draft?expand=1');
    expect(requests[1]?.headers.get('If-Match')).toBe('1');
    expect(requests[1]?.body).toMatchObject({ metadata: { title: 'Ocean temperatures 2024' } });
    expect((await findSavedStatus()).textContent).toContain('Record successfully saved.');
  });

  it('shows validation feedback of a partial save on the field and keeps the typed value', async () => {
    const partial = buildDraft({
      metadata: { ...buildDraft().metadata, title: undefined },
      errors: [{ field: 'metadata.title', messages: ['Shorter than minimum length 3.'] }],
    });
    stubFetchSequence(jsonResponse(201, partial));
    renderApp({ path: '/uploads/new' });
    await fillNewUpload();
    type('Title', 'Oc');

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain(
      'Record saved with validation feedback in Basic information (1)',
    );
    expect(within(banner).getByRole('link', { name: 'Basic information (1)' })).toBeTruthy();
    expect(descriptionOf(input('Title'))).toContain('Shorter than minimum length 3.');
    expect(input('Title').getAttribute('aria-invalid')).toBe('true');
    expect(input('Title').value).toBe('Oc');
  });

  it('shows the server message when a save fails for another reason', async () => {
    stubFetchSequence(jsonResponse(400, { status: 400, message: 'Invalid value lesson2.' }));
    renderApp({ path: '/uploads/new' });
    await fillNewUpload();

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Invalid value lesson2.');
  });

  it('tells the outcome of Save beside the buttons too, in a live region there from the start', async () => {
    stubFetchSequence(jsonResponse(201, buildDraft()));
    renderApp({ path: '/uploads/new' });
    const save = screen.getByRole('button', { name: 'Save' });
    const sidebar = save.closest<HTMLElement>('[role="group"]')?.parentElement;
    if (!sidebar) throw new Error('The action bar has no sidebar around it');
    const region = sidebar.querySelector<HTMLElement>('[aria-live="polite"]');
    expect(region).not.toBeNull();
    expect(region?.textContent).toBe('');

    await fillNewUpload();
    fireEvent.click(save);

    await waitFor(() => expect(region?.textContent).toMatch(/^Saved at .+\.$/));
    expect(region?.getAttribute('aria-atomic')).toBe('true');
  });

  it('offers to show the message of a failed action from beside the buttons', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubFetchSequence();
    renderApp({ path: '/uploads/new' });

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    const status = await screen.findByText(/^Something went wrong at /);
    expect(status.closest('[aria-live="polite"]')).not.toBeNull();
    fireEvent.click(within(status).getByRole('button', { name: 'Show message' }));
    expect(document.activeElement).toBe(screen.getByRole('alert'));
  });

  it('flags a reference row left empty on save instead of dropping it silently', async () => {
    const requests = stubFetchSequence(jsonResponse(201, buildDraft()));
    renderApp({ path: '/uploads/new' });
    await fillNewUpload();
    fireEvent.click(screen.getByRole('button', { name: 'Add reference' }));

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('Record saved with validation feedback in References (1)');
    const row = screen.getByRole('group', { name: 'Reference 1' });
    const reference = within(row).getByRole('textbox', { name: /^Reference/ });
    expect(descriptionOf(reference)).toContain('Missing data for required field.');
    // Sent in its place, so the server's indexes of later rows match the form's.
    expect(
      (requests[0]?.body as { metadata: { references: unknown } }).metadata.references,
    ).toEqual([{}]);
  });

  it('says the draft was not saved when the server cannot be reached', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubFetchSequence();
    renderApp({ path: '/uploads/new' });

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect((await screen.findByRole('alert')).textContent).toBe(
      'The draft was not saved. Please try again. If the problem persists, contact user support.',
    );
  });

  it('explains a save refused because the draft changed elsewhere', async () => {
    stubFetchSequence(
      errorResponse('REVISION_MISMATCH', {
        message: "Revision id provided(1) doesn't match record's one(2)",
      }),
    );
    renderApp({ path: '/uploads/abcde-12345', bootstrap: { draft: buildDraft() } });
    type('Title', 'My edit');

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect((await screen.findByRole('alert')).textContent).toBe(
      'This draft was changed elsewhere (e.g. in another tab). Reload to see the latest version; your unsaved changes are shown below.',
    );
    expect(input('Title').value).toBe('My edit');
  });

  it('publishes after saving and goes to the record', async () => {
    const requests = stubFetchSequence(
      jsonResponse(200, METADATA_ONLY),
      jsonResponse(202, buildRecord()),
    );
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    openMetadataOnlyDraft();
    await fillNewUpload();

    confirmPublish();

    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('http://127.0.0.1:5000/records/abcde-12345'),
    );
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'PUT /api/records/abcde-12345/draft?expand=1',
      'POST /api/records/abcde-12345/draft/actions/publish?expand=1',
    ]);
  });

  it('does not publish a draft saved with validation feedback', async () => {
    const requests = stubFetchSequence(
      jsonResponse(
        200,
        buildDraft({
          files: { enabled: false },
          errors: [{ field: 'metadata.publication_date', messages: ['Not a valid EDTF date.'] }],
        }),
      ),
    );
    openMetadataOnlyDraft();
    await fillNewUpload();
    type('Publication date', 'yesterday');

    confirmPublish();

    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain(
      'The draft was not published. Record saved with validation feedback in Basic information (1)',
    );
    expect(descriptionOf(input('Publication date'))).toContain('Not a valid EDTF date.');
    expect(requests).toHaveLength(1);
  });

  it('shows the messages of a publish refused by validation', async () => {
    stubFetchSequence(
      jsonResponse(200, METADATA_ONLY),
      jsonResponse(400, {
        status: 400,
        message: 'A validation error occurred.',
        errors: [
          {
            field: 'metadata.creators.0.person_or_org.family_name',
            messages: ['Family name cannot be blank.'],
          },
          { field: 'metadata.resource_type', messages: ['Missing data for required field.'] },
        ],
      }),
    );
    openMetadataOnlyDraft();
    await fillNewUpload();

    confirmPublish();

    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain(
      'The draft was not published. Record saved with validation feedback in Basic information (2)',
    );
    expect(creatorRow('Lovelace, Ada').textContent).toContain('Family name cannot be blank.');
    expect(descriptionOf(screen.getByRole('combobox', { name: 'Resource type' }))).toContain(
      'Missing data for required field.',
    );
    expect(screen.getByRole('button', { name: 'Publish' }).hasAttribute('disabled')).toBe(false);
  });

  it('lists feedback on fields the form does not show yet', async () => {
    stubFetchSequence(
      jsonResponse(200, METADATA_ONLY),
      jsonResponse(400, {
        status: 400,
        message: 'A validation error occurred.',
        errors: [
          {
            field: 'parent.communities',
            messages: ['Unknown community.'],
          },
        ],
      }),
    );
    openMetadataOnlyDraft();
    await fillNewUpload();

    confirmPublish();

    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('Record saved with validation feedback in Other (1)');
    expect(banner.textContent).toContain('Unknown community.');
  });

  it('lets the banner be dismissed', async () => {
    stubFetchSequence(jsonResponse(201, buildDraft()));
    renderApp({ path: '/uploads/new' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await findSavedStatus();

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));

    expect(screen.queryByText('Record successfully saved.')).toBeNull();
  });

  it('offers a new version the kind of DOI the version it follows has', async () => {
    const SITE = 'http://127.0.0.1:5000';
    const previous = buildRecord({
      id: 'first-00001',
      pids: { doi: { identifier: '10.5072/first-00001', provider: 'datacite' } },
    });
    const requests = stubFetchSequence(
      jsonResponse(200, { hits: { hits: [previous], total: 1 }, links: {}, sortBy: 'version' }),
    );
    const draft = buildDraft({ id: 'second-0002' });
    renderApp({
      path: '/uploads/second-0002',
      bootstrap: {
        draft: {
          ...draft,
          status: 'new_version_draft',
          versions: { index: 2, is_latest_draft: true },
          links: { ...draft.links, versions: `${SITE}/api/records/second-0002/versions` },
        },
      },
    });
    const radio = (name: string) => screen.getByRole<HTMLInputElement>('radio', { name });
    await waitFor(() => expect(radio('Yes, I already have one').disabled).toBe(true));
    expect(radio('No, I need one').disabled).toBe(false);
    expect(
      screen.getAllByText(
        'A previous version used a DOI registered from Cairn. This version must also use a DOI from Cairn.',
      ).length,
    ).toBeGreaterThan(0);
    expect(requests.map((r) => r.url)).toEqual([
      `/api/records/second-0002/versions?size=1&sort=version`,
    ]);
  });

  it('shows the feedback stored with a loaded draft', () => {
    renderApp({
      path: '/uploads/abcde-12345',
      bootstrap: {
        draft: buildDraft({
          errors: [{ field: 'metadata.title', messages: ['Missing data for required field.'] }],
        }),
      },
    });

    expect(screen.getByRole('alert').textContent).toContain(
      'Draft has validation feedback in Basic information (1)',
    );
    expect(descriptionOf(input('Title'))).toContain('Missing data for required field.');
    expect(creatorRow('Lovelace, Ada')).toBeTruthy();
  });
});
