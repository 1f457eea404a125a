import type { Locator, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { publishFromEditor } from './support/deposit.js';
import {
  choose,
  combobox,
  dialog,
  draftIdOf,
  loadSampleVocabularies,
  reloadEditor,
  richTextHtml,
  row,
  saveAndWait,
  textbox,
  typeRichText,
  openNewUpload,
} from './support/editor.js';
import { createAccount } from './support/server.js';
import { expectPath, expectValue, POLL, test } from './support/test.js';

/** Every field of the form, as the depositor types or picks it and as the page then shows it. */
const RECORD = {
  resourceType: 'Dataset',
  title: 'Gannet colony counts on the Bass Rock',
  additionalTitle: { title: 'Basstölpel-Zählungen am Bass Rock', type: 'Translated title' },
  publicationDate: '2024-05-01',
  descriptionHtml: '<p>Breeding pairs counted on <strong>Bass Rock</strong>, 2010 to 2024.</p>',
  additionalDescriptionHtml: '<p>Counted from <strong>aerial</strong> photographs.</p>',
  subjects: ['Abattoirs', 'gannets'],
  languages: ['English', 'German'],
  date: { date: '2010/2024', type: 'Collected', description: 'Breeding seasons' },
  version: 'v2.1',
  publisher: 'Scottish Seabird Centre',
  identifier: { identifier: 'https://seabirds.example.org/counts', scheme: 'URL' },
  relatedWork: {
    relation: 'Is cited by',
    identifier: '10.1234/gannets.2025',
    scheme: 'DOI',
    resourceType: 'Journal article',
  },
  reference: 'Nelson, B. (2002). The Atlantic Gannet. Fenix Books.',
  standardLicense: 'Creative Commons Attribution 4.0 International',
  customLicense: {
    title: 'Seabird Trust Data Licence',
    description: 'Free for research; ask before any commercial use.',
    link: 'https://seabirds.example.org/licence',
  },
  customAward: {
    number: '221234',
    title: 'Gannet population dynamics',
    url: 'https://wellcome.example.org/grants/221234',
  },
  journal: { title: 'Seabird', issn: '0028-0836', volume: '47', issue: '2', pages: '101-118' },
  embargo: { until: '2100-01-01', reason: 'Until the monograph is out.' },
  doi: '10.1234/bassrock.counts',
};

const CARBERRY_ORCID = '0000-0002-1825-0097';
const HOPPER_ORCID = '0000-0001-5109-3700';

/** The main description, told apart from the dates' descriptions by its section. */
function mainDescription(page: Page): Locator {
  return textbox(page.getByRole('region', { name: 'Basic information' }), 'Description');
}

/** The creators or contributors list and the row of one entry in it. */
function entryRow(page: Page, list: 'Creators' | 'Contributors', name: string): Locator {
  return page
    .getByRole('list', { name: list, exact: true })
    .getByRole('listitem')
    .filter({ hasText: name });
}

async function addPersonBySearch(page: Page) {
  await page.getByRole('button', { name: 'Add creator', exact: true }).click();
  const modal = dialog(page, 'Add creator');
  await textbox(modal, 'Search for a person').fill('Carberry');
  await page.getByRole('option', { name: /Carberry, Josiah/ }).click();
  await expectValue(textbox(modal, 'Family name'), 'Carberry');
  // A second affiliation, picked from the organisations a site imports from ROR.
  await textbox(modal, 'Affiliations').fill('CERN');
  await page.getByRole('option', { name: /European Organization for Nuclear Research/ }).click();
  await modal
    .getByRole('list', { name: 'Chosen affiliations' })
    .getByText('European Organization for Nuclear Research')
    .waitFor();
  await modal.getByRole('button', { name: 'Save', exact: true }).click();
  await modal.waitFor({ state: 'hidden' });
}

async function addOrganisationBySearch(page: Page) {
  await page.getByRole('button', { name: 'Add creator', exact: true }).click();
  const modal = dialog(page, 'Add creator');
  await modal.getByRole('radio', { name: 'Organization' }).check();
  await textbox(modal, 'Search for an organization').fill('Wellcome');
  await page.getByRole('option', { name: /Wellcome Trust/ }).click();
  await expectValue(textbox(modal, 'Name'), 'Wellcome Trust');
  await modal.getByRole('button', { name: 'Save', exact: true }).click();
  await modal.waitFor({ state: 'hidden' });
}

async function addContributorByHand(page: Page) {
  await page.getByRole('button', { name: 'Add contributor', exact: true }).click();
  const modal = dialog(page, 'Add contributor');
  await textbox(modal, 'Family name').fill('Hopper');
  await textbox(modal, 'Given names').fill('Grace');
  await combobox(modal, 'Identifiers').fill(HOPPER_ORCID);
  await combobox(modal, 'Identifiers').press('Enter');
  await textbox(modal, 'Affiliations').fill('Bass Rock Observatory');
  await page.getByRole('option', { name: 'Add “Bass Rock Observatory”' }).click();
  await choose(page, combobox(modal, 'Role'), 'Data curator');
  await modal.getByRole('button', { name: 'Save', exact: true }).click();
  await modal.waitFor({ state: 'hidden' });
}

async function addFunding(page: Page) {
  await page.getByRole('button', { name: 'Add award/grant', exact: true }).click();
  let modal = dialog(page, 'Add award/grant');
  await choose(page, combobox(modal, 'Funder'), 'European Commission (EC)', { search: 'European' });
  await choose(
    page,
    combobox(modal, 'Award'),
    'OpenAIRE-Advance — OpenAIRE Advancing Open Scholarship (777541)',
  );
  await modal.getByRole('button', { name: 'Add award', exact: true }).click();
  await modal.waitFor({ state: 'hidden' });

  // An award the vocabulary does not list, described by number, title and web page.
  await page.getByRole('button', { name: 'Add award/grant', exact: true }).click();
  modal = dialog(page, 'Add award/grant');
  await choose(page, combobox(modal, 'Funder'), 'Wellcome Trust', { search: 'Wellcome' });
  await textbox(modal, 'Number').fill(RECORD.customAward.number);
  await textbox(modal, 'Title').fill(RECORD.customAward.title);
  await textbox(modal, 'URL').fill(RECORD.customAward.url);
  await modal.getByRole('button', { name: 'Add award', exact: true }).click();
  await modal.waitFor({ state: 'hidden' });
}

async function addLicenses(page: Page) {
  await page.getByRole('button', { name: 'Add standard', exact: true }).click();
  let modal = dialog(page, 'Add standard license');
  await modal.getByRole('radio', { name: RECORD.standardLicense, exact: true }).check();
  await modal.getByRole('button', { name: 'Add license', exact: true }).click();
  await modal.waitFor({ state: 'hidden' });

  await page.getByRole('button', { name: 'Add custom', exact: true }).click();
  modal = dialog(page, 'Add custom license');
  await textbox(modal, 'Title').fill(RECORD.customLicense.title);
  await textbox(modal, 'Description').fill(RECORD.customLicense.description);
  await textbox(modal, 'Link').fill(RECORD.customLicense.link);
  await modal.getByRole('button', { name: 'Add license', exact: true }).click();
  await modal.waitFor({ state: 'hidden' });
}

/** The text of the entries of a list (licences, awards), top to bottom. */
function listTexts(page: Page, group: string): Promise<string[]> {
  // The text as the document holds it: innerText is empty in a form section the browser has
  // not rendered yet (off screen, `content-visibility: auto`).
  return page
    .getByRole('group', { name: group, exact: true })
    .getByRole('listitem')
    .allTextContents();
}

async function fillEveryField(page: Page) {
  await choose(page, combobox(page, 'Resource type'), RECORD.resourceType);
  await textbox(page, 'Title').fill(RECORD.title);
  await page.getByRole('button', { name: 'Add title', exact: true }).click();
  const title = row(page, 'Additional title 1');
  await textbox(title, 'Additional title').fill(RECORD.additionalTitle.title);
  await choose(page, combobox(title, 'Type'), RECORD.additionalTitle.type);
  await choose(page, combobox(title, 'Language'), 'German', { search: 'German' });
  await textbox(page, 'Publication date').fill(RECORD.publicationDate);

  await addPersonBySearch(page);
  await addOrganisationBySearch(page);
  await addContributorByHand(page);

  await typeRichText(mainDescription(page), [
    'Breeding pairs counted on ',
    { bold: 'Bass Rock' },
    ', 2010 to 2024.',
  ]);
  await page.getByRole('button', { name: 'Add description', exact: true }).click();
  const description = row(page, 'Additional description 1');
  await typeRichText(textbox(description, 'Additional description'), [
    'Counted from ',
    { bold: 'aerial' },
    ' photographs.',
  ]);
  await choose(page, combobox(description, 'Type'), 'Methods');
  await choose(page, combobox(description, 'Language'), 'English', { search: 'English' });

  await addLicenses(page);

  const subjects = textbox(page, 'Keywords and subjects');
  await subjects.fill('Abattoirs');
  await page.getByRole('option', { name: '(MeSH) Abattoirs' }).click();
  await subjects.fill('gannets');
  await subjects.press('Enter');

  const languages = combobox(page, 'Languages');
  for (const language of RECORD.languages) {
    await languages.fill(language);
    await page.getByRole('listbox').getByRole('option', { name: language, exact: true }).click();
  }

  await page.getByRole('button', { name: 'Add date', exact: true }).click();
  const date = row(page, 'Date 1');
  await textbox(date, 'Date').fill(RECORD.date.date);
  await choose(page, combobox(date, 'Type'), RECORD.date.type);
  await textbox(date, 'Description').fill(RECORD.date.description);
  await textbox(page, 'Version').fill(RECORD.version);
  await textbox(page, 'Publisher').fill(RECORD.publisher);

  await addFunding(page);

  await page
    .getByRole('region', { name: 'Alternate identifiers' })
    .getByRole('button', { name: 'Add identifier', exact: true })
    .click();
  const identifier = row(page, 'Identifier 1');
  await choose(page, combobox(identifier, 'Scheme'), RECORD.identifier.scheme);
  await textbox(identifier, 'Identifier').fill(RECORD.identifier.identifier);

  await page.getByRole('button', { name: 'Add related work', exact: true }).click();
  const related = row(page, 'Related work 1');
  await choose(page, combobox(related, 'Relation'), RECORD.relatedWork.relation);
  await choose(page, combobox(related, 'Scheme'), RECORD.relatedWork.scheme);
  await textbox(related, 'Identifier').fill(RECORD.relatedWork.identifier);
  // A subtype is offered and shown with its type, as publication types are.
  await choose(
    page,
    combobox(related, 'Resource type (optional)'),
    `Publication: ${RECORD.relatedWork.resourceType}`,
  );

  await page.getByRole('button', { name: 'Add reference', exact: true }).click();
  await textbox(row(page, 'Reference 1'), 'Reference string').fill(RECORD.reference);

  const journal = page.getByRole('group', { name: 'Journal', exact: true });
  await textbox(journal, 'Journal title').fill(RECORD.journal.title);
  await textbox(journal, 'ISSN').fill(RECORD.journal.issn);
  await textbox(journal, 'Volume').fill(RECORD.journal.volume);
  await textbox(journal, 'Issue').fill(RECORD.journal.issue);
  await textbox(journal, 'Page range or article number').fill(RECORD.journal.pages);

  // Metadata only, restricted, under embargo.
  await page.getByRole('checkbox', { name: 'Metadata-only record' }).check();
  await page.getByRole('radiogroup', { name: 'Full record' }).getByText('Restricted').click();
  await page.getByRole('checkbox', { name: 'Apply an embargo' }).check();
  await textbox(page, 'Embargo until').fill(RECORD.embargo.until);
  await textbox(page, 'Embargo reason').fill(RECORD.embargo.reason);

  // A DOI of its own (a restricted record gets no DOI from the site: it would be dropped).
  await page.getByRole('radio', { name: 'Yes, I already have one' }).check();
  await textbox(page, 'DOI').fill(RECORD.doi);
  await textbox(page, 'DOI').blur();
}

async function expectEveryField(page: Page) {
  await expectValue(combobox(page, 'Resource type'), RECORD.resourceType);
  await expectValue(textbox(page, 'Title'), RECORD.title);
  const title = row(page, 'Additional title 1');
  await expectValue(textbox(title, 'Additional title'), RECORD.additionalTitle.title);
  await expectValue(combobox(title, 'Type'), RECORD.additionalTitle.type);
  await expectValue(combobox(title, 'Language'), 'German');
  await expectValue(textbox(page, 'Publication date'), RECORD.publicationDate);

  const carberry = entryRow(page, 'Creators', 'Carberry, Josiah');
  await carberry
    .getByText('Brown University; European Organization for Nuclear Research')
    .waitFor();
  await carberry
    .getByRole('link', { name: `ORCID iD ${CARBERRY_ORCID} (opens in a new tab)` })
    .waitFor();
  await entryRow(page, 'Creators', 'Wellcome Trust')
    .getByRole('link', { name: /^ROR 029chgv08/ })
    .waitFor();
  const hopper = entryRow(page, 'Contributors', 'Hopper, Grace');
  await hopper.getByText('Data curator').waitFor();
  await hopper.getByText('Bass Rock Observatory').waitFor();
  await hopper
    .getByRole('link', { name: `ORCID iD ${HOPPER_ORCID} (opens in a new tab)` })
    .waitFor();

  await expect.poll(() => richTextHtml(mainDescription(page)), POLL).toBe(RECORD.descriptionHtml);
  const description = row(page, 'Additional description 1');
  await expect
    .poll(() => richTextHtml(textbox(description, 'Additional description')), POLL)
    .toBe(RECORD.additionalDescriptionHtml);
  await expectValue(combobox(description, 'Type'), 'Methods');
  await expectValue(combobox(description, 'Language'), 'English');

  const licenses = await listTexts(page, 'Licenses');
  expect(licenses).toHaveLength(2);
  expect(licenses[0]).toContain(RECORD.standardLicense);
  expect(licenses[1]).toContain(RECORD.customLicense.title);
  expect(licenses[1]).toContain(RECORD.customLicense.description);

  for (const subject of RECORD.subjects) {
    await page.getByRole('button', { name: `Remove ${subject}`, exact: true }).waitFor();
  }
  // (languages) the chosen ones show as pills of the multi-select
  for (const language of RECORD.languages) {
    await page
      .getByRole('region', { name: 'Recommended information' })
      .getByText(language, { exact: true })
      .waitFor();
  }

  const date = row(page, 'Date 1');
  await expectValue(textbox(date, 'Date'), RECORD.date.date);
  await expectValue(combobox(date, 'Type'), RECORD.date.type);
  await expectValue(textbox(date, 'Description'), RECORD.date.description);
  await expectValue(textbox(page, 'Version'), RECORD.version);
  await expectValue(textbox(page, 'Publisher'), RECORD.publisher);

  const awards = await listTexts(page, 'Awards/Grants');
  expect(awards).toHaveLength(2);
  expect(awards[0]).toContain('European Commission');
  expect(awards[0]).toContain('OpenAIRE Advancing Open Scholarship');
  expect(awards[1]).toContain('Wellcome Trust');
  expect(awards[1]).toContain(`${RECORD.customAward.title} (${RECORD.customAward.number})`);
  expect(awards[1]).toContain(RECORD.customAward.url);

  const identifier = row(page, 'Identifier 1');
  await expectValue(textbox(identifier, 'Identifier'), RECORD.identifier.identifier);
  await expectValue(combobox(identifier, 'Scheme'), RECORD.identifier.scheme);
  const related = row(page, 'Related work 1');
  await expectValue(combobox(related, 'Relation'), RECORD.relatedWork.relation);
  await expectValue(textbox(related, 'Identifier'), RECORD.relatedWork.identifier);
  await expectValue(combobox(related, 'Scheme'), RECORD.relatedWork.scheme);
  await expectValue(
    combobox(related, 'Resource type (optional)'),
    `Publication: ${RECORD.relatedWork.resourceType}`,
  );
  await expectValue(textbox(row(page, 'Reference 1'), 'Reference string'), RECORD.reference);

  const journal = page.getByRole('group', { name: 'Journal', exact: true });
  await expectValue(textbox(journal, 'Journal title'), RECORD.journal.title);
  await expectValue(textbox(journal, 'ISSN'), RECORD.journal.issn);
  await expectValue(textbox(journal, 'Volume'), RECORD.journal.volume);
  await expectValue(textbox(journal, 'Issue'), RECORD.journal.issue);
  await expectValue(textbox(journal, 'Page range or article number'), RECORD.journal.pages);

  expect(await page.getByRole('checkbox', { name: 'Metadata-only record' }).isChecked()).toBe(true);
  expect(
    await page
      .getByRole('radiogroup', { name: 'Full record' })
      .getByRole('radio', { name: 'Restricted' })
      .isChecked(),
  ).toBe(true);
  expect(await page.getByRole('checkbox', { name: 'Apply an embargo' }).isChecked()).toBe(true);
  await expectValue(textbox(page, 'Embargo until'), RECORD.embargo.until);
  await expectValue(textbox(page, 'Embargo reason'), RECORD.embargo.reason);
  expect(await page.getByRole('radio', { name: 'Yes, I already have one' }).isChecked()).toBe(true);
  await expectValue(textbox(page, 'DOI'), RECORD.doi);
}

/** What the landing page (preview or published) shows of the record. */
async function expectLandingPage(page: Page) {
  await page.getByRole('heading', { name: RECORD.title, level: 1 }).waitFor();
  const article = page.getByRole('article');
  await article.getByText('Published May 1, 2024', { exact: true }).waitFor();
  await article.getByText(RECORD.resourceType, { exact: true }).waitFor();
  await article.getByText('Embargoed', { exact: true }).first().waitFor();
  await article.getByText(RECORD.version, { exact: true }).first().waitFor();
  const creators = article.getByRole('list', { name: 'Creators' });
  await creators.getByText('Carberry, Josiah', { exact: true }).waitFor();
  await creators.getByText('Wellcome Trust', { exact: true }).waitFor();
  await article.getByRole('link', { name: 'ORCID profile of Carberry, Josiah' }).waitFor();
  const contributors = article.getByRole('list', { name: 'Contributors' });
  await contributors.getByText('Hopper, Grace', { exact: true }).waitFor();
  await article.getByText(`Reason: ${RECORD.embargo.reason}`).waitFor();
  const description = article.getByRole('region', { name: 'Description' });
  expect(await description.locator('strong').innerText()).toBe('Bass Rock');
  const details = article.getByRole('region', { name: 'Additional details' });
  await details.getByRole('heading', { name: 'Methods' }).waitFor();
  await details.locator('strong', { hasText: 'aerial' }).waitFor();
  const term = (label: string) =>
    details.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('+ dd');
  expect(await term('Additional titles').innerText()).toBe(
    `${RECORD.additionalTitle.title} (${RECORD.additionalTitle.type})`,
  );
  expect(await term('Publisher').innerText()).toBe(RECORD.publisher);
  expect(await term('Version').innerText()).toBe(RECORD.version);
  expect(await term('Languages').innerText()).toBe('English, German');
  expect(await term('Keywords and subjects').innerText()).toBe('Abattoirs, gannets');
  // The interval as a reader reads it: "2010/2024" is how it is typed and stored.
  expect(await term('Dates').innerText()).toBe(
    `2010 – 2024 (${RECORD.date.type}) — ${RECORD.date.description}`,
  );
  expect(await term('Alternate identifiers').innerText()).toBe(
    `URL: ${RECORD.identifier.identifier}`,
  );
  expect(await term('Related works').innerText()).toBe(
    `${RECORD.relatedWork.relation} DOI: ${RECORD.relatedWork.identifier} (${RECORD.relatedWork.resourceType})`,
  );
  expect(await term('Rights').innerText()).toBe(
    `${RECORD.standardLicense}\n${RECORD.customLicense.title}`,
  );
  expect(await term('Funding').innerText()).toBe(
    [
      'European Commission — 777541 — OpenAIRE Advancing Open Scholarship',
      `Wellcome Trust — ${RECORD.customAward.number} — ${RECORD.customAward.title}`,
    ].join('\n'),
  );
  expect(await term('References').innerText()).toBe(RECORD.reference);
  expect(await term('Journal').innerText()).toBe(
    [
      `Journal title: ${RECORD.journal.title}`,
      `ISSN: ${RECORD.journal.issn}`,
      `Volume: ${RECORD.journal.volume}`,
      `Issue: ${RECORD.journal.issue}`,
      `Page range or article number: ${RECORD.journal.pages}`,
    ].join('\n'),
  );
  await page.getByRole('link', { name: `DOI ${RECORD.doi}` }).waitFor();
}

describe('editor journeys', () => {
  test(
    'every field of the form is filled, saved, found intact after a reload, previewed and published',
    { timeout: 240_000 },
    async ({ page, server }) => {
      await loadSampleVocabularies(server);
      const account = await createAccount(server.services, { name: 'Ada Lovelace' });
      await openNewUpload(page, account);

      await fillEveryField(page);
      expect(await axeViolations(page)).toEqual([]);
      await saveAndWait(page);
      const id = await draftIdOf(page);

      await reloadEditor(page);
      await expectEveryField(page);

      await page.getByRole('button', { name: 'Preview', exact: true }).click();
      await expectPath(page, `/records/${id}?preview=1`);
      await page
        .getByRole('status')
        .getByText('Preview: this is how the record will look once published.')
        .waitFor();
      await expectLandingPage(page);

      await page.getByRole('link', { name: 'Back to editing' }).click();
      await page.getByRole('heading', { name: 'Edit upload', level: 1 }).waitFor();
      await publishFromEditor(page);
      await expectPath(page, `/records/${id}`);
      await expectLandingPage(page);
      await page.getByRole('heading', { name: 'Versions' }).waitFor();
    },
  );
});
