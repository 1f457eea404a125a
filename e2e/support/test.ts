import type { Locator, Page } from 'playwright-core';
import { expect, test as base } from 'vitest';
import {
  ACTION_TIMEOUT_MS,
  launchBrowser,
  openPage,
  saveScreenshot,
  takeCspViolations,
} from './browser.js';
import { startServer, type TestAccount } from './server.js';

/**
 * Vitest's `test` with the fixtures every journey needs, as in Playwright Test: `server` (the
 * real app, one per file), `browser` (one Chromium for all the files of a worker, as Playwright
 * Test keeps one per worker: each test's page is a context of its own, with its own cookies,
 * storage and cache) and `page` (a fresh context per test, photographed under /tmp when the test
 * fails). Launching and closing Chromium took about a second a file.
 */
export const test = base
  // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from this pattern.
  .extend('server', { scope: 'file' }, async ({}, { onCleanup }) => {
    const server = await startServer();
    onCleanup(() => server.close());
    return server;
  })
  // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from this pattern.
  .extend('browser', { scope: 'worker' }, async ({}, { onCleanup }) => {
    const browser = await launchBrowser();
    onCleanup(() => browser.close());
    return browser;
  })
  .extend('page', async ({ browser, server, task }, { onCleanup }) => {
    const { context, page, pageErrors, consoleErrors } = await openPage(browser, server.url);
    onCleanup(async () => {
      // Cleanups run after Vitest has recorded the test's outcome.
      if (task.result?.state === 'fail') {
        // A crashed page cannot be photographed; the test's own error still says what failed.
        const screenshot = await saveScreenshot(page, task.fullName).catch(
          (error: unknown) => `none (${String(error)})`,
        );
        const log = consoleErrors.length ? `\nConsole errors:\n${consoleErrors.join('\n')}` : '';
        console.error(
          `"${task.fullName}" failed at ${page.url()}; screenshot: ${screenshot}${log}`,
        );
      }
      await context.close();
      const violations = takeCspViolations();
      if (violations.length > 0) {
        throw new Error(
          `The Content-Security-Policy refused ${violations.length} thing(s):\n` +
            violations.join('\n'),
        );
      }
      if (pageErrors.length > 0) {
        throw new Error(
          `The page threw ${pageErrors.length} uncaught error(s):\n` +
            pageErrors.map((error) => error.stack ?? error.message).join('\n'),
        );
      }
    });
    return page;
  });

/** How long a journey waits for the page to settle: the machines are shared and loaded. */
export const POLL = { timeout: ACTION_TIMEOUT_MS, interval: 50 };

/**
 * Waits for an input to hold `expected`. playwright-core has no web-first assertions (those
 * come with @playwright/test), so the value is polled.
 */
export async function expectValue(locator: Locator, expected: string): Promise<void> {
  await expect.poll(() => locator.inputValue(), POLL).toBe(expected);
}

/** Waits for the page's address to be `expected` (path and query, without the origin). */
export async function expectPath(page: Page, expected: string | RegExp): Promise<void> {
  const current = () => {
    const url = new URL(page.url());
    return url.pathname + url.search;
  };
  if (typeof expected === 'string') await expect.poll(current, POLL).toBe(expected);
  else await expect.poll(current, POLL).toMatch(expected);
}

/** Logs `account` in through the login page, which then goes on to `next`. */
export async function logIn(page: Page, account: TestAccount, next: string): Promise<void> {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expectPath(page, next);
}
