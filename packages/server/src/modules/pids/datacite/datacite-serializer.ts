import {
  descriptionTypeFixtures,
  relationTypeFixtures,
  roleFixtures,
  titleTypeFixtures,
  dateTypeFixtures,
} from '../../vocabularies/fixtures/datacite-types.js';
import { resourceTypeFixtures } from '../../vocabularies/fixtures/resource-types.js';
import { htmlToText, languageTag, localized } from '../../../lib/record-text.js';
import type {
  DataCiteAffiliation,
  DataCiteGeoLocation,
  DataCiteAttributes,
  DataCiteCreator,
  DataCiteNameIdentifier,
  RecordCreator,
  RecordForDataCite,
  SchemedIdentifier,
  VocabularyRef,
} from './datacite-types.js';

export type * from './datacite-types.js';

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

/**
 * DataCite's relationType list has no "Other", unlike Cairn's relation vocabulary (InvenioRDM's):
 * such a relation names nothing DataCite can store, and would fail the whole registration.
 */
const NOT_A_DATACITE_RELATION = 'Other';

/**
 * A location as DataCite holds it: the place name and a GeoJSON point (longitude first, as
 * GeoJSON orders it). Other geometries are left out: DataCite's boxes and polygons are not
 * GeoJSON's, and a wrong shape would be worse than none.
 */
function geoLocation(feature: {
  geometry?: Record<string, unknown>;
  place?: string;
}): DataCiteGeoLocation | undefined {
  const place = feature.place?.trim();
  const g = feature.geometry;
  const coordinates = g?.type === 'Point' && Array.isArray(g.coordinates) ? g.coordinates : [];
  const [lon, lat] = coordinates as unknown[];
  const point =
    typeof lon === 'number' &&
    typeof lat === 'number' &&
    Math.abs(lon) <= 180 &&
    Math.abs(lat) <= 90
      ? { pointLongitude: lon, pointLatitude: lat }
      : undefined;
  if (!place && !point) return undefined;
  return {
    ...(place ? { geoLocationPlace: place } : {}),
    ...(point ? { geoLocationPoint: point } : {}),
  };
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
    if (relationType === NOT_A_DATACITE_RELATION) continue;
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

  const geoLocations = (m.locations?.features ?? [])
    .map(geoLocation)
    .filter((x) => x !== undefined);
  const sizes = (m.sizes ?? []).filter((x) => x.trim());
  const formats = (m.formats ?? []).filter((x) => x.trim());

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
    ...nonEmpty('sizes', sizes),
    ...nonEmpty('formats', formats),
    ...nonEmpty('rightsList', rightsList),
    ...nonEmpty('fundingReferences', fundingReferences),
    ...nonEmpty('geoLocations', geoLocations),
    ...(m.version?.trim() ? { version: m.version.trim() } : {}),
    schemaVersion: 'http://datacite.org/schema/kernel-4',
  };
}
