import { describe, expect, it } from 'vitest';
import importDe from '../features/deposit/import/locales/de.json';
import importEnUS from '../features/deposit/import/locales/en_US.json';
import de from './locales/de.json';
import enUS from './locales/en_US.json';
import enUSLater from './locales/en_US.later.json';

/** Every leaf of a nested translation object, by its dotted key. */
function leavesOf(value: unknown, prefix = ''): Map<string, unknown> {
  if (typeof value !== 'object' || value === null) return new Map([[prefix, value]]);
  return new Map(
    Object.entries(value).flatMap(([key, child]) => [
      ...leavesOf(child, prefix ? `${prefix}.${key}` : key),
    ]),
  );
}

/** i18next's `{{name}}` placeholders (with optional formats) and `$t(key)` nestings of a text. */
function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/{{\s*([\w.]+)[^}]*}}|\$t\(([^),]+)/g)]
    .map((match) => match[1] ?? `$t(${match[2]})`)
    .sort();
}

/**
 * Texts that read the same in German: names, abbreviations, loanwords German uses as they are,
 * and texts made of placeholders only. Anything else equal to its English text is untranslated.
 */
const SAME_IN_GERMAN = new Set([
  'account.name',
  'members.name',
  'members.person',
  'members.status',
  'share.tabLinks',
  'share.person',
  'share.name',
  'share.linkN',
  'deposit.fields.person',
  'deposit.fields.organizationName',
  'deposit.feedback.sectionErrorCount',
  'records.version',
  'records.fileName',
  'records.versionN',
  'records.citationStyles.apa',
  'records.citationStyles.harvard',
  'records.citationStyles.chicago',
  'records.citationStyles.ieee',
  'records.citationStyles.vancouver',
  'records.citationStyles.bibtex',
  'dashboard.columnStatus',
  'tokens.name',
  'requests.community',
  'inbox.stateLabel',
  'inbox.communityLabel',
  'inbox.columnCommunity',
  'inbox.columnStatus',
  'requests.event.other',
  'communities.nav',
  'communities.title',
  'search.facets.community',
  // A count in parentheses beside a facet's value.
  'search.bucketCount',
  'records.communities',
  // A type and its subtype, "Bild: Sonstiges": only the words inside are translated.
  'metadata.resourceType.subtype',
  'creators.filter.count',
  // File formats' names.
  'creators.import.format.csv',
  'creators.import.format.tsv',
  'creators.import.format.json',
  'creators.import.format.cff',
  'creators.fields.person',
  'creators.fields.organizationName',
  'metadata.editor.code',
  'metadata.editor.link',
  'metadata.version.label',
  'metadata.funding.url',
  'metadata.licenses.filter.software',
  'metadata.licenses.customLink',
  'depositCommunity.header.label',
  'depositCommunity.roles.manager',
  'depositCommunity.modal.results',
  'depositAccess.unknownDate',
  'depositPids.externalLabel',
  'customFields.groups.imprint.fields.isbn',
  'customFields.groups.journal.fields.issn',
  'customFields.groups.meeting.fields.url',
]);

/** The same for the strings a dialog brings in its own chunk, by namespace. */
const SAME_IN_GERMAN_BY_NAMESPACE: Record<string, ReadonlySet<string>> = {
  importMetadata: new Set([
    'doiLabel',
    'fields.version',
    'format.doi',
    'format.bibtex',
    'format.ris',
    'format.cff',
    'format.codemeta',
  ]),
};

describe.each([['importMetadata', importEnUS, importDe]] as const)(
  'the German strings of the %s dialog',
  (namespace, englishStrings, germanStrings) => {
    const englishLeaves = leavesOf(englishStrings);
    const germanLeaves = leavesOf(germanStrings);
    const same = SAME_IN_GERMAN_BY_NAMESPACE[namespace] ?? new Set();

    it('have every key, and no other, each with a text keeping the English placeholders', () => {
      expect([...germanLeaves.keys()]).toEqual([...englishLeaves.keys()]);
      for (const [key, text] of englishLeaves) {
        const german = germanLeaves.get(key);
        expect(typeof german === 'string' && german.trim() !== '', key).toBe(true);
        expect(placeholdersOf(String(german)), key).toEqual(placeholdersOf(String(text)));
      }
    });

    it('translate every text, but for those that read the same in German', () => {
      const untranslated = [...englishLeaves]
        .filter(([key, text]) => germanLeaves.get(key) === text && !same.has(key))
        .map(([key]) => key);
      expect(untranslated).toEqual([]);
      for (const key of same) expect(englishLeaves.has(key), key).toBe(true);
    });
  },
);

// English comes in two files, the first load's and the later pages' (i18n.ts).
const englishFirst = leavesOf(enUS);
const englishLater = leavesOf(enUSLater);
const english = new Map([...englishFirst, ...englishLater]);
const german = leavesOf(de);
const namespaces = [...new Set([...Object.keys(enUS), ...Object.keys(enUSLater)])].sort();

describe('the English strings', () => {
  it('are each in one of the two files only', () => {
    expect([...englishFirst.keys()].filter((key) => englishLater.has(key))).toEqual([]);
  });
});

describe('the German translations', () => {
  it('cover every namespace of en_US and no other', () => {
    expect(Object.keys(de).sort()).toEqual(namespaces);
  });

  it.each(namespaces)('have every key of the %s namespace, and no other', (namespace) => {
    const keysIn = (leaves: Map<string, unknown>) =>
      [...leaves.keys()].filter((key) => key.startsWith(`${namespace}.`)).sort();
    expect(keysIn(german)).toEqual(keysIn(english));
  });

  it('give every key a non-empty text', () => {
    const empty = [...german].filter(([, text]) => typeof text !== 'string' || text.trim() === '');
    expect(empty.map(([key]) => key)).toEqual([]);
  });

  it('keep every placeholder and nesting of the English text', () => {
    const different = [...english]
      .filter(([key]) => german.has(key))
      .filter(
        ([key, text]) =>
          placeholdersOf(String(text)).join() !== placeholdersOf(String(german.get(key))).join(),
      )
      .map(([key]) => key);
    expect(different).toEqual([]);
  });

  it('translate every text, but for those that read the same in German', () => {
    const untranslated = [...english]
      .filter(([key, text]) => german.get(key) === text && !SAME_IN_GERMAN.has(key))
      .map(([key]) => key);
    expect(untranslated).toEqual([]);
    for (const key of SAME_IN_GERMAN) expect(english.has(key), key).toBe(true);
  });
});

describe('placeholdersOf', () => {
  it('finds placeholders with formats and nestings', () => {
    expect(placeholdersOf('{{count}} of {{ total, number }} $t(app.name)')).toEqual([
      '$t(app.name)',
      'count',
      'total',
    ]);
    expect(placeholdersOf('No placeholder')).toEqual([]);
  });
});
