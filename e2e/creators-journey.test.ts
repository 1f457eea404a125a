import type { Locator, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { creatorRowNames, DRAFT_PATH } from './support/deposit.js';
import { apiAs, logIn } from './support/journey.js';
import { createAccount } from './support/server.js';
import { expectPath, expectValue, POLL, test } from './support/test.js';

function field(scope: Page | Locator, name: string): Locator {
  return scope.getByRole('textbox', { name, exact: true });
}

async function addPerson(page: Page, family: string, given: string): Promise<void> {
  await page.getByRole('button', { name: 'Add creator', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add creator' });
  await field(dialog, 'Family name').fill(family);
  await field(dialog, 'Given names').fill(given);
  // Enter in a field saves the dialog, not the deposit form.
  await field(dialog, 'Given names').press('Enter');
  await dialog.waitFor({ state: 'hidden' });
}

describe('creators journey', () => {
  test('creators are added in the dialog, reordered by keyboard and kept in order after a save', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services);
    await page.goto('/login?next=%2Fuploads%2Fnew');
    await field(page, 'Email').fill(account.email);
    await field(page, 'Password').fill(account.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'New upload', level: 1 }).waitFor();
    await field(page, 'Title').fill('Keyboard-ordered creators');

    await page.getByRole('button', { name: 'Add creator', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add creator' });
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByText('Family name is a required field.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await addPerson(page, 'Lovelace', 'Ada');
    await addPerson(page, 'Hopper', 'Grace');
    await addPerson(page, 'Hamilton', 'Margaret');
    expect(await creatorRowNames(page)).toEqual([
      'Lovelace, Ada',
      'Hopper, Grace',
      'Hamilton, Margaret',
    ]);

    // dnd-kit's keyboard sensor: space picks up, arrows move, space drops.
    await page.getByRole('button', { name: 'Reorder Hamilton, Margaret' }).focus();
    const announced = () =>
      page.evaluate(() => [...document.querySelectorAll('[aria-live]')].map((e) => e.textContent));
    // As a screen-reader user would: each key once the last one's announcement has been made.
    await page.keyboard.press('Space');
    for (const position of [3, 2, 1]) {
      if (position < 3) await page.keyboard.press('ArrowUp');
      await expect
        .poll(announced, POLL)
        .toContain(`Hamilton, Margaret is over position ${position} of 3.`);
      // dnd-kit's keyboard sensor listens for arrows only from a timer set at pick-up, and
      // Chromium runs input before timers: on a loaded machine an arrow could arrive first and
      // be lost. A timer set now runs after that one, so the next key is heard.
      if (position === 3) await page.evaluate(() => new Promise((done) => setTimeout(done, 0)));
    }
    await page.keyboard.press('Space');
    await expect
      .poll(announced, POLL)
      .toContain('Hamilton, Margaret was dropped at position 1 of 3.');
    await expect
      .poll(() => creatorRowNames(page), POLL)
      .toEqual(['Hamilton, Margaret', 'Lovelace, Ada', 'Hopper, Grace']);

    // And the explicit buttons, by keyboard too.
    await page.getByRole('button', { name: 'Move Hopper, Grace up' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => creatorRowNames(page), POLL)
      .toEqual(['Hamilton, Margaret', 'Hopper, Grace', 'Lovelace, Ada']);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    // Saved (with feedback: the draft has no resource type yet) once the address has its id.
    await expectPath(page, DRAFT_PATH);
    await page.reload();
    await page.getByRole('heading', { name: 'Edit upload', level: 1 }).waitFor();
    await expect
      .poll(() => creatorRowNames(page), POLL)
      .toEqual(['Hamilton, Margaret', 'Hopper, Grace', 'Lovelace, Ada']);
  });
});

describe('a person stored with only a name', () => {
  test('is shown with its name split at the comma, and a save keeps every name', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services);
    const api = await apiAs(server, account);
    // As API clients and imports send people: the display name alone, with or without a type.
    const draft = await api('POST', '/api/records', {
      metadata: {
        title: 'Imported names',
        creators: [
          { person_or_org: { type: 'personal', name: 'Doe, Jane' } },
          { person_or_org: { name: 'Plato' } },
        ],
      },
    });
    const id = draft['id'] as string;
    await logIn(page, account, `/uploads/${id}`);
    await page.getByRole('heading', { name: 'Edit upload', level: 1 }).waitFor();
    await expect.poll(() => creatorRowNames(page), POLL).toEqual(['Doe, Jane', 'Plato']);

    await page.getByRole('button', { name: 'Edit Doe, Jane' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit creator' });
    await expectValue(field(dialog, 'Family name'), 'Doe');
    await expectValue(field(dialog, 'Given names'), 'Jane');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await field(page, 'Title').fill('Imported names, checked');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const savedTitle = async () =>
      String((await api('GET', `/api/records/${id}/draft`))['metadata']['title']);
    await expect.poll(savedTitle, POLL).toBe('Imported names, checked');
    const saved = await api('GET', `/api/records/${id}/draft`);
    expect(saved['metadata']['creators']).toEqual([
      {
        person_or_org: {
          type: 'personal',
          family_name: 'Doe',
          given_name: 'Jane',
          name: 'Doe, Jane',
        },
      },
      { person_or_org: { type: 'personal', family_name: 'Plato', name: 'Plato' } },
    ]);
  });
});
