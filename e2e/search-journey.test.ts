import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { apiAs, type Api } from './support/journey.js';
import { createAccount } from './support/server.js';
import { expectPath, POLL, test } from './support/test.js';

/** A published record made through the API; returns its id. */
async function publish(
  api: Api,
  title: string,
  resourceType: string,
  description: string,
): Promise<string> {
  const draft = await api('POST', '/api/records', {
    metadata: {
      title,
      description,
      publication_date: '2024-05-01',
      resource_type: { id: resourceType },
      creators: ['Lovelace, Ada', 'Hopper, Grace', 'Noether, Emmy', 'Curie, Marie'].map((name) => {
        const [family_name, given_name] = name.split(', ');
        return { person_or_org: { type: 'personal', family_name, given_name } };
      }),
    },
    files: { enabled: false },
  });
  const id = draft.id as string;
  await api('POST', `/api/records/${id}/draft/actions/publish`);
  return id;
}

describe('a reader searching the records', () => {
  test('arrives at the home page, searches, narrows by a facet, goes Back and opens a result', async ({
    page,
    server,
  }) => {
    const api = await apiAs(server, await createAccount(server.services));
    const glacierData = await publish(
      api,
      'Glacier mass balance of the Alps',
      'dataset',
      '<p>Annual <strong>glacier</strong> mass balance, 1990–2020.</p>',
    );
    await publish(api, 'Glacier melt model', 'software', '<p>Simulates glacier melt.</p>');
    await publish(api, 'Puffin burrow counts', 'dataset', '<p>Burrows on Skomer.</p>');
    await api('POST', '/api/communities', {
      slug: 'ice',
      metadata: { title: 'Ice and Snow' },
      access: { visibility: 'public', record_submission_policy: 'open', review_policy: 'closed' },
    });

    // The home page: latest records and communities, for a visitor.
    await page.goto('/');
    await page.getByRole('heading', { name: 'Welcome to Cairn', level: 1 }).waitFor();
    const latest = page.getByRole('region', { name: 'Latest records' });
    await latest.getByRole('link', { name: 'Puffin burrow counts' }).waitFor();
    expect(await latest.getByRole('listitem').count()).toBe(3);
    await page
      .getByRole('region', { name: 'Communities' })
      .getByRole('link', { name: 'Ice and Snow' })
      .waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Sign up' }).waitFor();
    expect(await axeViolations(page), '/').toEqual([]);

    // Search from the home page, with the keyboard.
    await page.getByRole('textbox', { name: 'Search records' }).fill('glacier');
    await page.keyboard.press('Enter');
    await expectPath(page, '/search?q=glacier');
    const results = page.getByRole('region', { name: 'Results' });
    await results.getByText('2 results').waitFor();
    const first = results.getByRole('listitem').filter({ hasText: 'Glacier mass balance' });
    await first.getByText('Lovelace, Ada; Hopper, Grace; Noether, Emmy et al.').waitFor();
    expect(await first.locator('mark').allTextContents()).toEqual(['Glacier', 'glacier']);
    expect(await axeViolations(page), '/search?q=glacier').toEqual([]);

    // The syntax help opens from the keyboard and closes with Escape.
    await page.getByRole('button', { name: 'Search syntax' }).focus();
    await page.keyboard.press('Enter');
    const help = page.getByRole('dialog', { name: 'How to search' });
    await help.getByText('metadata.publication_date:[2019 TO 2021]').waitFor();
    expect(await axeViolations(page), 'syntax help').toEqual([]);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });

    // Tick a facet with the keyboard: the address and the results follow.
    const facets = page.getByRole('region', { name: 'Narrow your search' });
    // Its count is the server's to get right (records.search.test.ts); the page shows what it says.
    const dataset = facets
      .getByRole('group', { name: 'Resource type' })
      .getByRole('checkbox', { name: /^Dataset \(\d+\)$/ });
    await dataset.focus();
    await page.keyboard.press('Space');
    await expectPath(page, '/search?q=glacier&resource_type=dataset');
    await results.getByText('1 result', { exact: true }).waitFor();
    expect(await results.getByRole('listitem').count()).toBe(1);
    await expect.poll(() => dataset.isChecked(), POLL).toBe(true);

    // Back: the search before the facet, unticked.
    await page.goBack();
    await expectPath(page, '/search?q=glacier');
    await results.getByText('2 results').waitFor();
    await expect.poll(() => dataset.isChecked(), POLL).toBe(false);

    // Open a result.
    await results.getByRole('link', { name: 'Glacier mass balance of the Alps' }).click();
    await expectPath(page, `/records/${glacierData}`);
    await page
      .getByRole('heading', { name: 'Glacier mass balance of the Alps', level: 1 })
      .waitFor();
  });
});
