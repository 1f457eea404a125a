import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { openPage } from './support/browser.js';
import { apiAs, draftWithFile, logIn } from './support/journey.js';
import { submitThroughEditor } from './support/review.js';
import { createAccount } from './support/server.js';
import { expectPath, POLL, test } from './support/test.js';

const metadata = (title: string) => ({
  title,
  publication_date: '2024-05-01',
  resource_type: { id: 'dataset' },
  creators: [{ person_or_org: { type: 'personal', family_name: 'Lovelace', given_name: 'Ada' } }],
});

describe('requests inbox journey', () => {
  test('a curator finds submissions by the header count, filters the inbox, accepts one and steps to the next', async ({
    page,
    browser,
    server,
  }) => {
    const curator = await createAccount(server.services, { name: 'Grace Hopper' });
    const depositor = await createAccount(server.services, { name: 'Ada Lovelace' });
    const community = await server.services.communities.create(curator.user, {
      slug: 'seabirds',
      metadata: { title: 'Seabird Monitoring', type: { id: 'organization' } },
      access: { visibility: 'public' },
    });
    const api = await apiAs(server, depositor);
    // Two older submissions through the API, then one through the editor.
    for (const title of ['Puffin burrows', 'Kittiwake nests']) {
      const id = await draftWithFile(api, metadata(title));
      await api('PUT', `/api/records/${id}/draft/review`, {
        type: 'community-submission',
        receiver: { community: community.row.id },
      });
      await api('POST', `/api/records/${id}/draft/actions/submit-review`);
    }
    const depositorTab = await openPage(browser, server.url);
    try {
      await logIn(depositorTab.page, depositor, '/me/uploads');
      const draftId = await draftWithFile(api, metadata('Gannet colony counts'));
      await submitThroughEditor(
        depositorTab.page,
        draftId,
        'Seabird Monitoring',
        'Counts from Bass Rock.',
      );
      // The depositor's own inbox lists what they sent.
      await depositorTab.page.goto('/me/requests');
      await depositorTab.page.getByRole('link', { name: 'Gannet colony counts' }).waitFor();
      expect(depositorTab.pageErrors).toEqual([]);
    } finally {
      await depositorTab.context.close();
    }

    // The curator signs in and sees, in the header, how many wait for a decision.
    await logIn(page, curator, '/communities');
    const inboxLink = page.getByRole('link', { name: 'Requests, 3 waiting for your decision' });
    await inboxLink.click();
    await expectPath(page, '/me/requests');
    await page.getByRole('heading', { name: 'Requests', level: 1 }).waitFor();
    const table = page.getByRole('table');
    await table.getByRole('link', { name: 'Gannet colony counts' }).waitFor();
    expect(await table.getByRole('row').count()).toBe(4);
    // None opened yet: each is marked as news.
    expect(await table.getByText('New', { exact: true }).count()).toBe(3);
    expect(await axeViolations(page), '/me/requests').toEqual([]);

    // Filters live in the address: a community, the oldest first, and a search.
    await page.getByRole('combobox', { name: 'Community' }).selectOption('Seabird Monitoring');
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption('Oldest');
    await expectPath(page, `/me/requests?community=${community.row.id}&sort=oldest`);
    await page.getByRole('textbox', { name: 'Search requests by title' }).fill('gannet');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expectPath(page, `/me/requests?q=gannet&community=${community.row.id}&sort=oldest`);
    await expect.poll(() => table.getByRole('row').count(), POLL).toBe(2);
    await page.goBack();
    await expectPath(page, `/me/requests?community=${community.row.id}&sort=oldest`);
    await expect.poll(() => table.getByRole('row').count(), POLL).toBe(4);
    const rows = table.getByRole('row');
    expect(await rows.nth(1).getByRole('link').textContent()).toBe('Puffin burrows');
    expect(await rows.nth(1).getByRole('cell').nth(3).textContent()).toBe('Ada Lovelace');

    // The oldest first: accepted, then on to the next open one without going back.
    await rows.nth(1).getByRole('link', { name: 'Puffin burrows' }).click();
    await page.getByRole('heading', { name: 'Puffin burrows', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Accept and publish' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Accept and publish' }).click();
    await page.getByText('Grace Hopper accepted this request', { exact: false }).waitFor();
    // The header follows at once.
    await page.getByRole('link', { name: 'Requests, 2 waiting for your decision' }).waitFor();
    expect(await axeViolations(page), '/me/requests/:id from the inbox').toEqual([]);
    await page.getByRole('link', { name: 'Next open request' }).click();
    await page.getByRole('heading', { name: 'Kittiwake nests', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Next open request' }).click();
    await page.getByRole('heading', { name: 'Gannet colony counts', level: 1 }).waitFor();
    await page.getByText('No further open requests in this list.').waitFor();
    await page.getByRole('link', { name: 'Back to the list' }).click();
    await expectPath(page, `/me/requests?community=${community.row.id}&sort=oldest`);
    await expect.poll(() => table.getByRole('row').count(), POLL).toBe(3);
    // Both were opened on the way: no longer news.
    await expect.poll(() => table.getByText('New', { exact: true }).count(), POLL).toBe(0);

    // The community page leads its curators to the same requests.
    await page.goto('/communities/seabirds');
    await page.getByRole('link', { name: 'Requests (2 open)' }).click();
    await expectPath(page, '/communities/seabirds/requests');
    await page.getByRole('heading', { name: 'Requests to Seabird Monitoring', level: 1 }).waitFor();
    await table.getByRole('link', { name: 'Kittiwake nests' }).waitFor();
    expect(await axeViolations(page), '/communities/:slug/requests').toEqual([]);
  });
});
