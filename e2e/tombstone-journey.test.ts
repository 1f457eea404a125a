import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { apiAs } from './support/journey.js';
import { createAccount } from './support/server.js';
import { test } from './support/test.js';

describe('a deleted record', () => {
  test('a reader following its address finds the tombstone: the reason, the date and how to cite it', async ({
    page,
    server,
  }) => {
    const owner = await apiAs(server, await createAccount(server.services));
    const created = await owner('POST', '/api/records', {
      metadata: {
        title: 'Kittiwake nest survey',
        publication_date: '2024-05-01',
        resource_type: { id: 'dataset' },
        creators: [{ person_or_org: { type: 'personal', family_name: 'Doe', given_name: 'Jo' } }],
      },
      files: { enabled: false },
    });
    const id = created.id as string;
    await owner('POST', `/api/records/${id}/draft/actions/publish`);
    const adminUser = await server.services.users.createUser({
      email: `admin-${process.pid}@cairn.test`,
      password: 'correct horse battery staple',
      name: 'Admin',
      isAdmin: true,
    });
    const admin = await apiAs(server, {
      user: adminUser,
      email: adminUser.email,
      password: '',
      name: 'Admin',
    });
    await admin('DELETE', `/api/records/${id}/delete`, {
      removal_reason: { id: 'retracted' },
      note: 'Withdrawn by the authors after an error in the counts.',
    });

    const response = await page.goto(`${server.url}/records/${id}`);
    expect(response?.status()).toBe(410);
    await page.getByRole('heading', { name: 'This record was removed', level: 1 }).waitFor();
    await page.getByText('Retracted', { exact: true }).waitFor();
    await page.getByText('Withdrawn by the authors after an error in the counts.').waitFor();
    // With no citation given, the tombstone cites the record by its creators, year and title.
    await page.getByText('Doe (2024): Kittiwake nest survey').waitFor();
    expect(await page.getByText('Removed on').count()).toBe(1);
    expect(await axeViolations(page), '/records/:id (deleted)').toEqual([]);
    await page.getByRole('link', { name: 'Search the repository' }).click();
    await page.waitForURL(/\/search$/);
  });
});
