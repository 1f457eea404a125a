/**
 * What a source says about a work, before anything is matched against Cairn's vocabularies: every
 * reader (CSL-JSON, DataCite, CITATION.cff, CodeMeta, InvenioRDM/Zenodo) fills this one shape, so
 * that matching names, organisations, licences, languages and types is written once
 * (`resolveImport`).
 */
export interface ImportedRecord {
  resourceType?: ImportedResourceType;
  title?: string;
  additionalTitles: Array<{ title: string; type?: string; lang?: string }>;
  publicationDate?: string;
  creators: ImportedPerson[];
  contributors: ImportedPerson[];
  description?: string;
  additionalDescriptions: Array<{ description: string; type?: string; lang?: string }>;
  rights: ImportedRights[];
  copyright?: string;
  publisher?: string;
  keywords: string[];
  /** Subjects the source names by vocabulary id (InvenioRDM records). */
  subjectIds: string[];
  /** ISO 639-1, ISO 639-3 or an English language name, as the source wrote it. */
  languages: string[];
  /** `type` is DataCite's dateType or an InvenioRDM date type id. */
  dates: Array<{ date: string; type?: string; description?: string }>;
  version?: string;
  /** The work's own DOI, offered as the draft's related identifier rather than its own PID. */
  doi?: string;
  identifiers: Array<{ identifier: string; scheme?: string }>;
  related: ImportedRelated[];
  references: string[];
  funding: ImportedFunding[];
  sizes: string[];
  formats: string[];
  locations: Array<{ place?: string; description?: string }>;
}

/** A type as any source names it; the first that matches the resource types vocabulary wins. */
export interface ImportedResourceType {
  /** An InvenioRDM resource type id (`dataset`, `publication-article`). */
  id?: string;
  dataciteGeneral?: string;
  dataciteType?: string;
  csl?: string;
  /** A schema.org type name (`SoftwareSourceCode`, `Dataset`). */
  schemaOrg?: string;
  /** The source's own wording, reported when nothing matches. */
  text?: string;
}

export interface ImportedPerson {
  type: 'personal' | 'organizational';
  name?: string;
  givenName?: string;
  familyName?: string;
  orcid?: string;
  /** Other identifiers of the person or organisation (ROR of an organisation, ISNI, GND). */
  identifiers: Array<{ identifier: string; scheme?: string }>;
  affiliations: ImportedOrganisation[];
  /** DataCite's contributorType or an InvenioRDM role id. */
  role?: string;
}

export interface ImportedOrganisation {
  name?: string;
  /** A ROR id or URL, or another identifier of the organisation (Crossref Funder DOI). */
  identifier?: string;
}

export interface ImportedRights {
  /** An SPDX id or InvenioRDM licence id (`CC-BY-4.0`, `cc-by-4.0`, `MIT`). */
  id?: string;
  url?: string;
  title?: string;
}

export interface ImportedRelated {
  identifier: string;
  scheme?: string;
  /** DataCite's relationType or an InvenioRDM relation type id. */
  relation?: string;
  resourceType?: ImportedResourceType;
}

export interface ImportedFunding {
  funder: ImportedOrganisation;
  awardNumber?: string;
  awardTitle?: string;
  awardUri?: string;
}

export function emptyImport(): ImportedRecord {
  return {
    additionalTitles: [],
    creators: [],
    contributors: [],
    additionalDescriptions: [],
    rights: [],
    keywords: [],
    subjectIds: [],
    languages: [],
    dates: [],
    identifiers: [],
    related: [],
    references: [],
    funding: [],
    sizes: [],
    formats: [],
    locations: [],
  };
}

/** A person from one display name: "Family, Given" split at the comma, otherwise kept whole. */
export function personFromName(name: string, extra: Partial<ImportedPerson> = {}): ImportedPerson {
  const comma = name.indexOf(',');
  const split =
    comma > 0
      ? { familyName: name.slice(0, comma).trim(), givenName: name.slice(comma + 1).trim() }
      : { name: name.trim() };
  return { type: 'personal', identifiers: [], affiliations: [], ...split, ...extra };
}

/** The trimmed string, or undefined for anything else or blank. */
export function str(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** `value` as a list: a single value becomes a list of one, nothing an empty list. */
export function list(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** A plain object, or undefined. */
export function obj(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** A date as EDTF wants it: the date part of a timestamp; undefined for anything unreadable. */
export function edtfDate(value: unknown): string | undefined {
  const s = str(value);
  if (!s) return undefined;
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(s);
  if (!match) return undefined;
  const [, y, m, d] = match;
  return [y, m, d].filter(Boolean).join('-');
}

/** An ORCID iD from a bare iD or its URL, or undefined. */
export function orcidOf(value: unknown): string | undefined {
  const s = str(value);
  const match = s && /(\d{4}-?\d{4}-?\d{4}-?\d{3}[\dXx])\s*$/.exec(s);
  return match ? match[1]!.toUpperCase() : undefined;
}
