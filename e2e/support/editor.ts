import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { loadVocabularySamples } from '../../packages/server/src/modules/vocabularies/indexed/import/samples.js';
import { addCreator, DRAFT_PATH } from './deposit.js';
import type { TestAccount, TestServer } from './server.js';
import { expectPath, expectValue, logIn, POLL } from './test.js';

/*
 * What the editor journeys share: finding the editor's widgets the way a person names them, and
 * choosing from its lists. Each helper waits on the page's state, never on time.
 */

type Scope = Page | Locator;

/** A text input by its accessible name (the required marker " *" is not part of it). */
export function textbox(scope: Scope, name: string): Locator {
  return scope.getByRole('textbox', { name, exact: true });
}

export function combobox(scope: Scope, name: string): Locator {
  return scope.getByRole('combobox', { name, exact: true });
}

/** One row of a repeatable field, a group named like "Date 1". */
export function row(page: Page, name: string): Locator {
  return page.getByRole('group', { name, exact: true });
}

export function dialog(page: Page, name: string): Locator {
  return page.getByRole('dialog', { name, exact: true });
}

/**
 * Chooses `option` from a select by clicking it open, optionally typing `search` first (the
 * server-searched lists offer nothing before that), and waits for the select to show it.
 */
export async function choose(
  page: Page,
  select: Locator,
  option: string,
  { search, shown = option }: { search?: string; shown?: string } = {},
): Promise<void> {
  await select.click();
  if (search !== undefined) await select.fill(search);
  // In the open list: the header's language choice has options of its own ("English").
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  await expectValue(select, shown);
}

/**
 * Types into a rich-text editor (ProseMirror: a contenteditable named by its label), with
 * `bold` written between Ctrl+B presses, as a person formats while typing.
 */
export async function typeRichText(
  editor: Locator,
  parts: ReadonlyArray<string | { bold: string }>,
): Promise<void> {
  await editor.click();
  const page = editor.page();
  for (const part of parts) {
    if (typeof part === 'string') {
      await page.keyboard.type(part);
    } else {
      await page.keyboard.press('Control+b');
      await page.keyboard.type(part.bold);
      await page.keyboard.press('Control+b');
    }
  }
}

/** The inner HTML of a rich-text editor, as the person's formatting left it. */
export async function richTextHtml(editor: Locator): Promise<string> {
  // Away from the screen the field shows its text read-only, and brings its editor once near:
  // look at it, as a reader would. Until the editor is there, there is no HTML to compare.
  await editor.scrollIntoViewIfNeeded();
  return editor.evaluate((element) =>
    element.getAttribute('aria-busy') === 'true' ? '' : element.innerHTML,
  );
}

/** Logs `account` in and opens a new upload in the editor. */
export async function openNewUpload(page: Page, account: TestAccount): Promise<void> {
  await logIn(page, account, '/uploads/new');
  await page.getByRole('heading', { name: 'New upload', level: 1 }).waitFor();
}

/** Waits for the draft's own address after its first save and returns its id. */
export async function draftIdOf(page: Page): Promise<string> {
  await expectPath(page, DRAFT_PATH);
  const id = new URL(page.url()).pathname.split('/').pop();
  if (!id) throw new Error(`No draft id in ${page.url()}`);
  return decodeURIComponent(id);
}

/** The banner's "Record successfully saved.", which each save announces afresh. */
export async function saveAndWait(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('status').getByText('Record successfully saved.').waitFor();
}

/** Reloads the editor and waits until the form holds the stored draft. */
export async function reloadEditor(page: Page): Promise<void> {
  await page.reload();
  await page.getByRole('heading', { name: 'Edit upload', level: 1 }).waitFor();
}

/**
 * The editor's status header: its badge and explanation (e.g. "In review" with "Community
 * curators will review your upload…").
 */
export async function expectStatus(page: Page, title: string, message: string): Promise<void> {
  const header = page.getByRole('region', { name: title, exact: true });
  await header.getByText(message, { exact: true }).waitFor();
}

/**
 * Loads the sample people, organisations, funders, awards and subjects that a site imports from
 * ROR, ORCID and MeSH dumps, so the editor's searches find real entries.
 */
export async function loadSampleVocabularies(server: TestServer): Promise<void> {
  await loadVocabularySamples(server.services.vocabularyItems);
}

/** Polls `read` until it yields `expected` (deep equality): for state the server changes. */
export async function expectEventually<T>(read: () => Promise<T>, expected: T): Promise<void> {
  await expect.poll(read, POLL).toEqual(expected);
}

/**
 * Fills what a draft needs to be published (title, a creator, date, resource type) and makes it
 * metadata-only, so journeys about something else need no files.
 */
export async function fillPublishableDraft(page: Page, title: string): Promise<void> {
  await choose(page, combobox(page, 'Resource type'), 'Dataset');
  await textbox(page, 'Title').fill(title);
  await addCreator(page, 'Lovelace', 'Ada');
  await textbox(page, 'Publication date').fill('2024-05-01');
  await page.getByRole('checkbox', { name: 'Metadata-only record' }).check();
}

/** A public community owned by `owner`, made through the service as a site would seed it. */
export async function createCommunity(
  server: TestServer,
  owner: TestAccount,
  community: { slug: string; title: string; reviewPolicy: 'closed' | 'open' },
): Promise<void> {
  await server.services.communities.create(owner.user, {
    slug: community.slug,
    metadata: { title: community.title, type: { id: 'organization' } },
    access: { visibility: 'public', review_policy: community.reviewPolicy },
  });
}

/** Picks `title` in the community bar's picker and waits for the bar to show it. */
export async function pickCommunity(page: Page, title: string): Promise<void> {
  const bar = page.getByRole('region', { name: 'Community' });
  await bar.getByRole('button', { name: 'Select a community', exact: true }).click();
  const picker = dialog(page, 'Select a community');
  await picker.getByRole('button', { name: `Select ${title}`, exact: true }).click();
  await picker.waitFor({ state: 'detached' });
  await bar.getByText(title, { exact: true }).waitFor();
}
