import type { Locator, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { apiAs, type Api } from './support/journey.js';
import { createAccount } from './support/server.js';
import { expectPath, POLL, test } from './support/test.js';

/**
 * A published record made through the API, into the community `into` when given (its owner, the
 * caller, includes it without review); returns its id.
 */
async function publish(
  api: Api,
  title: string,
  resourceType: string,
  description: string,
  into?: string,
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
  if (into === undefined) {
    await api('POST', `/api/records/${id}/draft/actions/publish`);
    return id;
  }
  await api('PUT', `/api/records/${id}/draft/review`, {
    type: 'community-submission',
    receiver: { community: into },
  });
  const review = await api('POST', `/api/records/${id}/draft/actions/submit-review`);
  expect(review.status).toBe('accepted');
  return id;
}

/**
 * Opens the query syntax help beside the search box in `scope` from the keyboard, finds `example`
 * in it, checks it with axe (as `label`) and closes it with Escape.
 */
async function checkSyntaxHelp(page: Page, scope: Page | Locator, example: string, label: string) {
  await scope.getByRole('button', { name: 'Search syntax' }).focus();
  await page.keyboard.press('Enter');
  const help = page.getByRole('dialog', { name: 'How to search' });
  await help.getByText(example).waitFor();
  expect(await axeViolations(page), label).toEqual([]);
  await page.keyboard.press('Escape');
  await help.waitFor({ state: 'hidden' });
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

    await checkSyntaxHelp(page, page, 'metadata.publication_date:[2019 TO 2021]', 'syntax help');

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

  test('opens a community, searches its records alone, narrows by a facet and goes Back', async ({
    page,
    server,
  }) => {
    const api = await apiAs(server, await createAccount(server.services));
    const community = await api('POST', '/api/communities', {
      slug: 'seabirds',
      metadata: { title: 'Seabird Monitoring' },
      access: { visibility: 'public', review_policy: 'open' },
    });
    const into = community.id as string;
    const counts = await publish(
      api,
      'Gannet colony counts',
      'dataset',
      '<p>Gannets on Bass Rock.</p>',
      into,
    );
    await publish(api, 'Gannet flight model', 'software', '<p>Simulates gannet flight.</p>', into);
    await publish(api, 'Kittiwake nest survey', 'dataset', '<p>Nests on Noss.</p>', into);
    // Outside the community: its page never finds it.
    await publish(api, 'Gannet diet samples', 'dataset', '<p>Fish in gannet pellets.</p>');

    // A visitor opens the community: its records, searched as on /search.
    await page.goto('/communities/seabirds');
    await page.getByRole('heading', { name: 'Seabird Monitoring', level: 1 }).waitFor();
    const records = page.getByRole('region', { name: 'Records' });
    const results = records.getByRole('region', { name: 'Results' });
    await results.getByText('3 results').waitFor();
    const facets = records.getByRole('region', { name: 'Narrow your search' });
    const types = facets.getByRole('group', { name: 'Resource type' });
    await types.waitFor();
    // The community is fixed here: not a filter to offer.
    expect(await facets.getByRole('group', { name: 'Community' }).count()).toBe(0);
    expect(await axeViolations(page), '/communities/seabirds').toEqual([]);

    // Search with the keyboard.
    const box = records.getByRole('textbox', { name: "Search this community's records" });
    await box.fill('gannet');
    await page.keyboard.press('Enter');
    await expectPath(page, '/communities/seabirds?q=gannet');
    await results.getByText('2 results').waitFor();
    await results.getByRole('link', { name: 'Gannet flight model' }).waitFor();
    expect(await results.getByRole('link', { name: 'Gannet diet samples' }).count()).toBe(0);

    await checkSyntaxHelp(page, records, 'glacier AND NOT arctic', 'syntax help on a community');

    // Tick a facet with the keyboard: the address and the results follow.
    const dataset = types.getByRole('checkbox', { name: /^Dataset \(\d+\)$/ });
    await dataset.focus();
    await page.keyboard.press('Space');
    await expectPath(page, '/communities/seabirds?q=gannet&resource_type=dataset');
    await results.getByText('1 result', { exact: true }).waitFor();
    await results.getByRole('link', { name: 'Gannet colony counts' }).waitFor();
    await expect.poll(() => dataset.isChecked(), POLL).toBe(true);
    expect(
      await axeViolations(page),
      '/communities/seabirds?q=gannet&resource_type=dataset',
    ).toEqual([]);

    // Back: the search before the facet, unticked; Forward: ticked again.
    await page.goBack();
    await expectPath(page, '/communities/seabirds?q=gannet');
    await results.getByText('2 results').waitFor();
    await expect.poll(() => dataset.isChecked(), POLL).toBe(false);
    await page.goForward();
    await expectPath(page, '/communities/seabirds?q=gannet&resource_type=dataset');
    await results.getByText('1 result', { exact: true }).waitFor();
    await expect.poll(() => dataset.isChecked(), POLL).toBe(true);

    // A query the server cannot parse: its message, at the box.
    await box.fill('"gannet colony');
    await page.keyboard.press('Enter');
    await expectPath(page, '/communities/seabirds?q=%22gannet+colony&resource_type=dataset');
    const alert = records.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(
      /^Your search could not be run: Invalid query string syntax\. .*character 1/,
    );
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page), 'refused query on a community').toEqual([]);

    // Back to the search that ran, and on to a result.
    await page.goBack();
    await expectPath(page, '/communities/seabirds?q=gannet&resource_type=dataset');
    await results.getByRole('link', { name: 'Gannet colony counts' }).click();
    await expectPath(page, `/records/${counts}`);
  });
});
