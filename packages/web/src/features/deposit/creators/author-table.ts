/**
 * Creator and contributor lists as people keep them outside Cairn: a table from a spreadsheet
 * (TSV as a spreadsheet copies it, CSV as it saves it), JSON (InvenioRDM's creator objects or
 * simple ones), and the `authors` of a CITATION.cff (read in author-cff.ts, which needs the YAML
 * parser). Reading gives rows with their problems; writing gives the same table back, so a list
 * exported here, edited in a spreadsheet and pasted again arrives as it left.
 *
 * The delimited text is split here, by hand: neither the web app nor the root has a CSV parser
 * among its dependencies, and no new one may be installed. What is needed is small: RFC 4180
 * quoting (a cell in double quotes may hold the delimiter, line breaks and doubled quotes), for
 * commas, semicolons (German spreadsheets save CSV so) and tabs alike.
 */
import {
  deserializeCreator,
  isIdentifierScheme,
  isValidIdentifier,
  normalizeIdentifier,
  normalizeValidIdentifier,
  removeEmptyValues,
  serializeCreator,
  type AffiliationFormValues,
  type CreatorFormValues,
  type IdentifierFormValues,
} from '@cairn/shared';
import { foldForSearch } from './creator-display';

export type TableFormat = 'csv' | 'tsv';
export type AuthorFormat = TableFormat | 'json' | 'cff';

/** The columns a table may have; the first five, in this order, are a table without a header's. */
export const AUTHOR_COLUMNS = [
  'given',
  'family',
  'orcid',
  'affiliations',
  'role',
  'type',
  'name',
  'identifiers',
  'affiliationIds',
] as const;
export type AuthorColumn = (typeof AUTHOR_COLUMNS)[number];

/** A table without a header row: given name, family name, ORCID, affiliations, role. */
export const DEFAULT_COLUMNS: readonly AuthorColumn[] = AUTHOR_COLUMNS.slice(0, 5);

/** Separates several affiliations (or identifiers) in one cell. */
export const LIST_SEPARATOR = ';';

/** The header an export writes, in English or German; both are recognised when reading. */
export const EXPORT_HEADERS: Readonly<Record<'en' | 'de', Record<AuthorColumn, string>>> = {
  en: {
    given: 'Given name',
    family: 'Family name',
    orcid: 'ORCID',
    affiliations: 'Affiliations',
    role: 'Role',
    type: 'Type',
    name: 'Organization',
    identifiers: 'Other identifiers',
    affiliationIds: 'Affiliation IDs',
  },
  de: {
    given: 'Vorname',
    family: 'Nachname',
    orcid: 'ORCID',
    affiliations: 'Zugehörigkeiten',
    role: 'Rolle',
    type: 'Typ',
    name: 'Organisation',
    identifiers: 'Weitere Kennungen',
    affiliationIds: 'Zugehörigkeiten-IDs',
  },
};

/**
 * Header texts recognised for each column, folded (see `headerKey`): English and German, as
 * spreadsheets, reference managers and CITATION.cff name them. A German "Name" column is the
 * family name, as in most German lists of people.
 */
const HEADER_ALIASES: Readonly<Record<AuthorColumn, readonly string[]>> = {
  given: [
    'givenname',
    'givennames',
    'firstname',
    'firstnames',
    'forename',
    'forenames',
    'vorname',
    'vornamen',
  ],
  family: ['familyname', 'familynames', 'lastname', 'surname', 'name', 'nachname', 'familienname'],
  orcid: ['orcid', 'orcidid', 'orcidids'],
  affiliations: [
    'affiliation',
    'affiliations',
    'institution',
    'institutions',
    'affiliationen',
    'zugehorigkeit',
    'zugehorigkeiten',
    'institutionen',
    'einrichtung',
    'einrichtungen',
  ],
  role: ['role', 'roles', 'rolle', 'rollen', 'contributortype', 'contributorrole'],
  type: ['type', 'typ', 'kind', 'art'],
  name: [
    'organization',
    'organisation',
    'organizationname',
    'organisationname',
    'organisationsname',
    'korperschaft',
  ],
  identifiers: [
    'identifiers',
    'otheridentifiers',
    'kennungen',
    'weiterekennungen',
    'identifikatoren',
    'weitereidentifikatoren',
  ],
  affiliationIds: [
    'affiliationids',
    'affiliationid',
    'zugehorigkeitenids',
    'zugehorigkeitids',
    'affiliationenids',
  ],
};

const COLUMN_OF_HEADER: ReadonlyMap<string, AuthorColumn> = new Map(
  AUTHOR_COLUMNS.flatMap((column) => HEADER_ALIASES[column].map((alias) => [alias, column])),
);

const ORGANIZATION_TYPES = new Set([
  'organizational',
  'organisational',
  'organization',
  'organisation',
  'org',
  'korperschaft',
  'institution',
]);
const PERSON_TYPES = new Set(['personal', 'person', 'naturlicheperson', '']);

/** What can be wrong with one row; each is shown beside the row in the preview. */
export type AuthorProblem =
  | { kind: 'familyNameMissing' }
  | { kind: 'nameMissing' }
  | { kind: 'orcidInvalid'; value: string }
  | { kind: 'identifierInvalid'; value: string }
  | { kind: 'typeUnknown'; value: string }
  | { kind: 'roleUnknown'; value: string }
  | { kind: 'roleMissing' }
  | { kind: 'affiliationIdsMismatch' };

/** One row read: the creator it describes, and what was written for its role. */
export interface AuthorRow {
  /** Where it was: the line of a table, the position in a JSON or CFF list (from 1). */
  line: number;
  /** The creator, its role still unresolved (see `resolveRows`). */
  creator: CreatorFormValues;
  /** The role as written: an id or a label. */
  roleText: string;
  /** Problems found while reading, before the roles are known. */
  problems: AuthorProblem[];
}

/** The rows of a text, and how it was read. */
export interface ParsedAuthors {
  format: AuthorFormat;
  /** For a table: whether its first row was a header. */
  hasHeader: boolean;
  rows: AuthorRow[];
}

/** Why a text could not be read at all (rather than row by row). */
export class AuthorListError extends Error {
  constructor(
    readonly code: 'empty' | 'jsonInvalid' | 'jsonShape' | 'yamlInvalid' | 'cffShape' | 'binary',
    readonly detail = '',
  ) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = 'AuthorListError';
  }
}

/** A role as the vocabulary has it: id and label in the reader's language. */
export interface RoleChoice {
  id: string;
  label: string;
}

/** Lower case, no diacritics, letters and digits only: "Zugehörigkeiten-IDs" → "zugehorigkeitenids". */
function headerKey(text: string): string {
  return foldForSearch(text).replace(/[^\p{L}\p{N}]/gu, '');
}

/** Which format a text is in, by its content alone (a file's name may be wrong). */
export function detectFormat(text: string): AuthorFormat {
  const start = text.trimStart();
  if (start.startsWith('[') || start.startsWith('{')) return 'json';
  if (/^(?:cff-version|authors)\s*:/m.test(text)) return 'cff';
  return delimiterOf(text) === '\t' ? 'tsv' : 'csv';
}

/**
 * The delimiter of a table, from its first line: a tab where there is one (a spreadsheet's
 * copy), else whichever of comma and semicolon is more frequent outside quotes (spreadsheets
 * in German save CSV with semicolons, as the comma is their decimal mark).
 */
export function delimiterOf(text: string): '\t' | ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (char === '\t') return '\t';
    else if (char === ',') commas += 1;
    else if (char === ';') semicolons += 1;
    else if (char === '\n' || char === '\r') break;
  }
  return semicolons > commas ? ';' : ',';
}

/**
 * The cells of delimited text (RFC 4180): rows at line breaks (CRLF, LF or CR) outside quotes;
 * a quoted cell may hold delimiters, line breaks and doubled quotes. Each row carries the line it
 * started on, so the preview can point to it.
 */
export function splitDelimited(
  text: string,
  delimiter: string,
): Array<{ line: number; cells: string[] }> {
  const rows: Array<{ line: number; cells: string[] }> = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  // A byte-order mark, as spreadsheets write at the start of UTF-8 CSV, is no part of a cell.
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const endRow = () => {
    cells.push(cell);
    rows.push({ line: rowLine, cells });
    cells = [];
    cell = '';
  };
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i] as string;
    if (quoted) {
      if (char === '"') {
        if (source[i + 1] === '"') {
          cell += '"';
          i += 1;
        } else {
          quoted = false;
        }
      } else {
        if (char === '\n') line += 1;
        cell += char;
      }
    } else if (char === '"' && cell.trim() === '') {
      // A quote opens a quoted cell only at its start (spaces before it are dropped, as
      // spreadsheets do); elsewhere it is a character of the cell.
      quoted = true;
      cell = '';
    } else if (char === delimiter) {
      cells.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[i + 1] === '\n') i += 1;
      endRow();
      line += 1;
      rowLine = line;
    } else {
      cell += char;
    }
  }
  if (cell !== '' || cells.length > 0) endRow();
  return rows.filter((row) => row.cells.some((value) => value.trim() !== ''));
}

/**
 * A cell a spreadsheet would run as a formula: one starting with `=`, `+`, `-` or `@` (after any
 * apostrophes, so that the escape below can be undone exactly). A list of people written to be
 * opened in a spreadsheet must not run what someone typed as a name.
 */
const FORMULA_LIKE = /^'*[=+\-@]/;

/** Escapes a formula-like cell with a leading apostrophe, which spreadsheets show as text. */
function guardFormula(value: string): string {
  return FORMULA_LIKE.test(value) ? `'${value}` : value;
}

/** Undoes `guardFormula`: one apostrophe before a formula-like cell goes. */
function unguardFormula(value: string): string {
  return value.startsWith("'") && FORMULA_LIKE.test(value) ? value.slice(1) : value;
}

/** A cell as delimited text: quoted when it holds what would otherwise end it or change it. */
function quoteCell(value: string, delimiter: string): string {
  const needsQuotes =
    value.includes(delimiter) ||
    /["\r\n]/.test(value) ||
    value !== value.trim() ||
    // A leading quote would open a quoted cell when read back.
    value.startsWith('"');
  return needsQuotes ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * The columns a table's first row names, or undefined when it is not a header: it is one when
 * at least two of its cells (or its only cell) are known column names, and none is named twice.
 */
export function headerColumns(cells: readonly string[]): Array<AuthorColumn | null> | undefined {
  const columns = cells.map((cell) => COLUMN_OF_HEADER.get(headerKey(cell)) ?? null);
  const known = columns.filter((column) => column !== null);
  const filled = cells.filter((cell) => cell.trim() !== '').length;
  if (known.length === 0 || (known.length < 2 && filled > 1)) return undefined;
  if (new Set(known).size !== known.length) return undefined;
  return columns;
}

/** Reads a table of creators (see the file's comment); roles stay unresolved. */
export function parseTable(text: string, delimiter = delimiterOf(text)): ParsedAuthors {
  const rows = splitDelimited(text, delimiter);
  const first = rows[0];
  if (!first) throw new AuthorListError('empty');
  const header = headerColumns(first.cells);
  const columns = header ?? DEFAULT_COLUMNS;
  const body = header ? rows.slice(1) : rows;
  return {
    format: delimiter === '\t' ? 'tsv' : 'csv',
    hasHeader: header !== undefined,
    rows: body.map(({ line, cells }) => {
      const values: Partial<Record<AuthorColumn, string>> = {};
      columns.forEach((column, index) => {
        if (column !== null) values[column] = unguardFormula((cells[index] ?? '').trim());
      });
      return rowFromValues(line, values);
    }),
  };
}

function splitList(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return [];
  return value.split(LIST_SEPARATOR).map((part) => part.trim());
}

/**
 * An ORCID iD as entered (bare, with hyphens or spaces, or as its URL) as a creator's identifier,
 * with a problem when its check digit or range is wrong. The wrong one is kept as typed, so the
 * preview shows what was in the table.
 */
function orcidEntry(value: string): { entry: IdentifierFormValues; problem?: AuthorProblem } {
  if (isValidIdentifier('orcid', value)) {
    return { entry: { scheme: 'orcid', identifier: normalizeValidIdentifier('orcid', value) } };
  }
  return {
    entry: { scheme: 'orcid', identifier: value },
    problem: { kind: 'orcidInvalid', value },
  };
}

/** `scheme:identifier` (as written by `writeTable`), checked and normalised when it is known. */
function otherIdentifier(text: string): { entry: IdentifierFormValues; problem?: AuthorProblem } {
  const colon = text.indexOf(':');
  const scheme = colon > 0 ? text.slice(0, colon).trim().toLowerCase() : '';
  const identifier = colon > 0 ? text.slice(colon + 1).trim() : text;
  if (!isIdentifierScheme(scheme) || !isValidIdentifier(scheme, identifier)) {
    return { entry: { scheme, identifier }, problem: { kind: 'identifierInvalid', value: text } };
  }
  return { entry: { scheme, identifier: normalizeIdentifier(scheme, identifier) } };
}

/** The creator a row's cells describe (by column), and what is wrong with it. */
function rowFromValues(line: number, values: Partial<Record<AuthorColumn, string>>): AuthorRow {
  const problems: AuthorProblem[] = [];
  const given = values.given ?? '';
  const family = values.family ?? '';
  const name = values.name ?? '';
  const typeText = headerKey(values.type ?? '');
  let type: 'personal' | 'organizational';
  if (ORGANIZATION_TYPES.has(typeText)) type = 'organizational';
  else if (PERSON_TYPES.has(typeText)) {
    // Without a type, a row with an organisation's name and no person's names is one.
    type =
      typeText === '' && given === '' && family === '' && name !== ''
        ? 'organizational'
        : 'personal';
  } else {
    type = 'personal';
    problems.push({ kind: 'typeUnknown', value: values.type ?? '' });
  }
  const identifiers: IdentifierFormValues[] = [];
  for (const text of splitList(values.orcid)) {
    if (text === '') continue;
    const { entry, problem } = orcidEntry(text);
    identifiers.push(entry);
    if (problem) problems.push(problem);
  }
  for (const text of splitList(values.identifiers)) {
    if (text === '') continue;
    const { entry, problem } = otherIdentifier(text);
    identifiers.push(entry);
    if (problem) problems.push(problem);
  }
  const names = splitList(values.affiliations);
  const ids = splitList(values.affiliationIds);
  const idsFit = ids.length === 0 || ids.length === names.length;
  if (!idsFit) problems.push({ kind: 'affiliationIdsMismatch' });
  const affiliations: AffiliationFormValues[] = names
    .map((affiliation, index) => {
      const id = idsFit ? (ids[index] ?? '') : '';
      return id ? { id, name: affiliation || id } : { name: affiliation };
    })
    .filter((affiliation) => affiliation.name !== '');
  const isPerson = type === 'personal';
  if (isPerson && family === '') problems.push({ kind: 'familyNameMissing' });
  if (!isPerson && name === '') problems.push({ kind: 'nameMissing' });
  return {
    line,
    creator: {
      person_or_org: {
        type,
        given_name: isPerson ? given : '',
        family_name: isPerson ? family : '',
        name: isPerson ? '' : name,
        identifiers,
      },
      role: '',
      affiliations,
    },
    roleText: values.role ?? '',
    problems,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON value as a cell's text: lists joined by the separator, objects by their name or id. */
function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(cellText).join(`${LIST_SEPARATOR} `);
  if (isRecord(value)) return cellText(value['name'] ?? value['id'] ?? value['identifier']);
  if (typeof value === 'string') return value.trim();
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

/**
 * Reads JSON: a list of creators, or an object holding one (`creators`, `contributors`,
 * `authors`, or a record's `metadata.creators`). An entry with `person_or_org` is an InvenioRDM
 * creator and read as a draft's is; any other object is read by its keys as a table's header is
 * (`given_name`, `family_name`, `orcid`, `affiliations`, `role`…).
 */
export function parseJson(
  text: string,
  list: 'creators' | 'contributors' = 'creators',
): ParsedAuthors {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AuthorListError('jsonInvalid', error instanceof Error ? error.message : '');
  }
  const entries = jsonEntries(value, list);
  if (entries === undefined) throw new AuthorListError('jsonShape');
  return {
    format: 'json',
    hasHeader: false,
    rows: entries.map((entry, index) => jsonRow(index + 1, entry)),
  };
}

function jsonEntries(value: unknown, list: 'creators' | 'contributors'): unknown[] | undefined {
  if (Array.isArray(value)) return value as unknown[];
  if (!isRecord(value)) return undefined;
  for (const key of [list, 'creators', 'contributors', 'authors']) {
    const entries: unknown = value[key];
    if (Array.isArray(entries)) return entries as unknown[];
  }
  return isRecord(value['metadata']) ? jsonEntries(value['metadata'], list) : undefined;
}

function jsonRow(line: number, entry: unknown): AuthorRow {
  if (isRecord(entry) && isRecord(entry['person_or_org'])) return invenioRow(line, entry);
  const values: Partial<Record<AuthorColumn, string>> = {};
  if (isRecord(entry)) {
    for (const [key, value] of Object.entries(entry)) {
      const column = COLUMN_OF_HEADER.get(headerKey(key));
      if (column !== undefined && values[column] === undefined) values[column] = cellText(value);
    }
    // An affiliation given as `{id, name}` keeps its id.
    const affiliations = entry['affiliations'] ?? entry['affiliation'];
    if (Array.isArray(affiliations) && values.affiliationIds === undefined) {
      const ids = affiliations.map((a) => (isRecord(a) ? cellText(a['id']) : ''));
      if (ids.some(Boolean)) values.affiliationIds = ids.join(LIST_SEPARATOR);
    }
  }
  return rowFromValues(line, values);
}

/** An InvenioRDM creator, as a draft's is read; its identifiers checked as a table's are. */
function invenioRow(line: number, entry: Record<string, unknown>): AuthorRow {
  const creator = deserializeCreator(entry);
  const problems: AuthorProblem[] = [];
  const person = creator.person_or_org;
  person.identifiers = person.identifiers.map(({ scheme, identifier }) => {
    const checked =
      scheme === 'orcid' ? orcidEntry(identifier) : otherIdentifier(`${scheme}:${identifier}`);
    if (checked.problem) problems.push(checked.problem);
    return checked.entry;
  });
  if (person.type === 'personal' && person.family_name.trim() === '') {
    problems.push({ kind: 'familyNameMissing' });
  }
  if (person.type === 'organizational' && person.name.trim() === '') {
    problems.push({ kind: 'nameMissing' });
  }
  const roleText = creator.role;
  return { line, creator: { ...creator, role: '' }, roleText, problems };
}

/** A row with its role resolved against the vocabulary, and every problem it has. */
export interface ResolvedRow {
  line: number;
  creator: CreatorFormValues;
  problems: AuthorProblem[];
}

/**
 * Resolves each row's role to an id of `roles` (by id, or by label in the reader's language,
 * case and accents aside) and adds the role's problems: unknown, or missing where a role is
 * required (contributors).
 */
export function resolveRows(
  rows: readonly AuthorRow[],
  roles: readonly RoleChoice[],
  roleRequired: boolean,
): ResolvedRow[] {
  const byKey = new Map<string, string>();
  for (const role of roles) {
    byKey.set(headerKey(role.label), role.id);
    byKey.set(headerKey(role.id), role.id);
  }
  return rows.map(({ line, creator, roleText, problems }) => {
    const text = roleText.trim();
    const id = text === '' ? '' : byKey.get(headerKey(text));
    const roleProblems: AuthorProblem[] =
      id === undefined
        ? [{ kind: 'roleUnknown', value: text }]
        : id === '' && roleRequired
          ? [{ kind: 'roleMissing' }]
          : [];
    return {
      line,
      creator: { ...creator, role: id ?? '' },
      problems: [...problems, ...roleProblems],
    };
  });
}

/** The cells of a creator, by column. */
function valuesOf(creator: CreatorFormValues): Record<AuthorColumn, string> {
  const person = creator.person_or_org;
  const orcids = person.identifiers.filter((entry) => entry.scheme === 'orcid');
  // The first ORCID iD has its column; any other identifier goes to the other identifiers'.
  const [orcid] = orcids;
  const others = person.identifiers.filter((entry) => entry !== orcid);
  const hasIds = creator.affiliations.some((affiliation) => affiliation.id);
  return {
    given: person.given_name,
    family: person.family_name,
    orcid: orcid?.identifier ?? '',
    affiliations: creator.affiliations.map((a) => a.name || a.id || '').join(LIST_SEPARATOR),
    role: creator.role,
    type: person.type,
    name: person.name,
    identifiers: others.map((entry) => `${entry.scheme}:${entry.identifier}`).join(LIST_SEPARATOR),
    affiliationIds: hasIds ? creator.affiliations.map((a) => a.id ?? '').join(LIST_SEPARATOR) : '',
  };
}

/**
 * The list as a table with a header row (in English or German): every column, so that nothing
 * is lost on the way back; roles as their ids, which read back whatever the language.
 */
export function writeTable(
  creators: readonly CreatorFormValues[],
  format: TableFormat,
  language: 'en' | 'de' = 'en',
): string {
  const delimiter = format === 'tsv' ? '\t' : ',';
  const headers = EXPORT_HEADERS[language];
  const line = (cells: readonly string[]) =>
    cells.map((cell) => quoteCell(guardFormula(cell), delimiter)).join(delimiter);
  const lines = [line(AUTHOR_COLUMNS.map((column) => headers[column]))];
  for (const creator of creators) {
    const values = valuesOf(creator);
    lines.push(line(AUTHOR_COLUMNS.map((column) => values[column])));
  }
  // CRLF, as RFC 4180 and the spreadsheets that open the file expect.
  return `${lines.join('\r\n')}\r\n`;
}

/** The list as InvenioRDM's creator objects, as a draft would send them. */
export function writeJson(creators: readonly CreatorFormValues[]): string {
  return `${JSON.stringify(
    creators.map((creator) => removeEmptyValues(serializeCreator(creator)) ?? {}),
    null,
    2,
  )}\n`;
}
