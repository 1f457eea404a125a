import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ADA, buildDraft, buildRecord } from '../../test/builders';
import { errorResponse, jsonResponse, stubFetch } from '../../test/fetch';
import { renderApp } from '../../test/renderApp';

const ID = 'pubd1-00001';

function publishedRecord(owner: string) {
  return buildRecord({
    id: ID,
    metadata: { title: 'Gannet tracks' },
    parent: { id: 'parnt-00001', access: { owned_by: { user: owner } } },
  });
}

describe('the editor of a published record without a draft', () => {
  it('offers its owner to edit it, and opens the edit draft', async () => {
    const draft = { ...buildDraft({ id: ID, metadata: { title: 'Gannet tracks' } }) };
    let opened = false;
    const requests = stubFetch((request) => {
      if (request.method === 'POST') {
        opened = true;
        return jsonResponse(201, { ...draft, is_published: true, status: 'published' });
      }
      if (request.url.startsWith(`/api/records/${ID}/draft`))
        return opened ? jsonResponse(200, draft) : errorResponse('PID_DOES_NOT_EXIST');
      return jsonResponse(200, publishedRecord(ADA.id));
    });
    renderApp({ path: `/uploads/${ID}` });

    expect(await screen.findByText('This record is published')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View the record' }).getAttribute('href')).toBe(
      `/records/${ID}`,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Edit the record' }));
    expect(await screen.findByRole('textbox', { name: 'Title' })).toBeTruthy();
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual([
      `/api/records/${ID}/draft?expand=1`,
    ]);
  });

  it('tells anyone else that the draft could not be loaded', async () => {
    stubFetch((request) =>
      request.url.startsWith(`/api/records/${ID}/draft`)
        ? errorResponse('PID_DOES_NOT_EXIST')
        : jsonResponse(200, publishedRecord('99')),
    );
    renderApp({ path: `/uploads/${ID}` });

    expect(await screen.findByText('The draft could not be loaded.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit the record' })).toBeNull();
  });
});
