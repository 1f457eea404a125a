import { describe, expect } from 'vitest';
import { recipientsOf } from '../packages/server/src/test/smtp.js';
import { serverWithMail } from './support/mail.js';
import { axeViolations } from './support/axe.js';
import { openPage } from './support/browser.js';
import { apiAs, draftWithFile, logIn, type Api } from './support/journey.js';
import { createAccount, type TestServer } from './support/server.js';
import { POLL, test } from './support/test.js';

// The server sends its e-mail to a real SMTP server in this process: the guest follows its links.
const mailbox = serverWithMail();

const METADATA = {
  title: 'Puffin burrow occupancy',
  publication_date: '2025-06-01',
  resource_type: { id: 'dataset' },
  creators: [{ person_or_org: { type: 'personal', family_name: 'Hopper', given_name: 'Grace' } }],
};
const CONDITIONS = 'For non-commercial research only; cite the record.';

/** A published record whose files (counts.csv) are restricted, open to requests of both kinds. */
async function restrictedFiles(owner: Api): Promise<string> {
  const id = await draftWithFile(owner, METADATA, { record: 'public', files: 'restricted' });
  await owner('POST', `/api/records/${id}/draft/actions/publish`);
  await owner('PUT', `/api/records/${id}/access`, {
    allow_user_requests: true,
    allow_guest_requests: true,
    accept_conditions_text: `<p>${CONDITIONS}</p>`,
    secret_link_expiration: 30,
  });
  return id;
}

/** The path and query of the last link to `pattern` e-mailed to `address`. */
async function linkMailed(server: TestServer, address: string, pattern: RegExp): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(async () => {
      await server.services.mail.idle();
      const mail = mailbox()
        .received.filter((m) => recipientsOf(m).includes(address))
        .at(-1);
      found = mail?.text?.match(pattern)?.[0];
      return found;
    }, POLL)
    .toBeDefined();
  return new URL(found!).pathname + new URL(found!).search;
}

describe('access request journey', () => {
  test('a guest asks, confirms through the e-mail, the owner accepts in the inbox, and the guest downloads the file', async ({
    page,
    browser,
    server,
  }) => {
    const owner = await createAccount(server.services, { name: 'Grace Hopper' });
    const id = await restrictedFiles(await apiAs(server, owner));
    const guest = `guest-${Date.now()}@example.org`;

    // The guest finds the files closed, the owner's conditions and a form to ask.
    await page.goto(`/records/${id}`);
    const form = page.getByRole('region', { name: 'Request access to the files' });
    await form.getByText(CONDITIONS).waitFor();
    expect(await axeViolations(page), 'the request form').toEqual([]);
    await form.getByRole('textbox', { name: 'Your name' }).fill('Ada Guest');
    await form.getByRole('textbox', { name: 'Your e-mail address' }).fill(guest);
    await form.getByRole('textbox', { name: 'Message to the owner' }).fill('For my puffin thesis.');
    await form.getByRole('button', { name: 'Request access' }).click();
    await page.getByText('Check your e-mail').waitFor();
    expect(await axeViolations(page), 'check your e-mail').toEqual([]);

    // The e-mail's link confirms the address and sends the request.
    await page.goto(
      await linkMailed(server, guest, /https?:\/\/\S+\/access-requests\/verify\?token=\S+/),
    );
    await page.getByText('Thank you: your request was sent').waitFor();
    expect(await axeViolations(page), '/access-requests/verify').toEqual([]);

    // The owner decides in the inbox: accepted, with a link for five days.
    const ownerTab = await openPage(browser, server.url);
    try {
      await logIn(ownerTab.page, owner, '/me/requests');
      await ownerTab.page.getByRole('link', { name: METADATA.title }).first().click();
      await ownerTab.page.getByText('For my puffin thesis.').waitFor();
      await ownerTab.page.getByText(`Ada Guest <${guest}>`).waitFor();
      await ownerTab.page.getByRole('button', { name: 'Accept', exact: true }).click();
      const dialog = ownerTab.page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: /Days the guest's link lasts/ }).fill('5');
      expect(await axeViolations(ownerTab.page), 'accepting a guest').toEqual([]);
      await dialog.getByRole('button', { name: 'Accept', exact: true }).click();
      await ownerTab.page.getByText('accepted this request', { exact: false }).waitFor();
      expect(ownerTab.pageErrors).toEqual([]);
    } finally {
      await ownerTab.context.close();
    }

    // The guest's link opens the record with its files, and the file downloads.
    await page.goto(
      await linkMailed(server, guest, new RegExp(`https?://\\S+/records/${id}\\?token=\\S+`)),
    );
    const files = page.getByRole('region', { name: 'Files' });
    const file = files.getByRole('link', { name: /counts\.csv/ }).first();
    await file.waitFor(POLL);
    const href = await file.getAttribute('href');
    const download = await page.request.get(new URL(href!, server.url).toString());
    expect(download.status()).toBe(200);
    expect(await download.text()).toBe('site,count\nBass Rock,150000\nNoss,11000\n');
  });

  test("a signed-in reader's request, accepted, becomes a grant that opens the files", async ({
    page,
    server,
  }) => {
    const owner = await createAccount(server.services, { name: 'Grace Hopper' });
    const ownerApi = await apiAs(server, owner);
    const id = await restrictedFiles(ownerApi);
    const reader = await createAccount(server.services, { name: 'Alan Reader' });

    await logIn(page, reader, `/records/${id}`);
    const form = page.getByRole('region', { name: 'Request access to the files' });
    await form.getByText(CONDITIONS).waitFor();
    expect(await form.getByRole('textbox', { name: 'Your e-mail address' }).count()).toBe(0);
    await form.getByRole('textbox', { name: 'Message to the owner' }).fill('Comparing colonies.');
    await form.getByRole('button', { name: 'Request access' }).click();
    await page.getByText('Request sent').waitFor();
    expect(await axeViolations(page), 'request sent').toEqual([]);

    const inbox = await ownerApi('GET', '/api/user/requests?is_open=true&type=user-access-request');
    const request = inbox.hits.hits.find(
      (h: { topic?: { record?: string } }) => h.topic?.record === id,
    );
    await ownerApi('POST', `/api/requests/${request.id}/actions/accept`);
    const grants = await ownerApi('GET', `/api/records/${id}/access/users`);
    expect(grants.hits.hits).toEqual([
      {
        subject: { type: 'user', id: String(reader.user.id) },
        permission: 'view',
        origin: `request:${request.id}`,
      },
    ]);

    await page.goto(`/records/${id}`);
    await page.getByRole('region', { name: 'Files' }).getByText('counts.csv').first().waitFor();
    expect(await page.getByRole('region', { name: 'Request access to the files' }).count()).toBe(0);
  });
});
