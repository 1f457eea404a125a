import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { apiAs, draftWithFile } from './support/journey.js';
import { createAccount } from './support/server.js';
import { logIn, test } from './support/test.js';

/** The files the page's head tells the browser to preload, by the tag's kind. */
async function preloadedFiles(page: Page) {
  return page.evaluate(() => {
    const hrefs = (selector: string) =>
      [...document.head.querySelectorAll<HTMLLinkElement>(selector)].map((l) => l.href);
    return {
      scripts: hrefs('link[rel="modulepreload"]'),
      styles: hrefs('link[rel="preload"][as="style"]'),
      stylesheets: hrefs('link[rel="stylesheet"]'),
      fetched: performance.getEntriesByType('resource').map((entry) => entry.name),
    };
  });
}

describe('page chunks', () => {
  test('a page whose code cannot be fetched shows the error page, and loads once it can', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services);
    await logIn(page, account, '/me/uploads');

    // As after a release that replaced the chunk, or with the network gone.
    await page.route(/\/assets\/DepositPage-[^/]+\.js$/, (route) => route.abort());
    await page.goto('/uploads/new');
    await page.getByText('Something went wrong').waitFor();
    await page
      .getByText('This page could not be shown. Please reload it or try again later.')
      .waitFor();

    await page.unroute(/\/assets\/DepositPage-[^/]+\.js$/);
    await page.reload();
    await page.getByRole('heading', { name: 'New upload', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Title', exact: true }).waitFor();
  });

  test("the browser fetches each page's preloaded chunks and stylesheets once, and uses them", async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services);
    const id = await draftWithFile(await apiAs(server, account), {
      title: 'Gannet colony counts',
      publication_date: '2024-05-01',
      resource_type: { id: 'dataset' },
      creators: [
        { person_or_org: { type: 'personal', family_name: 'Lovelace', given_name: 'Ada' } },
      ],
    });
    await logIn(page, account, '/me/uploads');

    await page.goto('/uploads/new');
    await page.getByRole('textbox', { name: 'Title', exact: true }).waitFor();
    // Code the form loads once the browser is idle (the dropzone) is preloaded by Vite's loader
    // then: wait until its preload is in the head and every preload there has had its fetch. A
    // resource is listed once its fetch ends, which can be after the link is in the head and the
    // network went quiet; the snapshot checked below is the one that was complete.
    let deposit = await preloadedFiles(page);
    await expect
      .poll(async () => {
        deposit = await preloadedFiles(page);
        const { scripts, styles, fetched } = deposit;
        return {
          dropzone: scripts.some((href) => /\/assets\/FileDropzone-[^/]+\.js$/.test(href)),
          unfetched: [...scripts, ...styles].filter((href) => !fetched.includes(href)),
        };
      })
      .toEqual({ dropzone: true, unfetched: [] });
    expect(deposit.scripts.some((href) => /\/assets\/DepositPage-[^/]+\.js$/.test(href))).toBe(
      true,
    );
    // The deposit form's library chunk brings a stylesheet of its own (the dropzone's).
    expect(deposit.styles.length).toBeGreaterThan(0);
    for (const href of [...deposit.scripts, ...deposit.styles]) {
      // A second fetch would mean the preload went unused (e.g. its CORS mode did not match).
      expect(
        deposit.fetched.filter((name) => name === href),
        href,
      ).toHaveLength(1);
    }
    // Vite's loader linked the preloaded stylesheets when it imported the page.
    for (const href of deposit.styles) expect(deposit.stylesheets, href).toContain(href);

    await page.goto(`/records/${id}?preview=1`);
    await page.getByRole('heading', { name: 'Gannet colony counts', level: 1 }).waitFor();
    const landing = await preloadedFiles(page);
    expect(landing.scripts.some((href) => /\/assets\/RecordPage-[^/]+\.js$/.test(href))).toBe(true);
    expect(landing.scripts.some((href) => /\/assets\/DepositPage-/.test(href))).toBe(false);
    for (const href of landing.scripts) {
      expect(
        landing.fetched.filter((name) => name === href),
        href,
      ).toHaveLength(1);
    }
  });
});
