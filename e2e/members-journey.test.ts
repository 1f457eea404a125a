import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { openPage } from './support/browser.js';
import { logIn } from './support/journey.js';
import { createAccount } from './support/server.js';
import { expectPath, POLL, test } from './support/test.js';

describe('community members journey', () => {
  test('an owner invites a colleague who accepts, takes a request to join with a chosen role, and manages the members', async ({
    page,
    browser,
    server,
  }) => {
    const owner = await createAccount(server.services, { name: 'Grace Hopper' });
    const invitee = await createAccount(server.services, { name: 'Ada Lovelace' });
    const asker = await createAccount(server.services, { name: 'Alan Turing' });
    await server.services.communities.create(owner.user, {
      slug: 'seabirds',
      metadata: { title: 'Seabird Monitoring', type: { id: 'organization' } },
      access: { visibility: 'public', member_policy: 'open' },
    });

    // The owner finds the members page from the community and invites Ada as a curator.
    await logIn(page, owner, '/communities/seabirds');
    await page
      .getByRole('link', { name: 'Manage members, invitations and requests to join' })
      .click();
    await expectPath(page, '/communities/seabirds/members');
    await page.getByRole('heading', { name: 'Members of Seabird Monitoring', level: 1 }).waitFor();
    await page.getByRole('cell', { name: 'Grace Hopper you', exact: true }).waitFor();
    expect(await axeViolations(page), '/communities/:slug/members').toEqual([]);
    await page.getByRole('tab', { name: 'Invitations' }).click();
    await page.getByRole('combobox', { name: 'Person' }).fill('ada');
    await page.getByRole('option', { name: 'Ada Lovelace' }).click();
    await page.getByRole('combobox', { name: 'Role', exact: true }).selectOption('Curator');
    await page.getByRole('textbox', { name: 'Message (optional)' }).fill('Would you help curate?');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('status').getByText('Ada Lovelace was invited.').waitFor();
    const invitations = page.getByRole('region', { name: 'Invitations' });
    await invitations.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    await invitations.getByText('Submitted').waitFor();
    expect(await axeViolations(page), 'the invitations tab').toEqual([]);

    // Ada finds the invitation through the header and accepts it.
    const adaTab = await openPage(browser, server.url);
    try {
      await logIn(adaTab.page, invitee, '/communities');
      await adaTab.page
        .getByRole('link', { name: 'Requests, 1 waiting for your decision' })
        .click();
      await adaTab.page
        .getByRole('link', { name: 'Invitation to join "Seabird Monitoring"' })
        .click();
      await adaTab.page
        .getByRole('heading', { name: 'Invitation to join "Seabird Monitoring"', level: 1 })
        .waitFor();
      await adaTab.page.getByText('Would you help curate?').waitFor();
      await adaTab.page.getByRole('link', { name: 'Seabird Monitoring' }).first().waitFor();
      await adaTab.page.getByRole('button', { name: 'Accept', exact: true }).click();
      const dialog = adaTab.page.getByRole('dialog');
      await dialog.getByText('Accept the invitation and join the community?').waitFor();
      await dialog.getByRole('button', { name: 'Accept', exact: true }).click();
      await adaTab.page.getByText('Ada Lovelace accepted this request', { exact: false }).waitFor();
      expect(adaTab.pageErrors).toEqual([]);
    } finally {
      await adaTab.context.close();
    }

    // Alan asks to join from the community page.
    const alanTab = await openPage(browser, server.url);
    try {
      await logIn(alanTab.page, asker, '/communities/seabirds');
      await alanTab.page.getByRole('button', { name: 'Ask to join' }).click();
      await alanTab.page
        .getByRole('textbox', { name: 'Why you would like to join (optional)' })
        .fill('I ring puffins on Skomer.');
      await alanTab.page.getByRole('button', { name: 'Send request' }).click();
      await alanTab.page
        .getByRole('heading', { name: 'Request to join "Seabird Monitoring"', level: 1 })
        .waitFor();
      expect(alanTab.pageErrors).toEqual([]);
    } finally {
      await alanTab.context.close();
    }

    // The owner chooses Alan's role and accepts him; Ada is a curator now.
    await page.reload();
    await page.getByRole('tab', { name: 'Requests to join' }).click();
    const requests = page.getByRole('region', { name: 'Requests to join' });
    await requests.getByRole('link', { name: 'Alan Turing' }).waitFor();
    await requests.getByRole('combobox', { name: 'Role of Alan Turing' }).selectOption('Manager');
    await expect
      .poll(
        () => requests.getByRole('combobox', { name: 'Role of Alan Turing' }).inputValue(),
        POLL,
      )
      .toBe('manager');
    await requests.getByRole('button', { name: 'Accept Alan Turing' }).click();
    await requests.getByText('Accepted').waitFor();
    expect(await axeViolations(page), 'the requests to join tab').toEqual([]);

    await page.getByRole('tab', { name: 'Members' }).click();
    const members = page.getByRole('table');
    await members.getByRole('cell', { name: 'Alan Turing', exact: true }).waitFor();
    const adaRole = members.getByRole('combobox', { name: 'Role of Ada Lovelace' });
    expect(await adaRole.inputValue()).toBe('curator');
    expect(await members.getByRole('combobox', { name: 'Role of Alan Turing' }).inputValue()).toBe(
      'manager',
    );
    // Ada becomes a reader; Alan is removed.
    await adaRole.selectOption('Reader');
    await expect.poll(() => adaRole.inputValue(), POLL).toBe('reader');
    page.once('dialog', (d) => void d.accept());
    await members.getByRole('button', { name: 'Remove Alan Turing' }).click();
    await expect
      .poll(() => members.getByRole('cell', { name: 'Alan Turing', exact: true }).count(), POLL)
      .toBe(0);
    await page.reload();
    await page.getByRole('cell', { name: 'Ada Lovelace', exact: true }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Role of Ada Lovelace' }).inputValue()).toBe(
      'reader',
    );
    expect(await page.getByRole('cell', { name: 'Alan Turing', exact: true }).count()).toBe(0);
  });
});
