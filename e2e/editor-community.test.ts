import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import {
  createCommunity,
  dialog,
  expectStatus,
  fillPublishableDraft,
  pickCommunity,
  reloadEditor,
  saveAndWait,
  openNewUpload,
} from './support/editor.js';
import { createAccount } from './support/server.js';
import { expectPath, test } from './support/test.js';

/** The request page's address, `/me/requests/<id>`. */
const REQUEST_PATH = /^\/me\/requests\/[^/]+$/;

describe('editor and communities', () => {
  test('a depositor submits a new draft for review through the editor and finds it in review afterwards', async ({
    page,
    server,
  }) => {
    const curator = await createAccount(server.services, { name: 'Grace Hopper' });
    const depositor = await createAccount(server.services, { name: 'Ada Lovelace' });
    await createCommunity(server, curator, {
      slug: 'seabirds',
      title: 'Seabird Monitoring',
      reviewPolicy: 'closed',
    });
    await openNewUpload(page, depositor);
    await fillPublishableDraft(page, 'Gannet colony counts');
    await pickCommunity(page, 'Seabird Monitoring');
    // The choice is saved with the draft and still there when the editor is opened again.
    await saveAndWait(page);
    await reloadEditor(page);
    await page
      .getByRole('region', { name: 'Community' })
      .getByText('Seabird Monitoring', { exact: true })
      .waitFor();
    await expectStatus(
      page,
      'Draft',
      'Once your upload is complete, you can submit it for review to the community curators.',
    );
    // Nobody may include directly into a community whose review policy is closed.
    expect(await page.getByRole('button', { name: 'Publish to community' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0);

    await page.getByRole('button', { name: 'Submit for review', exact: true }).click();
    const review = dialog(page, 'Submit for review');
    await review
      .getByText('Before requesting review, please read and check the following:')
      .waitFor();
    const access = review.getByRole('checkbox', {
      name: "The 'Seabird Monitoring' curators will have access to view and edit your upload's metadata and files.",
    });
    const publish = review.getByRole('checkbox', {
      name: 'If your upload is accepted by the community curators, it will be immediately published. Before that, you will still be able to modify metadata and files of this upload.',
    });
    // The boxes are checked on submit only, each with its own message.
    await review.getByRole('button', { name: 'Submit record for review' }).click();
    await expect
      .poll(() => review.getByText('You must accept this.', { exact: true }).count())
      .toBe(2);
    expect(await axeViolations(page)).toEqual([]);
    await access.check();
    await publish.check();
    await review
      .getByRole('textbox', { name: 'Message to curators (optional)' })
      .fill('Counts from Bass Rock, 2010 to 2024.');
    await review.getByRole('button', { name: 'Submit record for review' }).click();

    await expectPath(page, REQUEST_PATH);
    const requestPath = new URL(page.url()).pathname;
    await page.getByRole('heading', { name: 'Gannet colony counts', level: 1 }).waitFor();
    await page
      .getByRole('article')
      .filter({ hasText: 'Counts from Bass Rock, 2010 to 2024.' })
      .getByText('Ada Lovelace')
      .waitFor();
    const draftLink = page.getByRole('link', { name: 'Preview the draft' });
    const draftId = /^\/records\/([^?]+)\?preview=1$/.exec(
      (await draftLink.getAttribute('href')) ?? '',
    )?.[1];
    expect(draftId).toBeTruthy();

    // Back in the editor, the draft says it is in review and cannot be submitted again.
    await page.goto(`/uploads/${draftId}`);
    await page.getByRole('heading', { name: 'Edit upload', level: 1 }).waitFor();
    await expectStatus(
      page,
      'In review',
      'Community curators will review your upload. Once accepted, it will be published.',
    );
    expect(await page.getByRole('link', { name: 'View request' }).getAttribute('href')).toBe(
      requestPath,
    );
    expect(
      await page.getByRole('button', { name: 'Submitted for review', exact: true }).isDisabled(),
    ).toBe(true);
    const bar = page.getByRole('region', { name: 'Community' });
    await bar.getByText('Seabird Monitoring', { exact: true }).waitFor();
    await bar.getByText('The community cannot be changed while the upload is in review.').waitFor();
    expect(await bar.getByRole('button', { name: 'Change', exact: true }).isDisabled()).toBe(true);
  });

  test('a curator publishes straight into a community that lets curators include directly', async ({
    page,
    server,
  }) => {
    const owner = await createAccount(server.services, { name: 'Grace Hopper' });
    await createCommunity(server, owner, {
      slug: 'glaciers',
      title: 'Glacier Mass',
      reviewPolicy: 'open',
    });
    await openNewUpload(page, owner);
    await fillPublishableDraft(page, 'Aletsch glacier mass balance');
    await pickCommunity(page, 'Glacier Mass');

    await page.getByRole('button', { name: 'Publish to community', exact: true }).click();
    const direct = dialog(page, 'Publish to community');
    await direct
      .getByText('Before publishing to the community, please read and check the following:')
      .waitFor();
    // Nobody reviews it: there is no message to curators.
    expect(await direct.getByRole('textbox').count()).toBe(0);
    await direct
      .getByRole('checkbox', {
        name: "The 'Glacier Mass' curators will have access to view and edit your upload's metadata and files.",
      })
      .check();
    await direct
      .getByRole('checkbox', {
        name: "Your upload will be immediately published in 'Glacier Mass'. You will no longer be able to change the files in the upload! However, you will still be able to update the record's metadata later.",
      })
      .check();
    expect(await axeViolations(page)).toEqual([]);
    await direct.getByRole('button', { name: 'Publish record to community' }).click();

    await expectPath(page, /^\/records\/[^/?]+$/);
    const recordId = new URL(page.url()).pathname.split('/').pop();
    await page.getByRole('heading', { name: 'Aletsch glacier mass balance', level: 1 }).waitFor();

    await page.goto('/communities/glaciers');
    await page.getByRole('link', { name: 'Aletsch glacier mass balance' }).click();
    await expectPath(page, `/records/${recordId}`);
  });
});
