import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { openPage } from './support/browser.js';
import { apiAs, logIn } from './support/journey.js';
import { createAccount, type TestAccount } from './support/server.js';
import { expectPath, POLL, test } from './support/test.js';

/** Logs in through the German login page, as a person whose browser asks for German does. */
async function logInGerman(page: Page, account: TestAccount, next: string): Promise<void> {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByRole('textbox', { name: 'E-Mail', exact: true }).fill(account.email);
  await page.getByRole('textbox', { name: 'Passwort', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Anmelden' }).last().click();
  await expectPath(page, next);
}

describe('the site in German', () => {
  test('a German reader sees dates, numbers, sizes and the resource type in German, each concept under one name', async ({
    browser,
    server,
  }) => {
    const account = await createAccount(server.services, { name: 'Ada Lovelace' });
    const api = await apiAs(server, account);
    const draft = await api('POST', '/api/records', {
      metadata: {
        title: 'Basstölpel-Zählungen',
        publication_date: '2026-11-26',
        resource_type: { id: 'publication-section' },
        creators: [
          { person_or_org: { type: 'personal', family_name: 'Lovelace', given_name: 'Ada' } },
        ],
        dates: [{ date: '2020-05', type: { id: 'collected' } }],
        identifiers: [{ identifier: 'https://example.org/gannets', scheme: 'url' }],
      },
      custom_fields: { 'imprint:imprint': { title: 'Seevögel der Nordsee', pages: '12–34' } },
      files: { enabled: true },
    });
    const id = draft['id'] as string;
    const content = 'Kolonie,Paare\nBass Rock,150000\n';
    await api('POST', `/api/records/${id}/draft/files`, [{ key: 'counts.csv' }]);
    await api(
      'PUT',
      `/api/records/${id}/draft/files/counts.csv/content`,
      content,
      'application/octet-stream',
    );
    await api('POST', `/api/records/${id}/draft/files/counts.csv/commit`);
    await api('POST', `/api/records/${id}/draft/actions/publish`);

    const { context, page, pageErrors } = await openPage(browser, server.url, { locale: 'de-DE' });
    try {
      await page.goto(`/records/${id}`);
      const article = page.getByRole('article');
      await article.getByRole('heading', { name: 'Basstölpel-Zählungen', level: 1 }).waitFor();
      await article.getByText('Veröffentlicht 26. November 2026', { exact: true }).waitFor();
      await article.getByText('Buchkapitel', { exact: true }).waitFor();
      await article.getByText('Mai 2020 (Erhoben)', { exact: true }).waitFor();
      await article.getByText('Erschienen in', { exact: true }).waitFor();
      await article.getByText('Alternative Kennungen', { exact: true }).waitFor();
      const files = page.getByRole('region', { name: 'Dateien' });
      await files.getByText(`1 Datei, ${content.length} Byte`, { exact: true }).waitFor();
      expect(await page.getByText('Impressum').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      // The uploader's storage line, on a new upload.
      await logInGerman(page, account, '/uploads/new');
      await page.getByText('0 Byte von 10 GB', { exact: true }).waitFor();
      await page.getByRole('link', { name: 'Alternative Kennungen' }).waitFor();
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('the header switches the language, remembered in a cookie and, for a signed-in person, with their account', async ({
    page,
    browser,
    server,
  }) => {
    const account = await createAccount(server.services);
    const header = page.getByRole('banner');
    const savedLanguage = async () =>
      ((await (await page.request.get('/api/user/preferences')).json()) as { locale: unknown })
        .locale;

    // Anonymous, in an English browser: the choice shows at once and outlives a reload.
    await page.goto('/');
    await header.getByRole('link', { name: 'New upload' }).waitFor();
    await header.getByRole('combobox', { name: 'Language' }).selectOption('Deutsch');
    await header.getByRole('link', { name: 'Neuer Upload' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await axeViolations(page)).toEqual([]);
    await page.reload();
    await header.getByRole('link', { name: 'Neuer Upload' }).waitFor();
    const cookies = await page.context().cookies();
    expect(cookies.find((cookie) => cookie.name === 'cairn_language')?.value).toBe('de');

    // Signed in, the choice goes with the account too.
    await logInGerman(page, account, '/me/uploads');
    await header.getByRole('combobox', { name: 'Sprache' }).selectOption('English');
    await header.getByRole('link', { name: 'New upload' }).waitFor();
    await expect.poll(savedLanguage, POLL).toBe('en');
    await header.getByRole('combobox', { name: 'Language' }).selectOption('Deutsch');
    await header.getByRole('link', { name: 'Neuer Upload' }).waitFor();
    await expect.poll(savedLanguage, POLL).toBe('de');

    // Another browser, English and without the cookie: signing in brings the account's German.
    const other = await openPage(browser, server.url);
    try {
      await logIn(other.page, account, '/me/uploads');
      await other.page.getByRole('banner').getByRole('link', { name: 'Neuer Upload' }).waitFor();
      expect(other.pageErrors).toEqual([]);
    } finally {
      await other.context.close();
    }
  });
});
