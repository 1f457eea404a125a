import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { openPage } from './support/browser.js';
import { addCreator, publishFromEditor } from './support/deposit.js';
import {
  choose,
  combobox,
  draftIdOf,
  openNewUpload,
  reloadEditor,
  saveAndWait,
  textbox,
} from './support/editor.js';
import { logIn } from './support/journey.js';
import { createAccount } from './support/server.js';
import { expectPath, expectValue, test } from './support/test.js';

const REASON = 'Until the colony paper is out.';
let dir = '';

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-embargo-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/**
 * The 15th of the month after next, as the date picker names its day button ("15 March 2031"),
 * as the record stores it and as the landing page words it. The browser runs on UTC (support/browser.ts), as this does.
 */
function embargoDay(): { label: string; iso: string; text: string } {
  const now = new Date();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 15));
  const month = day.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' });
  return {
    label: `15 ${month} ${day.getUTCFullYear()}`,
    iso: day.toISOString().slice(0, 10),
    // As the landing page words it for an English reader: "March 15, 2031".
    text: `${month} 15, ${day.getUTCFullYear()}`,
  };
}

/** Picks files through the "Choose files" button, as a person does. */
async function chooseFile(page: Page, file: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose files' }).click();
  await (await chooser).setFiles(file);
}

function filesOnly(page: Page) {
  return page.getByRole('radiogroup', { name: 'Files only' });
}

describe('embargo journey', () => {
  test('restricted files under an embargo picked in the calendar stay closed to others until the date', async ({
    page,
    browser,
    server,
  }) => {
    const { label, iso, text } = embargoDay();
    const file = path.join(dir, 'colony-counts.csv');
    await fs.writeFile(file, 'colony,nests\nBass Rock,75000\nNoss,5500\n');
    const owner = await createAccount(server.services);
    await openNewUpload(page, owner);

    await choose(page, combobox(page, 'Resource type'), 'Dataset');
    await textbox(page, 'Title').fill('Gannet colony counts');
    await addCreator(page, 'Nelson', 'Bryan');
    await textbox(page, 'Publication date').fill('2024-05-01');
    await chooseFile(page, file);
    const id = await draftIdOf(page);
    await page
      .getByRole('row')
      .filter({ hasText: 'colony-counts.csv' })
      .getByText('100%')
      .waitFor({ timeout: 60_000 });

    // Public record, restricted files, then the embargo: its date chosen in the calendar.
    await filesOnly(page).getByRole('radio', { name: 'Restricted' }).check();
    await page.getByRole('checkbox', { name: 'Apply an embargo' }).check();
    const until = textbox(page, 'Embargo until');
    await until.click();
    await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('button', { name: label, exact: true }).click();
    await expectValue(until, iso);
    await textbox(page, 'Embargo reason').fill(REASON);
    expect(await axeViolations(page)).toEqual([]);
    await saveAndWait(page);

    // What was saved comes back after a reload.
    await reloadEditor(page);
    expect(await filesOnly(page).getByRole('radio', { name: 'Restricted' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Apply an embargo' }).isChecked()).toBe(true);
    await expectValue(textbox(page, 'Embargo until'), iso);
    await expectValue(textbox(page, 'Embargo reason'), REASON);
    await page.getByText('Embargoed (files-only)', { exact: true }).waitFor();

    await publishFromEditor(page);
    await expectPath(page, `/records/${id}`);

    // The landing page says the files are embargoed, until when and why; the owner has them.
    const article = page.getByRole('article');
    await article.getByText('Embargoed', { exact: true }).first().waitFor();
    await article.getByText(`The files will be public on ${text}.`).first().waitFor();
    await article.getByText(`Reason: ${REASON}`).first().waitFor();
    await article.getByRole('link', { name: 'colony-counts.csv', exact: true }).waitFor();

    // Someone else, in a browser of their own, sees the record and the embargo, not the files.
    const other = await openPage(browser, server.url);
    try {
      const reader = await createAccount(server.services);
      await logIn(other.page, reader, `/records/${id}`);
      const theirs = other.page.getByRole('article');
      await theirs.getByText('Files under embargo', { exact: true }).waitFor();
      await theirs.getByText(`The files will be public on ${text}.`).first().waitFor();
      expect(await theirs.getByRole('link', { name: 'colony-counts.csv' }).count()).toBe(0);
      const status = await other.page.evaluate(
        async (url) => (await fetch(url, { cache: 'no-store' })).status,
        `/api/records/${id}/files/colony-counts.csv/content`,
      );
      expect(status).toBe(403);
      expect(other.pageErrors).toEqual([]);
    } finally {
      await other.context.close();
    }

    // The owner still downloads them, whole.
    const own = await page.evaluate(async (url) => {
      const response = await fetch(url, { cache: 'no-store' });
      return { status: response.status, text: await response.text() };
    }, `/api/records/${id}/files/colony-counts.csv/content`);
    expect(own).toEqual({ status: 200, text: await fs.readFile(file, 'utf8') });
  });
});
