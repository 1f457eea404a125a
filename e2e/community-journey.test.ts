import type { Browser, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { openPage, type BrowserPage } from './support/browser.js';
import { apiAs, draftWithFile, logIn } from './support/journey.js';
import { createAccount, type TestServer } from './support/server.js';
import { commentWith, submitThroughEditor } from './support/review.js';
import { expectPath, test } from './support/test.js';

const metadata = (title: string) => ({
  title,
  publication_date: '2024-05-01',
  resource_type: { id: 'dataset' },
  creators: [{ person_or_org: { type: 'personal', family_name: 'Lovelace', given_name: 'Ada' } }],
});

/** The curator creates the community through the form. */
async function createCommunity(page: Page, slug: string, title: string) {
  await page.goto('/communities');
  await page.getByRole('link', { name: 'New community' }).click();
  await page.getByRole('heading', { name: 'New community', level: 1 }).waitFor();
  expect(await axeViolations(page), '/communities/new').toEqual([]);
  await page.getByRole('textbox', { name: 'Title' }).fill(title);
  await page.getByRole('textbox', { name: 'Identifier' }).fill(slug);
  await page.getByRole('button', { name: 'Create community' }).click();
  await expectPath(page, `/communities/${slug}`);
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
}

/**
 * A curator (signed in on `curatorPage`) creates a community through the form; a depositor, in a
 * browser of their own (`depositorTab`, signed in here), submits a draft with a file to it through
 * the editor. Returns the draft and request ids.
 */
async function submissionToNewCommunity(
  curatorPage: Page,
  depositorTab: BrowserPage,
  server: TestServer,
  community: { slug: string; title: string },
  recordTitle: string,
  message: string,
) {
  const curator = await createAccount(server.services, { name: 'Grace Hopper' });
  const depositor = await createAccount(server.services, { name: 'Ada Lovelace' });
  await logIn(curatorPage, curator, '/me/uploads');
  await createCommunity(curatorPage, community.slug, community.title);
  const draftId = await draftWithFile(await apiAs(server, depositor), metadata(recordTitle));
  await logIn(depositorTab.page, depositor, '/me/uploads');
  const requestId = await submitThroughEditor(depositorTab.page, draftId, community.title, message);
  return { draftId, requestId };
}

/**
 * Runs `journey` with a second browser context for the depositor beside the curator's page; the
 * depositor's page must not have thrown.
 */
async function withDepositorTab(
  browser: Browser,
  server: TestServer,
  journey: (depositorTab: BrowserPage) => Promise<void>,
) {
  const depositorTab = await openPage(browser, server.url);
  try {
    await journey(depositorTab);
    expect(depositorTab.pageErrors).toEqual([]);
  } finally {
    await depositorTab.context.close();
  }
}

describe('community review journey', () => {
  test('a depositor submits through the editor, talks with the curator on the request page, the curator accepts and the record appears in the community', async ({
    page: curatorPage,
    browser,
    server,
  }) => {
    await withDepositorTab(browser, server, async (depositorTab) => {
      const page = depositorTab.page;
      const { draftId, requestId } = await submissionToNewCommunity(
        curatorPage,
        depositorTab,
        server,
        { slug: 'seabirds', title: 'Seabird Monitoring' },
        'Gannet colony counts',
        'Counts from Bass Rock.',
      );

      // The curator reads the submission and asks for a change.
      await curatorPage.goto(`/me/requests/${requestId}`);
      await curatorPage.getByRole('heading', { name: 'Gannet colony counts', level: 1 }).waitFor();
      await commentWith(curatorPage, 'Counts from Bass Rock.').getByText('Ada Lovelace').waitFor();
      expect(
        await curatorPage.getByRole('link', { name: 'Preview the draft' }).getAttribute('href'),
      ).toBe(`/records/${draftId}?preview=1`);
      expect(await axeViolations(curatorPage), '/me/requests/:id (curator)').toEqual([]);
      await curatorPage
        .getByRole('textbox', { name: 'Add a comment' })
        .fill('Which units are these?');
      await curatorPage.getByRole('button', { name: 'Comment', exact: true }).click();
      await commentWith(curatorPage, 'Which units are these?').waitFor();

      // The depositor, still on the request page, replies; they may cancel but not decide.
      await page.reload();
      await commentWith(page, 'Which units are these?').getByText('Grace Hopper').waitFor();
      await page.getByRole('button', { name: 'Cancel request' }).waitFor();
      expect(await page.getByRole('button', { name: 'Accept and publish' }).count()).toBe(0);
      expect(await axeViolations(page), '/me/requests/:id (depositor)').toEqual([]);
      await page.getByRole('textbox', { name: 'Add a comment' }).fill('Breeding pairs.');
      await page.getByRole('button', { name: 'Comment', exact: true }).click();
      await commentWith(page, 'Breeding pairs.').waitFor();

      // The curator sees the reply and accepts, with a note.
      await curatorPage.reload();
      await commentWith(curatorPage, 'Breeding pairs.').getByText('Ada Lovelace').waitFor();
      await curatorPage.getByRole('button', { name: 'Accept and publish' }).click();
      const dialog = curatorPage.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Comment (optional)' }).fill('Thank you!');
      expect(await axeViolations(curatorPage), 'accept dialog').toEqual([]);
      await dialog.getByRole('button', { name: 'Accept and publish' }).click();
      await curatorPage.getByText('Grace Hopper accepted this request', { exact: false }).waitFor();
      await curatorPage.getByText('Accepted', { exact: true }).waitFor();
      await commentWith(curatorPage, 'Thank you!').waitFor();
      await curatorPage.getByRole('link', { name: 'View the record' }).waitFor();

      // The record is now in the community, for everyone.
      await curatorPage.goto('/communities/seabirds');
      await curatorPage
        .getByText('Every submission is reviewed by a curator before it is published.')
        .waitFor();
      // The owner reads the members' own list, with roles.
      await curatorPage
        .getByRole('region', { name: 'Members' })
        .getByRole('listitem')
        .filter({ hasText: 'Grace Hopper' })
        .getByText('Owner')
        .waitFor();
      await curatorPage.getByRole('link', { name: 'Gannet colony counts' }).waitFor();
      expect(await axeViolations(curatorPage), '/communities/seabirds').toEqual([]);
      await curatorPage.getByRole('link', { name: 'Gannet colony counts' }).click();
      await expectPath(curatorPage, `/records/${draftId}`);
      await curatorPage.getByRole('heading', { name: 'Gannet colony counts', level: 1 }).waitFor();
      // Its landing page names the community it was accepted into, and leads back to it.
      await curatorPage
        .getByRole('region', { name: 'Communities' })
        .getByRole('link', { name: 'Seabird Monitoring' })
        .click();
      await expectPath(curatorPage, '/communities/seabirds');

      // The depositor sees the request accepted and the record published in the community.
      await page.reload();
      await page.getByText('Accepted', { exact: true }).waitFor();
      await page.goto('/communities/seabirds');
      await page.getByRole('link', { name: 'Gannet colony counts' }).waitFor();
      // Others read the public list, which names no roles.
      const members = page.getByRole('region', { name: 'Members' });
      await members.getByText('Grace Hopper').waitFor();
      expect(await members.getByText('Owner').count()).toBe(0);

      await curatorPage.goto('/communities?q=seabird');
      await curatorPage.getByRole('link', { name: 'Seabird Monitoring' }).waitFor();
      expect(await axeViolations(curatorPage), '/communities').toEqual([]);
    });
  });

  test('a declined submission stays out of the community and hidden from the curator', async ({
    page: curatorPage,
    browser,
    server,
  }) => {
    await withDepositorTab(browser, server, async (depositorTab) => {
      const page = depositorTab.page;
      const { requestId } = await submissionToNewCommunity(
        curatorPage,
        depositorTab,
        server,
        { slug: 'glaciers', title: 'Glacier Mass' },
        'Puffin burrow survey',
        'Please consider it.',
      );

      await curatorPage.goto(`/me/requests/${requestId}`);
      await curatorPage.getByRole('button', { name: 'Decline' }).click();
      const dialog = curatorPage.getByRole('dialog');
      await dialog
        .getByRole('textbox', { name: 'Comment (optional)' })
        .fill('Out of scope: no glaciers.');
      await dialog.getByRole('button', { name: 'Decline' }).click();
      await curatorPage.getByText('Grace Hopper declined this request', { exact: false }).waitFor();
      await curatorPage.getByText('You can no longer see the record of this request.').waitFor();
      expect(await curatorPage.getByRole('button', { name: 'Accept and publish' }).count()).toBe(0);
      expect(await axeViolations(curatorPage), '/me/requests/:id declined (curator)').toEqual([]);

      await page.reload();
      await page.getByText('Declined', { exact: true }).waitFor();
      await commentWith(page, 'Out of scope: no glaciers.').waitFor();
      expect(await page.getByRole('button', { name: 'Cancel request' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Preview the draft' }).waitFor();
      expect(await axeViolations(page), '/me/requests/:id declined (depositor)').toEqual([]);

      await curatorPage.goto('/communities/glaciers');
      await curatorPage
        .getByText('No records have been published in this community yet.')
        .waitFor();
    });
  });

  test('the server serves the community pages to everyone and sends visitors to log in for the others', async ({
    server,
  }) => {
    for (const path of ['/communities', '/communities/anything']) {
      const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain('id="cairn-bootstrap"');
    }
    for (const path of ['/communities/new', '/me/requests/6f1c2b7e-0d4a-4c1e-9a57-3b8f2d9e1c44']) {
      const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location'), path).toBe(`/login?next=${encodeURIComponent(path)}`);
    }
  });
});
