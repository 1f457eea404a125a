import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import {
  dialog,
  draftIdOf,
  expectStatus,
  fillPublishableDraft,
  reloadEditor,
  saveAndWait,
  textbox,
  openNewUpload,
} from './support/editor.js';
import { apiAs, type Api } from './support/journey.js';
import { createAccount, type TestAccount, type TestServer } from './support/server.js';
import { expectPath, expectValue, logIn, test } from './support/test.js';

/**
 * Opens the editor's delete confirmation, checks its wording, cancels it (nothing is deleted),
 * opens it again and confirms. `label` names the sidebar button, the dialog and its confirm button
 * alike, each kind of delete with its own wording.
 */
async function deleteThroughDialog(page: Page, label: string, question: string) {
  const open = () => page.getByRole('button', { name: label, exact: true }).click();
  const confirm = dialog(page, label);

  await open();
  await confirm.getByText(question, { exact: true }).waitFor();
  expect(await axeViolations(page)).toEqual([]);
  await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
  await confirm.waitFor({ state: 'detached' });
  // Cancelling deletes nothing: the editor still holds the draft after a reload.
  await reloadEditor(page);

  await open();
  await confirm.getByRole('button', { name: label, exact: true }).click();
  await expectPath(page, '/me/uploads');
  await page.getByRole('heading', { name: 'My uploads', level: 1 }).waitFor();
}

/** The HTTP status of a GET as `api`'s account, for what must be gone or still there. */
async function statusOf(server: TestServer, account: TestAccount, path: string) {
  const { token } = await server.services.users.createToken(account.user.id, 'check');
  const res = await fetch(`${server.url}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return res.status;
}

/** A published metadata-only record, made through the API; returns its id. */
async function publishedRecord(api: Api, title: string): Promise<string> {
  const draft = await api('POST', '/api/records', {
    metadata: {
      title,
      publication_date: '2024-05-01',
      resource_type: { id: 'dataset' },
      creators: [
        { person_or_org: { type: 'personal', family_name: 'Lovelace', given_name: 'Ada' } },
      ],
    },
    files: { enabled: false },
  });
  await api('POST', `/api/records/${draft.id}/draft/actions/publish`);
  return draft.id as string;
}

/** The dashboard's row of `title`. */
function uploadRow(page: Page, title: string) {
  return page.getByRole('row').filter({ has: page.getByRole('link', { name: title }) });
}

describe('deleting from the editor', () => {
  test('a first draft is deleted after "Are you sure you want to delete this draft?"', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services);
    await openNewUpload(page, account);
    // Nothing to delete before the first save.
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).isDisabled()).toBe(true);
    await fillPublishableDraft(page, 'Puffin burrow survey');
    await saveAndWait(page);
    const id = await draftIdOf(page);

    await deleteThroughDialog(page, 'Delete', 'Are you sure you want to delete this draft?');

    await page.getByText('You have no uploads yet.').waitFor();
    expect(await statusOf(server, account, `/api/records/${id}/draft`)).toBe(404);
  });

  test('a new version is discarded after "Are you sure you want to delete this new version?", leaving the published one', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services);
    const api = await apiAs(server, account);
    const id = await publishedRecord(api, 'Kittiwake nest counts');
    await logIn(page, account, '/me/uploads');
    await uploadRow(page, 'Kittiwake nest counts')
      .getByRole('button', { name: /^New version/ })
      .click();
    await expectPath(page, /^\/uploads\/[^/]+$/);
    const versionId = await draftIdOf(page);
    expect(versionId).not.toBe(id);
    await expectStatus(
      page,
      'New version draft',
      'Once your upload is complete, you can publish it.',
    );

    await deleteThroughDialog(
      page,
      'Discard version',
      'Are you sure you want to delete this new version?',
    );

    await uploadRow(page, 'Kittiwake nest counts').getByText('Published').waitFor();
    expect(await page.getByText('New version draft').count()).toBe(0);
    expect(await statusOf(server, account, `/api/records/${versionId}/draft`)).toBe(404);
    expect(await statusOf(server, account, `/api/records/${id}`)).toBe(200);
  });

  test('changes to a published record are discarded after "Are you sure you want to discard the changes to this draft?"', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services);
    const api = await apiAs(server, account);
    const id = await publishedRecord(api, 'Fulmar colony census');
    await logIn(page, account, '/me/uploads');
    await uploadRow(page, 'Fulmar colony census').getByRole('button', { name: /^Edit/ }).click();
    await expectPath(page, `/uploads/${id}`);
    await expectStatus(page, 'Published', 'Your upload is published.');
    await textbox(page, 'Title').fill('Fulmar colony census, corrected');
    await saveAndWait(page);

    await deleteThroughDialog(
      page,
      'Discard changes',
      'Are you sure you want to discard the changes to this draft?',
    );

    // The record is as it was published; the edit is gone.
    await uploadRow(page, 'Fulmar colony census').getByText('Published').waitFor();
    expect(await page.getByRole('link', { name: 'Fulmar colony census, corrected' }).count()).toBe(
      0,
    );
    expect(await statusOf(server, account, `/api/records/${id}/draft`)).toBe(404);
    const record = await api('GET', `/api/records/${id}`);
    expect(record.metadata.title).toBe('Fulmar colony census');
    await page.goto(`/records/${id}`);
    await page.getByRole('heading', { name: 'Fulmar colony census', level: 1 }).waitFor();
    // Reopening the editor starts from the published values again.
    await page.goto('/me/uploads');
    await uploadRow(page, 'Fulmar colony census').getByRole('button', { name: /^Edit/ }).click();
    await expectPath(page, `/uploads/${id}`);
    await expectValue(textbox(page, 'Title'), 'Fulmar colony census');
  });
});
