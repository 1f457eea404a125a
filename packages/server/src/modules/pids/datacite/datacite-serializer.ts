import { iso6393To1 } from 'iso-639-3/iso6393-to-1.js';
import {
  descriptionTypeFixtures,
  relationTypeFixtures,
  roleFixtures,
  titleTypeFixtures,
  dateTypeFixtures,
} from '../../vocabularies/fixtures/datacite-types.js';
import { resourceTypeFixtures } from '../../vocabularies/fixtures/resource-types.js';

/** A vocabulary reference as records carry it: `{id}` on input, expanded with title/props on output. */
export interface VocabularyRef {
  id?: string;
  title?: Record<string, string>;
  props?: Record<string, string>;
}

/** `{scheme, identifier}`, as in creators' identifiers and `metadata.identifiers`. */
export interface SchemedIdentifier {
  scheme?: string;
  identifier: string;
}

/** One creator or contributor of a record. */
export interface RecordCreator {
  person_or_org: {
    type?: string;
    name?: string;
    given_name?: string;
    family_name?: string;
    identifiers?: SchemedIdentifier[];
  };
  affiliations?: Array<{ id?: string; name?: string }>;
  role?: VocabularyRef;
}

/** A persistent identifier in `pids` (`{doi: {identifier, provider, client}}`). */
export interface RecordPid {
  identifier: string;
  provider?: string;
  client?: string;
}

/** A published record as the records API returns it; only the fields DataCite uses are typed. */
export interface RecordForDataCite {
  id: string;
  metadata: {
    title: string;
    creators: RecordCreator[];
    publication_date: string;
    resource_type: VocabularyRef;
    publisher?: string;
    description?: string;
    additional_titles?: Array<{ title: string; type?: VocabularyRef; lang?: VocabularyRef }>;
    additional_descriptions?: Array<{
      description: string;
      type?: VocabularyRef;
      lang?: VocabularyRef;
    }>;
    subjects?: Array<{ id?: string; subject?: string; scheme?: string }>;
    contributors?: RecordCreator[];
    dates?: Array<{ date: string; type?: VocabularyRef; description?: string }>;
    languages?: VocabularyRef[];
    identifiers?: SchemedIdentifier[];
    related_identifiers?: Array<{
      identifier: string;
      scheme?: string;
      relation_type?: VocabularyRef;
      resource_type?: VocabularyRef;
    }>;
    rights?: Array<{
      id?: string;
      title?: Record<string, string>;
      description?: Record<string, string>;
      link?: string;
      props?: Record<string, string>;
    }>;
    funding?: Array<{
      funder?: { id?: string; name?: string };
      award?: {
        id?: string;
        number?: string;
        title?: Record<string, string>;
        identifiers?: SchemedIdentifier[];
      };
    }>;
    version?: string;
  };
  pids?: Record<string, RecordPid>;
  parent?: { id?: string; pids?: Record<string, RecordPid> };
}

/** A creator's or contributor's identifier (ORCID, ROR, ISNI, GND…). */
export interface DataCiteNameIdentifier {
  nameIdentifier: string;
  nameIdentifierScheme: string;
  schemeUri?: string;
}

/** An affiliation; the identifier is set for ROR-backed affiliations only. */
export interface DataCiteAffiliation {
  name: string;
  affiliationIdentifier?: string;
  affiliationIdentifierScheme?: string;
  schemeUri?: string;
}

/** A DataCite creator. */
export interface DataCiteCreator {
  name: string;
  nameType?: 'Personal' | 'Organizational';
  givenName?: string;
  familyName?: string;
  nameIdentifiers?: DataCiteNameIdentifier[];
  affiliation?: DataCiteAffiliation[];
}

/** A DataCite contributor: a creator with a contributorType. */
export interface DataCiteContributor extends DataCiteCreator {
  contributorType: string;
}

/** The metadata attributes of a DataCite DOI, without `doi`, `url` and `event` (the client adds those). */
export interface DataCiteAttributes {
  titles: Array<{ title: string; titleType?: string; lang?: string }>;
  creators: DataCiteCreator[];
  publisher: string;
  publicationYear: string;
  types: { resourceTypeGeneral: string; resourceType?: string };
  descriptions?: Array<{ description: string; descriptionType: string; lang?: string }>;
  subjects?: Array<{ subject: string; subjectScheme?: string; valueUri?: string }>;
  contributors?: DataCiteContributor[];
  dates?: Array<{ date: string; dateType: string; dateInformation?: string }>;
  language?: string;
  alternateIdentifiers?: Array<{ alternateIdentifier: string; alternateIdentifierType: string }>;
  relatedIdentifiers?: Array<{
    relatedIdentifier: string;
    relatedIdentifierType: string;
    relationType: string;
    resourceTypeGeneral?: string;
  }>;
  rightsList?: Array<{
    rights: string;
    rightsUri?: string;
    rightsIdentifier?: string;
    rightsIdentifierScheme?: string;
    schemeUri?: string;
  }>;
  fundingReferences?: Array<{
    funderName: string;
    funderIdentifier?: string;
    funderIdentifierType?: string;
    awardNumber?: string;
    awardUri?: string;
    awardTitle?: string;
  }>;
  version?: string;
  schemaVersion: 'http://datacite.org/schema/kernel-4';
}

/** What the serializer needs from configuration. */
export interface DataCiteSerializerOptions {
  /** Publisher to send when the record names none; DataCite requires one. */
  publisherFallback: string;
  /** Public base URL of the site, for the landing page given as an alternate identifier. */
  siteUrl: string;
  /** A concept DOI's versions: each is named as `HasVersion` (the versions name it `IsVersionOf`). */
  versionDois?: readonly string[];
}

/** Cairn scheme → DataCite relatedIdentifierType (the closed list of Metadata Schema 4.6). */
const RELATED_IDENTIFIER_TYPES: Readonly<Record<string, string>> = {
  ark: 'ARK',
  arxiv: 'arXiv',
  ads: 'bibcode',
  bibcode: 'bibcode',
  cstr: 'CSTR',
  doi: 'DOI',
  ean13: 'EAN13',
  eissn: 'EISSN',
  handle: 'Handle',
  igsn: 'IGSN',
  isbn: 'ISBN',
  issn: 'ISSN',
  istc: 'ISTC',
  lissn: 'LISSN',
  lsid: 'LSID',
  pmid: 'PMID',
  purl: 'PURL',
  rrid: 'RRID',
  upc: 'UPC',
  url: 'URL',
  urn: 'URN',
  w3id: 'w3id',
};

/** Person and organisation identifier schemes DataCite knows by name, with their scheme URIs. */
const NAME_SCHEMES: Readonly<Record<string, { scheme: string; uri: string }>> = {
  orcid: { scheme: 'ORCID', uri: 'https://orcid.org/' },
  ror: { scheme: 'ROR', uri: 'https://ror.org/' },
  isni: { scheme: 'ISNI', uri: 'https://isni.org/isni/' },
  gnd: { scheme: 'GND', uri: 'https://d-nb.info/gnd/' },
};

/** ROR ids: a leading 0, six base-32 characters (Crockford, no i/l/o/u) and a two-digit checksum. */
const ROR_ID = /^0[0-9a-hjkmnp-tv-z]{6}[0-9]{2}$/;
const CROSSREF_FUNDER_ID = /^10\.13039\/\S+$/;

type Lookup = {
  datacite: Map<string, string>;
  resourceTypes: Map<string, { general: string; type: string }>;
};
let lookup: Lookup | undefined;

/** Vocabulary id → DataCite value, from the shipped fixtures; built on first use. */
function tables(): Lookup {
  if (lookup) return lookup;
  const datacite = new Map<string, string>();
  const vocabularies = [
    ...titleTypeFixtures(),
    ...descriptionTypeFixtures(),
    ...dateTypeFixtures(),
    ...relationTypeFixtures(),
    ...roleFixtures('contributorsroles'),
  ];
  for (const f of vocabularies)
    if (f.props?.datacite) datacite.set(`${f.type}:${f.id}`, f.props.datacite);
  const resourceTypes = new Map(
    resourceTypeFixtures().map((f) => [
      f.id,
      { general: f.props?.datacite_general ?? 'Other', type: f.props?.datacite_type ?? '' },
    ]),
  );
  lookup = { datacite, resourceTypes };
  return lookup;
}

/** A record's vocabulary reference as DataCite's value: expanded props first, then the fixtures. */
function dataciteValue(type: string, ref: VocabularyRef | undefined): string | undefined {
  if (!ref) return undefined;
  return ref.props?.datacite || (ref.id ? tables().datacite.get(`${type}:${ref.id}`) : undefined);
}

export function resourceTypeOf(ref: VocabularyRef | undefined): {
  resourceTypeGeneral: string;
  resourceType?: string;
} {
  const known = ref?.id ? tables().resourceTypes.get(ref.id) : undefined;
  // An id Cairn does not ship ("image-map") falls back to its parent type ("image").
  const parent = ref?.id ? tables().resourceTypes.get(ref.id.split('-')[0] ?? '') : undefined;
  const general = ref?.props?.datacite_general || known?.general || parent?.general || 'Other';
  const specific = ref?.props?.datacite_type ?? known?.type ?? '';
  return { resourceTypeGeneral: general, ...(specific ? { resourceType: specific } : {}) };
}

/** DataCite wants BCP 47 language tags: ISO 639-1 where one exists, else the ISO 639-3 code. */
export function languageTag(ref: VocabularyRef | undefined): string | undefined {
  if (!ref?.id) return undefined;
  return ref.props?.alpha_2 || iso6393To1[ref.id] || ref.id;
}

export function localized(text: Record<string, string> | undefined): string | undefined {
  if (!text) return undefined;
  return text.en ?? Object.values(text).find((v) => v.trim() !== '');
}

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/**
 * Plain text from the sanitised HTML descriptions records carry. DataCite shows descriptions as
 * text, so tags would appear literally; block ends become line breaks to keep paragraphs apart.
 */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|blockquote|pre|tr)\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity: string, body: string) => {
      if (body[0] === '#') {
        const code =
          body[1] === 'x' || body[1] === 'X'
            ? parseInt(body.slice(2), 16)
            : parseInt(body.slice(1), 10);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
      }
      return ENTITIES[body.toLowerCase()] ?? entity;
    })
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function nameIdentifier(id: SchemedIdentifier): DataCiteNameIdentifier | undefined {
  const value = id.identifier.trim();
  if (!value || !id.scheme) return undefined;
  const known = NAME_SCHEMES[id.scheme.toLowerCase()];
  if (!known) return { nameIdentifier: value, nameIdentifierScheme: id.scheme };
  // DataCite's examples give ORCID and ROR ids as full URLs; records usually hold the bare id.
  const full = /^https?:\/\//i.test(value) ? value : known.uri + value;
  return {
    nameIdentifier: full,
    nameIdentifierScheme: known.scheme,
    schemeUri: known.uri.replace(/\/$/, ''),
  };
}

function affiliation(a: { id?: string; name?: string }): DataCiteAffiliation | undefined {
  // DataCite requires the name; an id-only affiliation is one the record was not expanded for.
  if (!a.name?.trim()) return undefined;
  if (!a.id || !ROR_ID.test(a.id)) return { name: a.name };
  return {
    name: a.name,
    affiliationIdentifier: `https://ror.org/${a.id}`,
    affiliationIdentifierScheme: 'ROR',
    schemeUri: 'https://ror.org',
  };
}

function creator(entry: RecordCreator): DataCiteCreator {
  const p = entry.person_or_org;
  const isPerson = p.type !== 'organizational';
  const personName = [p.family_name, p.given_name].filter((s) => s?.trim()).join(', ');
  const ids = (p.identifiers ?? []).map(nameIdentifier).filter((x) => x !== undefined);
  const affiliations = (entry.affiliations ?? []).map(affiliation).filter((x) => x !== undefined);
  return {
    name: p.name?.trim() || personName,
    nameType: isPerson ? 'Personal' : 'Organizational',
    ...(isPerson && p.given_name ? { givenName: p.given_name } : {}),
    ...(isPerson && p.family_name ? { familyName: p.family_name } : {}),
    ...(ids.length ? { nameIdentifiers: ids } : {}),
    ...(affiliations.length ? { affiliation: affiliations } : {}),
  };
}

function funderIdentifier(
  id: string | undefined,
): { funderIdentifier: string; funderIdentifierType: string } | undefined {
  if (!id) return undefined;
  if (ROR_ID.test(id))
    return { funderIdentifier: `https://ror.org/${id}`, funderIdentifierType: 'ROR' };
  if (CROSSREF_FUNDER_ID.test(id))
    return {
      funderIdentifier: `https://doi.org/${id}`,
      funderIdentifierType: 'Crossref Funder ID',
    };
  return undefined;
}

function nonEmpty<K extends string, T>(key: K, items: T[]): { [P in K]?: T[] } {
  return (items.length ? { [key]: items } : {}) as { [P in K]?: T[] };
}

/**
 * Converts a published record into DataCite Metadata Schema 4.x attributes for the REST API.
 *
 * Follows InvenioRDM's DataCite serializer where it has one: the publication date is also sent
 * as an Issued date, the landing page as a URL alternate identifier and the parent ("concept")
 * DOI as IsVersionOf. Related identifiers whose scheme or relation DataCite does not know are
 * left out rather than sent for DataCite to reject the whole registration.
 */
export function toDataCiteAttributes(
  record: RecordForDataCite,
  options: DataCiteSerializerOptions,
): DataCiteAttributes {
  const m = record.metadata;
  const ownDoi = record.pids?.doi?.identifier.toLowerCase();

  const titles: DataCiteAttributes['titles'] = [{ title: m.title }];
  for (const t of m.additional_titles ?? []) {
    if (!t.title.trim()) continue;
    const titleType = dataciteValue('titletypes', t.type);
    const lang = languageTag(t.lang);
    titles.push({ title: t.title, ...(titleType ? { titleType } : {}), ...(lang ? { lang } : {}) });
  }

  const descriptions: NonNullable<DataCiteAttributes['descriptions']> = [];
  const abstract = m.description ? htmlToText(m.description) : '';
  if (abstract) descriptions.push({ description: abstract, descriptionType: 'Abstract' });
  for (const d of m.additional_descriptions ?? []) {
    const text = htmlToText(d.description);
    if (!text) continue;
    const lang = languageTag(d.lang);
    descriptions.push({
      description: text,
      descriptionType: dataciteValue('descriptiontypes', d.type) ?? 'Other',
      ...(lang ? { lang } : {}),
    });
  }

  const subjects: NonNullable<DataCiteAttributes['subjects']> = [];
  for (const s of m.subjects ?? []) {
    if (!s.subject?.trim()) continue;
    subjects.push({
      subject: s.subject,
      ...(s.scheme ? { subjectScheme: s.scheme } : {}),
      ...(s.id && /^https?:\/\//.test(s.id) ? { valueUri: s.id } : {}),
    });
  }

  const contributors = (m.contributors ?? []).map((c) => ({
    ...creator(c),
    contributorType: dataciteValue('contributorsroles', c.role) ?? 'Other',
  }));

  const dates: NonNullable<DataCiteAttributes['dates']> = [];
  if (m.publication_date) dates.push({ date: m.publication_date, dateType: 'Issued' });
  for (const d of m.dates ?? []) {
    if (!d.date.trim()) continue;
    dates.push({
      date: d.date,
      dateType: dataciteValue('datetypes', d.type) ?? 'Other',
      ...(d.description ? { dateInformation: d.description } : {}),
    });
  }

  const alternateIdentifiers: NonNullable<DataCiteAttributes['alternateIdentifiers']> = [
    {
      alternateIdentifier: `${options.siteUrl.replace(/\/+$/, '')}/records/${record.id}`,
      alternateIdentifierType: 'URL',
    },
  ];
  for (const id of m.identifiers ?? []) {
    if (!id.identifier.trim()) continue;
    if (id.scheme?.toLowerCase() === 'doi' && id.identifier.toLowerCase() === ownDoi) continue;
    const scheme = id.scheme ?? 'Other';
    alternateIdentifiers.push({
      alternateIdentifier: id.identifier,
      alternateIdentifierType: RELATED_IDENTIFIER_TYPES[scheme.toLowerCase()] ?? scheme,
    });
  }

  const relatedIdentifiers: NonNullable<DataCiteAttributes['relatedIdentifiers']> = [];
  for (const r of m.related_identifiers ?? []) {
    const relatedIdentifierType = r.scheme
      ? RELATED_IDENTIFIER_TYPES[r.scheme.toLowerCase()]
      : undefined;
    const relationType = dataciteValue('relationtypes', r.relation_type);
    if (!relatedIdentifierType || !relationType || !r.identifier.trim()) continue;
    relatedIdentifiers.push({
      relatedIdentifier: r.identifier,
      relatedIdentifierType,
      relationType,
      ...(r.resource_type
        ? { resourceTypeGeneral: resourceTypeOf(r.resource_type).resourceTypeGeneral }
        : {}),
    });
  }
  const parentDoi = record.parent?.pids?.doi?.identifier;
  if (parentDoi && parentDoi.toLowerCase() !== ownDoi) {
    relatedIdentifiers.push({
      relatedIdentifier: parentDoi,
      relatedIdentifierType: 'DOI',
      relationType: 'IsVersionOf',
    });
  }
  for (const version of options.versionDois ?? []) {
    if (version.toLowerCase() === ownDoi) continue;
    relatedIdentifiers.push({
      relatedIdentifier: version,
      relatedIdentifierType: 'DOI',
      relationType: 'HasVersion',
    });
  }

  const rightsList: NonNullable<DataCiteAttributes['rightsList']> = [];
  for (const r of m.rights ?? []) {
    const rights = localized(r.title) ?? r.id;
    if (!rights) continue;
    const uri = r.props?.url || r.link;
    const isSpdx = r.id !== undefined && (r.props?.scheme ?? 'spdx') === 'spdx';
    rightsList.push({
      rights,
      ...(uri ? { rightsUri: uri } : {}),
      // DataCite's own examples give SPDX ids in the lower case InvenioRDM uses for its ids.
      ...(isSpdx && r.id
        ? {
            rightsIdentifier: r.id,
            rightsIdentifierScheme: 'SPDX',
            schemeUri: 'https://spdx.org/licenses/',
          }
        : {}),
    });
  }

  const fundingReferences: NonNullable<DataCiteAttributes['fundingReferences']> = [];
  for (const f of m.funding ?? []) {
    const funderName = f.funder?.name?.trim();
    if (!funderName) continue;
    const award = f.award;
    const awardTitle = localized(award?.title);
    const awardUri = award?.identifiers?.find((i) => i.scheme?.toLowerCase() === 'url')?.identifier;
    fundingReferences.push({
      funderName,
      ...funderIdentifier(f.funder?.id),
      ...(award?.number ? { awardNumber: award.number } : {}),
      ...(awardUri ? { awardUri } : {}),
      ...(awardTitle ? { awardTitle } : {}),
    });
  }

  const language = languageTag(m.languages?.[0]);
  return {
    titles,
    creators: m.creators.map(creator),
    publisher: m.publisher?.trim() || options.publisherFallback,
    publicationYear: m.publication_date.slice(0, 4),
    types: resourceTypeOf(m.resource_type),
    ...nonEmpty('descriptions', descriptions),
    ...nonEmpty('subjects', subjects),
    ...nonEmpty('contributors', contributors),
    ...nonEmpty('dates', dates),
    // DataCite holds a single language; InvenioRDM sends the first as well.
    ...(language ? { language } : {}),
    ...nonEmpty('alternateIdentifiers', alternateIdentifiers),
    ...nonEmpty('relatedIdentifiers', relatedIdentifiers),
    ...nonEmpty('rightsList', rightsList),
    ...nonEmpty('fundingReferences', fundingReferences),
    ...(m.version?.trim() ? { version: m.version.trim() } : {}),
    schemaVersion: 'http://datacite.org/schema/kernel-4',
  };
}
