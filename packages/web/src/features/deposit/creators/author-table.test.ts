import fc from 'fast-check';
import type { CreatorFormValues } from '@cairn/shared';
import { describe, expect, it } from 'vitest';
import { parseAuthorText } from './author-import';
import {
  AuthorListError,
  detectFormat,
  resolveRows,
  writeJson,
  writeTable,
  type RoleChoice,
} from './author-table';

const ROLES: RoleChoice[] = [
  { id: 'datacollector', label: 'Data collector' },
  { id: 'projectleader', label: 'Project leader' },
  { id: 'other', label: 'Other' },
];

function read(text: string, roles = ROLES, roleRequired = false) {
  const parsed = parseAuthorText(text, roleRequired ? 'contributors' : 'creators');
  return { ...parsed, resolved: resolveRows(parsed.rows, roles, roleRequired) };
}

const person = (
  family: string,
  given: string,
  extra: Partial<CreatorFormValues> & {
    identifiers?: CreatorFormValues['person_or_org']['identifiers'];
  } = {},
): CreatorFormValues => ({
  person_or_org: {
    type: 'personal',
    family_name: family,
    given_name: given,
    name: '',
    identifiers: extra.identifiers ?? [],
  },
  role: extra.role ?? '',
  affiliations: extra.affiliations ?? [],
});

describe('reading a table', () => {
  it('reads a spreadsheet copy with a German header, its columns in any order', () => {
    const text =
      'Nachname\tVorname\tZugehörigkeiten\tORCID\tRolle\n' +
      'Lovelace\tAda\tUniversity of London; Royal Society\t0000-0002-1825-0097\tData collector\n' +
      'Hopper\tGrace\t\thttps://orcid.org/0000-0001-5109-3700\tprojectleader\n';
    const { format, hasHeader, resolved } = read(text, ROLES, true);
    expect(format).toBe('tsv');
    expect(hasHeader).toBe(true);
    expect(resolved).toEqual([
      {
        line: 2,
        creator: person('Lovelace', 'Ada', {
          identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
          affiliations: [{ name: 'University of London' }, { name: 'Royal Society' }],
          role: 'datacollector',
        }),
        problems: [],
      },
      {
        line: 3,
        creator: person('Hopper', 'Grace', {
          identifiers: [{ scheme: 'orcid', identifier: '0000-0001-5109-3700' }],
          role: 'projectleader',
        }),
        problems: [],
      },
    ]);
  });

  it('reads a table without a header in the documented order: given, family, ORCID, affiliations, role', () => {
    const { hasHeader, resolved } = read('Ada,Lovelace,0000-0002-1825-0097,"Uni A; Uni B",other\n');
    expect(hasHeader).toBe(false);
    expect(resolved[0]?.creator).toEqual(
      person('Lovelace', 'Ada', {
        identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
        affiliations: [{ name: 'Uni A' }, { name: 'Uni B' }],
        role: 'other',
      }),
    );
  });

  it('reads CSV saved by a German spreadsheet: semicolons, quoted cells and a byte-order mark', () => {
    const text = '\uFEFFVorname;Nachname;Zugehörigkeiten\r\nAda;"Love;""lace""";"A; B"\r\n';
    const { format, resolved } = read(text);
    expect(format).toBe('csv');
    expect(resolved[0]?.creator).toEqual(
      person('Love;"lace"', 'Ada', { affiliations: [{ name: 'A' }, { name: 'B' }] }),
    );
  });

  it('names each row’s problems: a bad ORCID check digit, an unknown role, no family name', () => {
    const text =
      'Given name\tFamily name\tORCID\tRole\n' +
      'Ada\tLovelace\t0000-0002-1825-0098\tother\n' +
      'Grace\tHopper\t\tjanitor\n' +
      'Margaret\t\t\tother\n' +
      'Ada\tLovelace\t\t\n';
    const { resolved } = read(text, ROLES, true);
    expect(resolved.map((row) => [row.line, row.problems])).toEqual([
      [2, [{ kind: 'orcidInvalid', value: '0000-0002-1825-0098' }]],
      [3, [{ kind: 'roleUnknown', value: 'janitor' }]],
      [4, [{ kind: 'familyNameMissing' }]],
      [5, [{ kind: 'roleMissing' }]],
    ]);
    // What was typed stays, so the preview shows it.
    expect(resolved[0]?.creator.person_or_org.identifiers).toEqual([
      { scheme: 'orcid', identifier: '0000-0002-1825-0098' },
    ]);
  });

  it('counts lines as an editor does when a quoted cell holds a line break', () => {
    const text =
      'Given name,Family name,Affiliations\nAda,Lovelace,"Line\nbreak"\n\nGrace,Hopper,\n';
    expect(read(text).resolved.map((row) => row.line)).toEqual([2, 5]);
  });

  it('reads an organisation from a row without a person’s names', () => {
    const text = 'Organization\tOther identifiers\nCERN\tror:01ggx4157\n';
    expect(read(text).resolved[0]).toEqual({
      line: 2,
      creator: {
        person_or_org: {
          type: 'organizational',
          given_name: '',
          family_name: '',
          name: 'CERN',
          identifiers: [{ scheme: 'ror', identifier: '01ggx4157' }],
        },
        role: '',
        affiliations: [],
      },
      problems: [],
    });
  });

  it('refuses what is no list of people at all', () => {
    const code = (text: string) => {
      try {
        parseAuthorText(text, 'creators');
      } catch (error) {
        return error instanceof AuthorListError ? error.code : 'other';
      }
      return 'none';
    };
    expect(code('  \n')).toBe('empty');
    expect(code('[{"oops"')).toBe('jsonInvalid');
    expect(code('{"title": "x"}')).toBe('jsonShape');
    expect(code('cff-version: 1.2.0\ntitle: x\n')).toBe('cffShape');
    expect(code('authors: [\n')).toBe('yamlInvalid');
    expect(code('PK\u0003\u0004xl/workbook.xml')).toBe('binary');
  });
});

describe('reading JSON and CITATION.cff', () => {
  it('reads InvenioRDM creator objects and simple ones', () => {
    const text = JSON.stringify([
      {
        person_or_org: {
          type: 'personal',
          name: 'Lovelace, Ada',
          identifiers: [{ scheme: 'orcid', identifier: 'https://orcid.org/0000-0002-1825-0097' }],
        },
        role: { id: 'other' },
        affiliations: [{ id: '01ggx4157', name: 'CERN' }, { name: 'Free text' }],
      },
      {
        given_name: 'Grace',
        family_name: 'Hopper',
        orcid: '0000-0001-5109-3700',
        affiliations: ['Yale'],
      },
    ]);
    const { format, resolved } = read(text);
    expect(format).toBe('json');
    expect(resolved.map((row) => row.creator)).toEqual([
      person('Lovelace', 'Ada', {
        identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
        affiliations: [{ id: '01ggx4157', name: 'CERN' }, { name: 'Free text' }],
        role: 'other',
      }),
      person('Hopper', 'Grace', {
        identifiers: [{ scheme: 'orcid', identifier: '0000-0001-5109-3700' }],
        affiliations: [{ name: 'Yale' }],
      }),
    ]);
  });

  it('reads the authors of a CITATION.cff', () => {
    const text = [
      'cff-version: 1.2.0',
      'title: Glacier melt',
      'authors:',
      '  - family-names: Beethoven',
      '    name-particle: van',
      '    given-names: Ludwig',
      '    orcid: https://orcid.org/0000-0002-1825-0097',
      '    affiliation: Bonn',
      '  - name: CERN',
      '',
    ].join('\n');
    expect(detectFormat(text)).toBe('cff');
    const { format, resolved } = read(text);
    expect(format).toBe('cff');
    expect(resolved.map((row) => row.creator)).toEqual([
      person('van Beethoven', 'Ludwig', {
        identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
        affiliations: [{ name: 'Bonn' }],
      }),
      {
        person_or_org: {
          type: 'organizational',
          given_name: '',
          family_name: '',
          name: 'CERN',
          identifiers: [],
        },
        role: '',
        affiliations: [],
      },
    ]);
  });
});

/** A valid ORCID iD: 15 digits in ORCID's first block, and their ISO 7064 11,2 check digit. */
const orcidArb = fc.integer({ min: 15_000_000, max: 35_000_000 }).map((number) => {
  const digits = String(number).padStart(15, '0');
  let total = 0;
  for (const digit of digits) total = (total + Number(digit)) * 2;
  const check = (12 - (total % 11)) % 11;
  const all = `${digits}${check === 10 ? 'X' : String(check)}`;
  return `${all.slice(0, 4)}-${all.slice(4, 8)}-${all.slice(8, 12)}-${all.slice(12)}`;
});

/** Characters that matter to delimited text and spreadsheets, among any others. */
const unitArb = fc.oneof(
  fc.constantFrom(',', ';', '"', '\t', '\n', '\r', ' ', "'", '=', 'ü', 'ß', '\uFEFF'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
);
/** Text as a cell holds it: trimmed (cells are read trimmed). */
const textArb = fc.string({ unit: unitArb, maxLength: 12 }).map((value) => value.trim());
/** Text of a list cell: no separator in it, and not empty (empty entries are dropped). */
const listItemArb = fc
  .string({ unit: unitArb, minLength: 1, maxLength: 10 })
  .map((value) => value.replaceAll(';', ' ').trim())
  .filter((value) => value !== '');

const affiliationArb = fc.oneof(
  listItemArb.map((name) => ({ name })),
  fc.record({ id: fc.stringMatching(/^0[a-z\d]{6}\d{2}$/), name: listItemArb }),
);

const creatorArb: fc.Arbitrary<CreatorFormValues> = fc.oneof(
  fc.record({
    person_or_org: fc.record({
      type: fc.constant('personal' as const),
      given_name: textArb,
      family_name: textArb,
      name: fc.constant(''),
      identifiers: fc.array(
        orcidArb.map((identifier) => ({ scheme: 'orcid', identifier })),
        { maxLength: 2 },
      ),
    }),
    role: fc.constantFrom('', ...ROLES.map((role) => role.id)),
    affiliations: fc.array(affiliationArb, { maxLength: 3 }),
  }),
  fc.record({
    person_or_org: fc.record({
      type: fc.constant('organizational' as const),
      given_name: fc.constant(''),
      family_name: fc.constant(''),
      name: textArb,
      identifiers: fc.constant(null).map(() => [{ scheme: 'ror', identifier: '01ggx4157' }]),
    }),
    role: fc.constantFrom('', ...ROLES.map((role) => role.id)),
    affiliations: fc.array(affiliationArb, { maxLength: 3 }),
  }),
);

describe('export, then import', () => {
  it.each([
    ['CSV', (list: CreatorFormValues[]) => writeTable(list, 'csv', 'en')],
    ['TSV', (list: CreatorFormValues[]) => writeTable(list, 'tsv', 'en')],
    ['CSV, German header', (list: CreatorFormValues[]) => writeTable(list, 'csv', 'de')],
    ['JSON', (list: CreatorFormValues[]) => writeJson(list)],
  ])('gives the same list (%s)', (_, write) => {
    fc.assert(
      fc.property(fc.array(creatorArb, { minLength: 1, maxLength: 8 }), (list) => {
        const back = resolveRows(parseAuthorText(write(list), 'creators').rows, ROLES, false);
        expect(back.map((row) => row.creator)).toEqual(list);
      }),
      { numRuns: 300 },
    );
  });

  it('writes no cell a spreadsheet would run as a formula', () => {
    const list = [person('=HYPERLINK("http://x.example")', '@SUM(A1)'), person("'-1", '+2')];
    const csv = writeTable(list, 'csv', 'en');
    expect(csv.split('\r\n').slice(1, 3)).toEqual([
      `'@SUM(A1),"'=HYPERLINK(""http://x.example"")",,,,personal,,,`,
      `'+2,''-1,,,,personal,,,`,
    ]);
    expect(
      resolveRows(parseAuthorText(csv, 'creators').rows, ROLES, false).map((row) => row.creator),
    ).toEqual(list);
  });

  it('writes roles by id and a header a spreadsheet shows', () => {
    const list = [person('Lovelace', 'Ada', { role: 'other', affiliations: [{ name: 'A, B' }] })];
    expect(writeTable(list, 'csv', 'de').split('\r\n')[0]).toBe(
      'Vorname,Nachname,ORCID,Zugehörigkeiten,Rolle,Typ,Organisation,Weitere Kennungen,Zugehörigkeiten-IDs',
    );
    expect(writeTable(list, 'csv', 'en').split('\r\n')[1]).toBe(
      'Ada,Lovelace,,"A, B",other,personal,,,',
    );
  });
});
