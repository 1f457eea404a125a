import { chromium } from 'playwright-core';

/**
 * @typedef {import('playwright-core').Browser} Browser
 */

export const CHROMIUM = process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium';

/** Headless Chromium as the browser benchmarks drive it. */
export function launchChromium() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}

/**
 * Logs in through the login page once; every measured load reuses the session cookie.
 * @param {Browser} browser
 * @param {string} baseUrl
 * @param {string} email
 * @param {string} password
 */
export async function logIn(browser, baseUrl, email, password) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/login`);
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    return await context.storageState();
  } finally {
    await context.close();
  }
}
