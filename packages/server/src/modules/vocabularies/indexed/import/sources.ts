import type { IndexedType } from '../kinds.js';
import { csvObjects, jsonItems, type SourceRecord } from './readers.js';

/**
 * What each importer reads, turned into the shape the API accepts, so that an import and an
 * admin's POST are validated by the same schema. Mapping never looks anything up; references
 * (an award's funder, a person's affiliations) are resolved when the batch is stored.
 */
export type ImportFormat = 'csv' | 'json';

type Raw = Record<string, unknown>;

const ROR_PREFIX = /^https?:\/\/ror\.org\//i;
const FUNDREF_DOI_PREFIX = '10.13039/';

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(str).filter((v): v is string => v !== undefined) : [];
}

function defined<T extends Raw>(record: T): T {
  const out: Raw = {};
  for (const key in record) {
    const v = record[key];
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) out[key] = v;
  }
  return out as T;
}

/** A ROR record (schema v2 with `names`, or v1 with `name`) as an affiliation or funder. */
export function fromRor(raw: unknown, type: 'affiliations' | 'funders'): Raw {
  if (!raw || typeof raw !== 'object') throw new Error('Expected a ROR record object.');
  const r = raw as Raw;
  const rorUrl = str(r.id);
  if (!rorUrl || !ROR_PREFIX.test(rorUrl)) throw new Error('id: not a ROR id (https://ror.org/…).');
  const id = rorUrl.replace(ROR_PREFIX, '');
  const title: Record<string, string> = {};
  let name: string | undefined;
  let acronym: string | undefined;
  let aliases: string[] = [];
  let country: string | undefined;
  let countryName: string | undefined;
  let location: string | undefined;
  const external: Record<string, { preferred?: string; all: string[] }> = {};
  if (Array.isArray(r.names)) {
    for (const entry of r.names as Raw[]) {
      const value = str(entry.value);
      const types = strings(entry.types);
      if (!value) continue;
      if (types.includes('ror_display')) name = value;
      if (types.includes('acronym')) acronym ??= value;
      if (types.includes('alias')) aliases.push(value);
      const lang = str(entry.lang);
      if (lang && (types.includes('label') || types.includes('ror_display'))) title[lang] ??= value;
    }
    const geo = ((r.locations as Raw[] | undefined)?.[0]?.geonames_details ?? {}) as Raw;
    country = str(geo.country_code);
    countryName = str(geo.country_name);
    location = str(geo.name);
    for (const ext of (r.external_ids as Raw[] | undefined) ?? []) {
      const kind = str(ext.type)?.toLowerCase();
      if (kind) external[kind] = { preferred: str(ext.preferred), all: strings(ext.all) };
    }
  } else {
    name = str(r.name);
    acronym = strings(r.acronyms)[0];
    aliases = strings(r.aliases);
    for (const label of (r.labels as Raw[] | undefined) ?? []) {
      const lang = str(label.iso639);
      const value = str(label.label);
      if (lang && value) title[lang] ??= value;
    }
    const c = (r.country ?? {}) as Raw;
    country = str(c.country_code);
    countryName = str(c.country_name);
    location = str(((r.addresses as Raw[] | undefined)?.[0] ?? {}).city);
    for (const [kind, ext] of Object.entries((r.external_ids ?? {}) as Record<string, Raw>)) {
      const all = Array.isArray(ext.all) ? strings(ext.all) : strings([ext.all]);
      external[kind.toLowerCase()] = { preferred: str(ext.preferred), all };
    }
  }
  if (name) title.en ??= name;
  const pick = (kind: string) => external[kind]?.preferred ?? external[kind]?.all[0];
  const identifiers = [{ scheme: 'ror', identifier: id }];
  const isni = pick('isni');
  if (isni) identifiers.push({ scheme: 'isni', identifier: isni });
  const grid = pick('grid');
  if (grid) identifiers.push({ scheme: 'grid', identifier: grid });
  const wikidata = pick('wikidata');
  if (wikidata) identifiers.push({ scheme: 'wikidata', identifier: wikidata });
  const fundref = pick('fundref');
  // Crossref's funder registry ids are DOIs under 10.13039; funders are cited by them.
  if (fundref && type === 'funders') {
    identifiers.push({ scheme: 'doi', identifier: `${FUNDREF_DOI_PREFIX}${fundref}` });
  }
  return defined({
    id,
    name,
    acronym,
    aliases,
    title,
    country,
    country_name: countryName,
    location_name: location,
    status: str(r.status),
    types: strings(r.types),
    identifiers,
  });
}

const ORCID_URL = /^https?:\/\/orcid\.org\//i;
const ROR_ID = /^(?:https?:\/\/ror\.org\/)?(0[a-hj-km-np-tv-z0-9]{6}[0-9]{2})$/i;

/** One affiliation as a dump gives it: a ROR id (or URL) becomes a reference, anything else a name. */
function affiliation(value: string): Raw {
  const ror = ROR_ID.exec(value);
  return ror ? { id: ror[1]!.toLowerCase() } : { name: value };
}

/** A names CSV row (ORCID-style columns) or JSON object (InvenioRDM's names shape). */
export function fromName(raw: unknown, format: ImportFormat): Raw {
  if (format === 'json') {
    if (!raw || typeof raw !== 'object') throw new Error('Expected an object.');
    const r = raw as Raw;
    const orcid = str(r.orcid);
    const identifiers = Array.isArray(r.identifiers) ? (r.identifiers as Raw[]) : [];
    const affiliations = Array.isArray(r.affiliations)
      ? (r.affiliations as unknown[]).map((a) => (typeof a === 'string' ? affiliation(a) : a))
      : undefined;
    return defined({
      ...r,
      ...(orcid
        ? {
            orcid: undefined,
            identifiers: [
              ...identifiers,
              { scheme: 'orcid', identifier: orcid.replace(ORCID_URL, '') },
            ],
          }
        : {}),
      affiliations,
    });
  }
  const r = raw as Record<string, string>;
  const orcid = r.orcid ?? r['orcid id'] ?? r.orcid_id;
  return defined({
    id: r.id,
    given_name: r.given_name ?? r.given_names ?? r.first_name,
    family_name: r.family_name ?? r.last_name ?? r.surname,
    name: r.name,
    identifiers: orcid
      ? [{ scheme: 'orcid', identifier: orcid.replace(ORCID_URL, '') }]
      : undefined,
    affiliations: (r.affiliations ?? r.affiliation ?? '')
      .split(';')
      .map((a) => a.trim())
      .filter((a) => a !== '')
      .map(affiliation),
  });
}

/** An award: `funder, number, title, acronym[, program, url]` columns or the API's shape. */
export function fromAward(raw: unknown, format: ImportFormat, locale: string): Raw {
  if (!raw || typeof raw !== 'object') throw new Error('Expected an object.');
  const r = raw as Raw;
  const funder =
    typeof r.funder === 'string' ? { id: r.funder.replace(ROR_PREFIX, '') } : (r.funder as Raw);
  const title = typeof r.title === 'string' ? { [locale]: r.title } : r.title;
  const url = str(r.url);
  const identifiers =
    format === 'csv' || url
      ? url
        ? [{ scheme: 'url', identifier: url }]
        : undefined
      : r.identifiers;
  return defined({ ...r, funder, title, url: undefined, identifiers });
}

/** A subject: `id, subject, scheme` columns or the API's shape. */
export function fromSubject(raw: unknown): Raw {
  if (!raw || typeof raw !== 'object') throw new Error('Expected an object.');
  return raw as Raw;
}

/** Which formats each type's importer reads, and the one assumed from a file's extension. */
export const IMPORT_FORMATS: Readonly<Record<IndexedType, readonly ImportFormat[]>> = {
  affiliations: ['json'],
  funders: ['json'],
  names: ['csv', 'json'],
  awards: ['csv', 'json'],
  subjects: ['csv', 'json'],
};

/** The file's format by its extension, or a message when this type cannot be read from it. */
export function formatOf(
  type: IndexedType,
  file: string,
): { format: ImportFormat } | { problem: string } {
  const formats = IMPORT_FORMATS[type];
  const ext = /\.csv$/i.test(file) ? 'csv' : 'json';
  return formats.includes(ext)
    ? { format: ext }
    : { problem: `${type} are imported from ${formats.join(' or ')}, not ${ext}` };
}

/** The records of a dump mapped to API input, each with its line, or the reason it is unusable. */
export async function* importRecords(
  type: IndexedType,
  format: ImportFormat,
  bytes: AsyncIterable<Buffer | string>,
  locale: string,
): AsyncGenerator<SourceRecord<Raw> | { line: number; error: string }> {
  const records: AsyncIterable<SourceRecord<unknown>> =
    format === 'csv' ? csvObjects(bytes) : jsonItems(bytes);
  for await (const { line, value } of records) {
    try {
      const mapped =
        type === 'affiliations' || type === 'funders'
          ? fromRor(value, type)
          : type === 'names'
            ? fromName(value, format)
            : type === 'awards'
              ? fromAward(value, format, locale)
              : fromSubject(value);
      yield { line, value: mapped };
    } catch (error) {
      yield { line, error: (error as Error).message };
    }
  }
}
