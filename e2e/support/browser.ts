import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM } from '../global-setup.js';

// CI containers run as root (no sandbox) without a GPU; the other flags stop Chromium from
// calling Google's services (updates, sync, QUIC probes), so a run never needs the internet.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Below Vitest's test timeout, so a condition that never comes true fails with Playwright's
 * message naming the locator instead of a bare "test timed out".
 */
export const ACTION_TIMEOUT_MS = 15_000;

export const SCREENSHOT_DIR = path.join(os.tmpdir(), 'cairn-e2e-screenshots');

/** Debian's Chromium, headless; one per test file. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * Content-Security-Policy (and X-Frame-Options) refusals Chromium reported on the console of any
 * context `openPage` made since the last `takeCspViolations`: the page fixture fails a test that
 * caused one, since what the policy blocked is a broken page for real visitors.
 */
const cspViolations: string[] = [];

/**
 * Chromium words refusals "Refused to load …", "Refused to frame …" or "Executing inline script
 * violates the following Content Security Policy directive …", depending on what was refused.
 */
function isPolicyRefusal(text: string): boolean {
  return text.startsWith('Refused to') || text.includes('Content Security Policy');
}

/** The violations reported so far (emptied). */
export function takeCspViolations(): string[] {
  return cspViolations.splice(0);
}

export interface BrowserPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions in the page: a journey that throws is broken even if it looks right. */
  pageErrors: Error[];
  /** `console.error` output of the page, worth reading when a test failed. */
  consoleErrors: string[];
}

/**
 * A page in a fresh context (own cookies and storage, so every test starts logged out) whose
 * relative `goto` paths resolve against `baseURL`.
 */
export async function openPage(
  browser: Browser,
  baseURL: string,
  { locale = 'en-US' }: { locale?: string } = {},
): Promise<BrowserPage> {
  const context = await browser.newContext({
    baseURL,
    locale,
    timezoneId: 'UTC',
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  // Playwright cannot answer Chromium's File System Access pickers (no `filechooser` event), so
  // journeys choose files through the file inputs, as in browsers without them; a journey of
  // kept handles puts pickers of its own in their place.
  await context.addInitScript(() => {
    const pickers = window as { showOpenFilePicker?: unknown; showDirectoryPicker?: unknown };
    delete pickers.showOpenFilePicker;
    delete pickers.showDirectoryPicker;
  });
  // On the context: every tab and frame of it, including those a test opens itself.
  context.on('console', (message) => {
    if (isPolicyRefusal(message.text()))
      cspViolations.push(`${message.text()} (${message.location().url})`);
  });
  const page = await context.newPage();
  const pageErrors: Error[] = [];
  const consoleErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error));
  page.on('console', (message) => {
    // The location names the resource for network errors, whose text does not.
    if (message.type() === 'error')
      consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  return { context, page, pageErrors, consoleErrors };
}

/** Saves what the page showed when a test failed; returns the file written. */
export async function saveScreenshot(page: Page, testName: string): Promise<string> {
  await fs.mkdir(SCREENSHOT_DIR, { recursive: true });
  const slug = testName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 100);
  const file = path.join(SCREENSHOT_DIR, `${slug}-${Date.now()}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
