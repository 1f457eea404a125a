import type { Locator, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { addCreator, DRAFT_PATH, publishFromEditor } from './support/deposit.js';
import { createAccount } from './support/server.js';
import { expectPath, expectValue, test } from './support/test.js';

interface DraftInput {
  title: string;
  familyName: string;
  givenNames: string;
  publicationDate: string;
  /** The option's label as the list shows it; omitted leaves the resource type empty. */
  resourceType?: string;
}

/**
 * A text input by its accessible name. By role rather than by label: the label's text ends in the
 * required marker " *", which is hidden from assistive technology and so from the name.
 */
function field(page: Page, name: string): Locator {
  return page.getByRole('textbox', { name, exact: true });
}

function resourceTypeSelect(page: Page): Locator {
  return page.getByRole('combobox', { name: 'Resource type', exact: true });
}

/** The text announced with an input (its help and its error), as a screen reader reads it. */
function descriptionOf(locator: Locator): Promise<string> {
  return locator.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
      .join(' ')
      .trim(),
  );
}

/** The creators list's row of `name`, as "Family, Given". */
function creatorRow(page: Page, name: string): Locator {
  return page.getByRole('listitem').filter({ hasText: name });
}

async function fillDraft(page: Page, draft: DraftInput): Promise<void> {
  await field(page, 'Title').fill(draft.title);
  // Leaving the title may show its message and move what is below; leave it before clicking on.
  await field(page, 'Title').blur();
  await addCreator(page, draft.familyName, draft.givenNames);
  // A new upload starts with today's date; fill() replaces it.
  await field(page, 'Publication date').fill(draft.publicationDate);
  if (draft.resourceType !== undefined) {
    await resourceTypeSelect(page).click();
    await page.getByRole('option', { name: draft.resourceType, exact: true }).click();
    await expectValue(resourceTypeSelect(page), draft.resourceType);
  }
}

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** The id in `/uploads/<id>`, once the first save has put it into the address. */
async function draftIdOf(page: Page): Promise<string> {
  await expectPath(page, DRAFT_PATH);
  const id = new URL(page.url()).pathname.split('/').pop();
  if (!id) throw new Error(`No draft id in ${page.url()}`);
  return decodeURIComponent(id);
}

describe('deposit journey', () => {
  test('a new person signs up, saves a draft, finds it intact after a reload and publishes it', async ({
    page,
  }) => {
    await page.goto('/signup');
    await field(page, 'Name').fill('Ada Lovelace');
    await field(page, 'Email').fill('ada.lovelace@cairn.test');
    await field(page, 'Password').fill('analytical-engine');
    await page.getByRole('button', { name: 'Sign up' }).click();

    await expectPath(page, '/me/uploads');
    await page.getByText('Signed in as Ada Lovelace').waitFor();

    await page.goto('/uploads/new');
    await page.getByRole('heading', { name: 'New upload', level: 1 }).waitFor();
    const draft = {
      title: 'Notes on the Analytical Engine',
      familyName: 'Lovelace',
      givenNames: 'Ada',
      publicationDate: '1843-09-05',
      resourceType: 'Dataset',
    };
    await fillDraft(page, draft);
    // Without files the record is published as metadata-only.
    await page.getByRole('checkbox', { name: 'Metadata-only record' }).check();
    await page.getByRole('button', { name: 'Save' }).click();

    await page.getByRole('status').getByText('Record successfully saved.').waitFor();
    const id = await draftIdOf(page);

    await page.reload();
    await page.getByRole('heading', { name: 'Edit upload', level: 1 }).waitFor();
    await expectValue(field(page, 'Title'), draft.title);
    await creatorRow(page, `${draft.familyName}, ${draft.givenNames}`).waitFor();
    await expectValue(field(page, 'Publication date'), draft.publicationDate);
    await expectValue(resourceTypeSelect(page), draft.resourceType);

    await publishFromEditor(page);

    await expectPath(page, `/records/${id}`);
    await page.getByRole('heading', { name: draft.title, level: 1 }).waitFor();
    await page.getByRole('listitem').getByText('Lovelace, Ada', { exact: true }).waitFor();
    await page.getByText('Published September 5, 1843', { exact: true }).waitFor();
    await page.getByText('Dataset', { exact: true }).waitFor();
  });

  test('a person logs out and logs in again', async ({ page, server }) => {
    const account = await createAccount(server.services);
    await page.goto('/login');
    await logIn(page, account.email, account.password);
    await expectPath(page, '/me/uploads');
    await page.getByText(`Signed in as ${account.name}`).waitFor();

    await page.getByRole('link', { name: 'Log out' }).click();

    // Signed out, the person is back on the home page, which offers to log in again.
    await expectPath(page, '/');
    expect(await page.getByText(`Signed in as ${account.name}`).count()).toBe(0);
    await page.getByRole('banner').getByRole('link', { name: 'Log in' }).click();
    await expectPath(page, '/login?next=%2F');

    // Logging in again comes back to the page the person left from.
    await logIn(page, account.email, account.password);
    await expectPath(page, '/');
    await page.getByText(`Signed in as ${account.name}`).waitFor();
  });

  test('a new upload asks to log in first and comes back to the form afterwards', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services);
    await page.goto('/uploads/new');

    await expectPath(page, '/login?next=%2Fuploads%2Fnew');
    await logIn(page, account.email, account.password);

    await expectPath(page, '/uploads/new');
    await page.getByRole('heading', { name: 'New upload', level: 1 }).waitFor();
  });

  test('a save with a too short title keeps the typed title and says what is wrong with it', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services);
    await page.goto('/login?next=%2Fuploads%2Fnew');
    await logIn(page, account.email, account.password);
    await page.getByRole('heading', { name: 'New upload', level: 1 }).waitFor();

    await fillDraft(page, {
      title: 'Ab',
      familyName: 'Hopper',
      givenNames: 'Grace',
      publicationDate: '1952-05-01',
      resourceType: 'Software',
    });
    await page.getByRole('button', { name: 'Save' }).click();

    await page
      .getByRole('alert')
      .getByText('Record saved with validation feedback in', { exact: false })
      .waitFor();
    // Saved despite the feedback: the draft exists and has its own address.
    await draftIdOf(page);
    const title = field(page, 'Title');
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(title)).toContain('Shorter than minimum length 3.');
    await expectValue(title, 'Ab');
  });

  test('publishing a draft without a resource type is refused with the reason on the field', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services);
    await page.goto('/login?next=%2Fuploads%2Fnew');
    await logIn(page, account.email, account.password);
    await page.getByRole('heading', { name: 'New upload', level: 1 }).waitFor();

    await fillDraft(page, {
      title: 'A draft without a resource type',
      familyName: 'Hopper',
      givenNames: 'Grace',
      publicationDate: '1952-05-01',
    });
    // Publishing needs files or metadata-only; the missing resource type is what is tested here.
    await page.getByRole('checkbox', { name: 'Metadata-only record' }).check();
    await publishFromEditor(page);

    await page
      .getByRole('alert')
      .getByText('The draft was not published. Record saved with validation feedback in', {
        exact: false,
      })
      .waitFor();
    await draftIdOf(page);
    const resourceType = resourceTypeSelect(page);
    expect(await resourceType.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(resourceType)).toContain('Missing data for required field.');
    await expectValue(field(page, 'Title'), 'A draft without a resource type');
  });
});
