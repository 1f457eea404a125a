import { readFile } from 'node:fs/promises';
import type { Locator } from 'playwright-core';
import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { creatorRowNames, DRAFT_PATH } from './support/deposit.js';
import { loadSampleVocabularies } from './support/editor.js';
import { apiAs, logIn } from './support/journey.js';
import { createAccount } from './support/server.js';
import { expectPath, POLL, test } from './support/test.js';

const LOVELACE_ORCID = '0000-0003-1415-9269';
/** Josiah Carberry's, in the sample names vocabulary. */
const CARBERRY_ORCID = '0000-0002-1825-0097';
const HOPPER_ORCID = '0000-0001-5109-3700';
/** Hopper's iD with its check digit off by one: the kind of typo a spreadsheet keeps. */
const BAD_ORCID = '0000-0001-5109-3701';

function pasteBox(dialog: Locator): Locator {
  return dialog.getByRole('textbox', { name: 'Table, JSON or CITATION.cff' });
}

describe('importing an author list', () => {
  test('a pasted table with a German header: a bad ORCID shown, fixed, the rows appended, saved and exported', async ({
    page,
    server,
  }) => {
    await loadSampleVocabularies(server);
    const account = await createAccount(server.services);
    const api = await apiAs(server, account);
    await logIn(page, account, '/uploads/new');
    await page.getByRole('heading', { name: 'New upload', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Imported authors');

    await page.getByRole('button', { name: 'Import creators' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import creators' });
    // As a spreadsheet copies its cells: tabs, the header in German and in its own order.
    const table = [
      ['Nachname', 'Vorname', 'ORCID', 'Zugehörigkeiten'],
      ['Lovelace', 'Ada', LOVELACE_ORCID, 'CERN; Analytical Engine Society'],
      ['Hopper', 'Grace', BAD_ORCID, ''],
      ['Carberry', 'Josiah', '', ''],
    ];
    const tsv = table.map((cells) => cells.join('\t')).join('\n');
    await pasteBox(dialog).fill(tsv);

    await dialog.getByText('3 rows read (TSV).').waitFor();
    await dialog
      .getByText(`“${BAD_ORCID}” is not a valid ORCID iD (wrong check digit or format).`)
      .waitFor();
    // The row with the problem is left out until it is fixed or ticked.
    const hopper = dialog.getByRole('checkbox', { name: 'Line 3: Hopper, Grace' });
    expect(await hopper.isChecked()).toBe(false);
    await dialog.getByRole('button', { name: 'Append 2 entries' }).waitFor();
    // An organisation of the vocabulary is offered for the free-text "CERN".
    const cern = dialog.getByRole('checkbox', {
      name: /“CERN”: use European Organization for Nuclear Research/,
    });
    await cern.waitFor();
    expect(await cern.isChecked()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    // Fixed where it was pasted: the row reads again, without its problem.
    await pasteBox(dialog).fill(tsv.replace(BAD_ORCID, HOPPER_ORCID));
    await expect.poll(() => hopper.isChecked(), POLL).toBe(true);
    expect(await dialog.getByText(/is not a valid ORCID iD/).count()).toBe(0);

    // Carberry has no ORCID iD in the table: the names vocabulary has one, by keyboard.
    await dialog.getByRole('button', { name: 'Find ORCID for Carberry, Josiah' }).focus();
    await page.keyboard.press('Enter');
    const use = dialog.getByRole('button', { name: /^Use Carberry, Josiah/ });
    await use.focus();
    await page.keyboard.press('Enter');
    await dialog.getByText(`ORCID ${CARBERRY_ORCID}`, { exact: false }).waitFor();

    await dialog.getByRole('button', { name: 'Append 3 entries' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(() => creatorRowNames(page), POLL)
      .toEqual(['Lovelace, Ada', 'Hopper, Grace', 'Carberry, Josiah']);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectPath(page, DRAFT_PATH);
    const id = new URL(page.url()).pathname.split('/').pop() ?? '';
    await page.reload();
    await page.getByRole('heading', { name: 'Edit upload', level: 1 }).waitFor();
    await expect
      .poll(() => creatorRowNames(page), POLL)
      .toEqual(['Lovelace, Ada', 'Hopper, Grace', 'Carberry, Josiah']);
    const creators = (await api('GET', `/api/records/${id}/draft`))['metadata'][
      'creators'
    ] as Array<{
      person_or_org: { identifiers?: Array<{ scheme: string; identifier: string }> };
      affiliations?: Array<{ id?: string; name: string }>;
    }>;
    expect(creators[0]?.person_or_org.identifiers).toEqual([
      { scheme: 'orcid', identifier: LOVELACE_ORCID },
    ]);
    expect(creators[0]?.affiliations?.map((a) => [a.id !== undefined, a.name])).toEqual([
      [true, 'European Organization for Nuclear Research'],
      [false, 'Analytical Engine Society'],
    ]);
    expect(creators[1]?.person_or_org.identifiers).toEqual([
      { scheme: 'orcid', identifier: HOPPER_ORCID },
    ]);
    expect(creators[2]?.person_or_org.identifiers).toEqual([
      { scheme: 'orcid', identifier: CARBERRY_ORCID },
    ]);

    // Exported as CSV: the same people, in order, a header a spreadsheet shows.
    // By keyboard too: the format is chosen in a popover.
    await page.getByRole('button', { name: 'Export creators' }).focus();
    await page.keyboard.press('Enter');
    const asCsv = page
      .getByRole('dialog', { name: 'Export creators' })
      .getByRole('button', { name: 'As CSV' });
    await asCsv.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await asCsv.focus();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.keyboard.press('Enter'),
    ]);
    expect(download.suggestedFilename()).toBe('creators.csv');
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Given name,Family name,ORCID,Affiliations,Role,Type,Organization,Other identifiers,Affiliation IDs',
    );
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 3))).toEqual([
      ['Ada', 'Lovelace', LOVELACE_ORCID],
      ['Grace', 'Hopper', HOPPER_ORCID],
      ['Josiah', 'Carberry', CARBERRY_ORCID],
    ]);
  });

  test('a list in the dialog replaces the one there, and the bad rows can be dropped', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services);
    await logIn(page, account, '/uploads/new');
    await page.getByRole('heading', { name: 'New upload', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Import creators' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import creators' });
    await pasteBox(dialog).fill('Ada,Lovelace\nGrace,Hopper\n');
    await dialog.getByRole('button', { name: 'Append 2 entries' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(() => creatorRowNames(page), POLL)
      .toEqual(['Lovelace, Ada', 'Hopper, Grace']);

    await page.getByRole('button', { name: 'Import creators' }).click();
    await pasteBox(dialog).fill(
      JSON.stringify([
        { given_name: 'Margaret', family_name: 'Hamilton' },
        { given_name: 'Nobody' },
      ]),
    );
    await dialog.getByText('Family name is missing.').waitFor();
    // Ticked, a row with a problem would go in as it is; left unticked it is dropped.
    await dialog.getByRole('button', { name: 'Replace the list with 1 entry' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => creatorRowNames(page), POLL).toEqual(['Hamilton, Margaret']);
  });
});
