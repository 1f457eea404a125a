import { describe, expect } from 'vitest';
import { recipientsOf } from '../packages/server/src/test/smtp.js';
import { serverWithMail } from './support/mail.js';
import { axeViolations } from './support/axe.js';
import { apiAs, logIn } from './support/journey.js';
import { createAccount, type TestServer } from './support/server.js';
import { POLL, test } from './support/test.js';

// The server sends its e-mail to a real SMTP server in this process.
const mailbox = serverWithMail();

/** A draft of the depositor's submitted for review to `community`; the messages it caused. */
async function submitDraft(
  server: TestServer,
  depositor: Awaited<ReturnType<typeof apiAs>>,
  community: string,
) {
  await server.services.mail.idle();
  const before = mailbox().received.length;
  const draft = await depositor('POST', '/api/records', {
    metadata: {
      title: 'Firn densities',
      publication_date: '2026-11-26',
      resource_type: { id: 'dataset' },
      creators: [
        { person_or_org: { type: 'personal', family_name: 'Curie', given_name: 'Marie' } },
      ],
    },
    files: { enabled: false },
  });
  const id = draft['id'] as string;
  await depositor('PUT', `/api/records/${id}/draft/review`, {
    type: 'community-submission',
    receiver: { community },
  });
  await depositor('POST', `/api/records/${id}/draft/actions/submit-review`);
  await server.services.mail.idle();
  return mailbox().received.slice(before);
}

describe('the account page', () => {
  test('a curator turns e-mail about requests off, and no more messages come', async ({
    page,
    server,
  }) => {
    const curator = await createAccount(server.services, { name: 'Kurt Curator' });
    const owner = await apiAs(server, curator);
    const depositor = await apiAs(server, await createAccount(server.services));
    const community = (
      await owner('POST', '/api/communities', {
        slug: 'firn',
        metadata: { title: 'Firn' },
        access: { review_policy: 'closed' },
      })
    )['id'] as string;

    const first = await submitDraft(server, depositor, community);
    expect(first.flatMap(recipientsOf)).toEqual([curator.email]);
    expect(first[0]!.subject).toBe('New submission to Firn: Firn densities');

    await logIn(page, curator, '/account/tokens');
    await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
    const email = page.getByRole('switch', { name: /^Send me e-mail about my requests/ });
    expect(await email.isChecked()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await email.click();
    await page.getByText('Saved: you will receive no e-mail.').waitFor(POLL);
    expect(await email.isChecked()).toBe(false);

    expect(await submitDraft(server, depositor, community)).toEqual([]);

    // The choice is kept with the account: a new page shows it.
    await page.reload();
    await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
    expect(await page.getByRole('switch', { name: /^Send me e-mail/ }).isChecked()).toBe(false);
  });
});
