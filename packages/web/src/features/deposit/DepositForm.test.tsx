import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../../browser';
import { buildDraft, buildRecord } from '../../test/builders';
import { jsonResponse, stubFetchSequence } from '../../test/fetch';
import { descriptionOf, renderApp } from '../../test/renderApp';

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

function fillNewUpload() {
  type('Title', 'Ocean temperatures');
  type('Family name', 'Lovelace');
  type('Given names', 'Ada');
  type('Publication date', '2024-05-01');
  chooseResourceType('Dataset');
}

describe('DepositForm', () => {
  it('creates the draft on the first save and says so', async () => {
    const requests = stubFetchSequence(jsonResponse(201, buildDraft()));
    const replaceUrl = vi.spyOn(browser, 'replaceUrl');
    renderApp({ path: '/uploads/new' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('New upload');

    fillNewUpload();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect((await screen.findByRole('status')).textContent).toContain('Record successfully saved.');
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
      access: { record: 'public', files: 'public' },
      files: { enabled: false },
      pids: {},
      custom_fields: {},
    });
    expect(replaceUrl).toHaveBeenCalledWith('http://127.0.0.1:5000/uploads/abcde-12345');
    expect(window.location.pathname).toBe('/uploads/abcde-12345');
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

    fireEvent.click(screen.getByRole('radio', { name: 'Organization' }));
    type('Name', 'CERN');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await screen.findByRole('status');
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
    fillNewUpload();

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('status');
    type('Title', 'Ocean temperatures 2024');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(requests).toHaveLength(2));
    expect(requests[1]?.method).toBe('PUT');
    expect(requests[1]?.url).toBe('/api/records/abcde-12345/draft?expand=1');
    expect(requests[1]?.headers.get('If-Match')).toBe('1');
    expect(requests[1]?.body).toMatchObject({ metadata: { title: 'Ocean temperatures 2024' } });
    expect((await screen.findByRole('status')).textContent).toContain('Record successfully saved.');
  });

  it('shows validation feedback of a partial save on the field and keeps the typed value', async () => {
    const partial = buildDraft({
      metadata: { ...buildDraft().metadata, title: undefined },
      errors: [{ field: 'metadata.title', messages: ['Shorter than minimum length 3.'] }],
    });
    stubFetchSequence(jsonResponse(201, partial));
    renderApp({ path: '/uploads/new' });
    fillNewUpload();
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
    fillNewUpload();

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Invalid value lesson2.');
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
      jsonResponse(412, {
        status: 412,
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
      jsonResponse(201, buildDraft()),
      jsonResponse(202, buildRecord()),
    );
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    renderApp({ path: '/uploads/new' });
    fillNewUpload();

    fireEvent.click(screen.getByRole('button', { name: 'Publish' }));

    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('http://127.0.0.1:5000/records/abcde-12345'),
    );
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /api/records?expand=1',
      'POST /api/records/abcde-12345/draft/actions/publish?expand=1',
    ]);
  });

  it('does not publish a draft saved with validation feedback', async () => {
    const requests = stubFetchSequence(
      jsonResponse(
        201,
        buildDraft({
          errors: [{ field: 'metadata.publication_date', messages: ['Not a valid EDTF date.'] }],
        }),
      ),
    );
    renderApp({ path: '/uploads/new' });
    fillNewUpload();
    type('Publication date', 'yesterday');

    fireEvent.click(screen.getByRole('button', { name: 'Publish' }));

    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain(
      'The draft was not published. Record saved with validation feedback in Basic information (1)',
    );
    expect(descriptionOf(input('Publication date'))).toContain('Not a valid EDTF date.');
    expect(requests).toHaveLength(1);
  });

  it('shows the messages of a publish refused by validation', async () => {
    stubFetchSequence(
      jsonResponse(201, buildDraft()),
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
    renderApp({ path: '/uploads/new' });
    fillNewUpload();

    fireEvent.click(screen.getByRole('button', { name: 'Publish' }));

    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain(
      'The draft was not published. Record saved with validation feedback in Basic information (2)',
    );
    expect(descriptionOf(input('Family name'))).toContain('Family name cannot be blank.');
    expect(descriptionOf(screen.getByRole('combobox', { name: 'Resource type' }))).toContain(
      'Missing data for required field.',
    );
    expect(screen.getByRole('button', { name: 'Publish' }).hasAttribute('disabled')).toBe(false);
  });

  it('lists feedback on fields the form does not show yet', async () => {
    stubFetchSequence(
      jsonResponse(201, buildDraft()),
      jsonResponse(400, {
        status: 400,
        message: 'A validation error occurred.',
        errors: [
          {
            field: 'files.enabled',
            messages: [
              'Missing uploaded files. To disable files for this record please mark it as metadata-only.',
            ],
          },
        ],
      }),
    );
    renderApp({ path: '/uploads/new' });
    fillNewUpload();

    fireEvent.click(screen.getByRole('button', { name: 'Publish' }));

    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('Record saved with validation feedback in Other (1)');
    expect(banner.textContent).toContain('Missing uploaded files.');
  });

  it('lets the banner be dismissed', async () => {
    stubFetchSequence(jsonResponse(201, buildDraft()));
    renderApp({ path: '/uploads/new' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('status');

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));

    expect(screen.queryByText('Record successfully saved.')).toBeNull();
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
    expect(input('Family name').value).toBe('Lovelace');
  });
});
