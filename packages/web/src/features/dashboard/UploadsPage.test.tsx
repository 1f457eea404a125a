import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildDraft, buildRecord } from '../../test/builders';
import { jsonResponse, stubFetchSequence } from '../../test/fetch';
import { renderApp } from '../../test/renderApp';

describe('UploadsPage', () => {
  it('lists drafts to edit and records to view, newest first', async () => {
    const requests = stubFetchSequence(
      jsonResponse(200, {
        hits: {
          hits: [
            buildDraft({ id: 'draft-1', metadata: { title: 'Work in progress' } }),
            buildRecord({ id: 'rec-1', metadata: { title: 'Finished work' } }),
          ],
          total: 2,
        },
      }),
    );
    renderApp({ path: '/me/uploads' });

    const draftLink = await screen.findByRole('link', { name: 'Work in progress' });
    expect(draftLink.getAttribute('href')).toBe('/uploads/draft-1');
    expect(screen.getByRole('link', { name: 'Finished work' }).getAttribute('href')).toBe(
      '/records/rec-1',
    );
    expect(screen.getByText('Draft')).toBeTruthy();
    expect(screen.getByText('Published')).toBeTruthy();
    expect(requests[0]?.url).toBe('/api/user/records?sort=updated-desc');
  });

  it('sends people who are not signed in to the login page', () => {
    renderApp({ path: '/me/uploads', bootstrap: { user: null } });
    expect(screen.getByRole('heading', { level: 1, name: 'Log in' })).toBeTruthy();
  });
});
