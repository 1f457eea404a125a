import { XMLParser } from 'fast-xml-parser';
import {
  edtfDate,
  emptyImport,
  list,
  obj,
  orcidOf,
  str,
  type ImportedOrganisation,
  type ImportedPerson,
  type ImportedRecord,
} from './imported.js';

type Json = Record<string, unknown>;

function affiliation(value: unknown): ImportedOrganisation | undefined {
  const a = obj(value);
  const name = str(a?.name) ?? str(value);
  const identifier = str(a?.affiliationIdentifier);
  if (!name && !identifier) return undefined;
  return { ...(name ? { name } : {}), ...(identifier ? { identifier } : {}) };
}

function person(value: unknown, role?: string): ImportedPerson | undefined {
  const c = obj(value);
  if (!c) return undefined;
  const name = str(c.name);
  const given = str(c.givenName);
  const family = str(c.familyName);
  const ids = list(c.nameIdentifiers).flatMap((i) => {
    const o = obj(i);
    const identifier = str(o?.nameIdentifier);
    return identifier ? [{ identifier, scheme: str(o?.nameIdentifierScheme)?.toLowerCase() }] : [];
  });
  const orcid = ids.find((i) => i.scheme === 'orcid' || /orcid\.org/.test(i.identifier));
  // Without a nameType, a name with given and family parts, a comma or an ORCID iD is a person's.
  const nameType = str(c.nameType);
  const organizational =
    nameType === 'Organizational' ||
    (!nameType && !family && !given && !orcid && !name?.includes(','));
  const affiliations = list(c.affiliation).flatMap((a) => affiliation(a) ?? []);
  const base = {
    identifiers: ids
      .filter((i) => i !== orcid)
      .map((i) => ({ identifier: i.identifier, ...(i.scheme ? { scheme: i.scheme } : {}) })),
    affiliations,
    ...(role ? { role } : {}),
  };
  if (organizational) return name ? { type: 'organizational', name, ...base } : undefined;
  const orcidId = orcidOf(orcid?.identifier);
  const [nameFamily, nameGiven] = name?.includes(',') ? name.split(/,\s*/, 2) : [];
  const familyName = family ?? nameFamily ?? name;
  if (!familyName) return undefined;
  const givenName = given ?? nameGiven;
  return {
    type: 'personal',
    familyName,
    ...(givenName ? { givenName } : {}),
    ...(orcidId ? { orcid: orcidId } : {}),
    ...base,
  };
}

/**
 * DataCite's metadata as JSON: the `attributes` of its REST API (`GET /dois/{doi}`) or of a
 * `datacite+json` export; the XML form is first read into the same shape (`dataciteXmlToJson`).
 */
export function fromDataCite(a: Json): ImportedRecord {
  const r = emptyImport();
  const types = obj(a.types);
  const general = str(types?.resourceTypeGeneral);
  const specific = str(types?.resourceType);
  if (general || specific) {
    r.resourceType = {
      ...(general ? { dataciteGeneral: general } : {}),
      ...(specific ? { dataciteType: specific } : {}),
      text: [general, specific].filter(Boolean).join(' / '),
    };
  }
  for (const t of list(a.titles)) {
    const title = str(obj(t)?.title);
    if (!title) continue;
    const titleType = str(obj(t)?.titleType);
    const lang = str(obj(t)?.lang);
    if (!titleType && !r.title) r.title = title;
    else
      r.additionalTitles.push({
        title,
        ...(titleType ? { type: titleType } : {}),
        ...(lang ? { lang } : {}),
      });
  }
  r.creators = list(a.creators).flatMap((c) => person(c) ?? []);
  r.contributors = list(a.contributors).flatMap(
    (c) => person(c, str(obj(c)?.contributorType)) ?? [],
  );
  for (const d of list(a.descriptions)) {
    const description = str(obj(d)?.description);
    if (!description) continue;
    const type = str(obj(d)?.descriptionType);
    const lang = str(obj(d)?.lang);
    if (type === 'Abstract' && !r.description) r.description = description;
    else
      r.additionalDescriptions.push({
        description,
        ...(type ? { type } : {}),
        ...(lang ? { lang } : {}),
      });
  }
  r.publisher = str(obj(a.publisher)?.name) ?? str(a.publisher);
  for (const d of list(a.dates)) {
    const o = obj(d);
    const date = str(o?.date);
    const type = str(o?.dateType);
    if (!date) continue;
    const edtf = date.includes('/')
      ? date
          .split('/')
          .map((p) => edtfDate(p) ?? '..')
          .join('/')
      : edtfDate(date);
    if (!edtf) continue;
    if (type === 'Issued' && !r.publicationDate) r.publicationDate = edtf;
    else {
      const info = str(o?.dateInformation);
      r.dates.push({
        date: edtf,
        ...(type ? { type } : {}),
        ...(info ? { description: info } : {}),
      });
    }
  }
  r.publicationDate ??= edtfDate(a.publicationYear);
  r.keywords = list(a.subjects).flatMap((s) => str(obj(s)?.subject) ?? []);
  const language = str(a.language);
  if (language) r.languages.push(language);
  r.version = str(a.version);
  r.doi = str(a.doi);
  for (const i of [...list(a.identifiers), ...list(a.alternateIdentifiers)]) {
    const o = obj(i);
    const identifier = str(o?.identifier) ?? str(o?.alternateIdentifier);
    const scheme = str(o?.identifierType) ?? str(o?.alternateIdentifierType);
    if (!identifier) continue;
    if (scheme?.toUpperCase() === 'DOI') r.doi ??= identifier;
    else r.identifiers.push({ identifier, ...(scheme ? { scheme } : {}) });
  }
  for (const rel of list(a.relatedIdentifiers)) {
    const o = obj(rel);
    const identifier = str(o?.relatedIdentifier);
    if (!identifier) continue;
    const scheme = str(o?.relatedIdentifierType);
    const relation = str(o?.relationType);
    const general = str(o?.resourceTypeGeneral);
    r.related.push({
      identifier,
      ...(scheme ? { scheme } : {}),
      ...(relation ? { relation } : {}),
      ...(general ? { resourceType: { dataciteGeneral: general } } : {}),
    });
  }
  r.sizes = list(a.sizes).flatMap((s) => str(s) ?? []);
  r.formats = list(a.formats).flatMap((s) => str(s) ?? []);
  for (const rights of list(a.rightsList)) {
    const o = obj(rights);
    const id = str(o?.rightsIdentifier);
    const url = str(o?.rightsUri);
    const title = str(o?.rights);
    if (id || url || title) {
      r.rights.push({
        ...(id ? { id } : {}),
        ...(url ? { url } : {}),
        ...(title ? { title } : {}),
      });
    }
  }
  for (const g of list(a.geoLocations)) {
    const place = str(obj(g)?.geoLocationPlace);
    if (place) r.locations.push({ place });
  }
  for (const f of list(a.fundingReferences)) {
    const o = obj(f);
    const name = str(o?.funderName);
    const identifier = str(o?.funderIdentifier);
    const awardNumber = str(obj(o?.awardNumber)?.awardNumber) ?? str(o?.awardNumber);
    const awardUri = str(o?.awardUri) ?? str(obj(o?.awardNumber)?.awardUri);
    const awardTitle = str(o?.awardTitle);
    if (!name && !identifier) continue;
    r.funding.push({
      funder: { ...(name ? { name } : {}), ...(identifier ? { identifier } : {}) },
      ...(awardNumber ? { awardNumber } : {}),
      ...(awardUri ? { awardUri } : {}),
      ...(awardTitle ? { awardTitle } : {}),
    });
  }
  return r;
}

/** A DataCite JSON document: the REST API's `{data: {attributes}}` or the attributes alone. */
export function dataciteAttributes(json: Json): Json {
  return obj(obj(json.data)?.attributes) ?? json;
}

const REPEATED = new Set([
  'creator',
  'contributor',
  'title',
  'subject',
  'date',
  'alternateIdentifier',
  'relatedIdentifier',
  'size',
  'format',
  'rights',
  'description',
  'geoLocation',
  'fundingReference',
  'nameIdentifier',
  'affiliation',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (name) => REPEATED.has(name),
});

/** The element's text, whether the parser gave a string or an object with attributes. */
function text(node: unknown): string | undefined {
  return str(node) ?? str(obj(node)?.['#text']);
}

function attr(node: unknown, name: string): string | undefined {
  return str(obj(node)?.[`@${name}`]);
}

function xmlPerson(node: unknown, kind: 'creator' | 'contributor'): Json {
  const n = obj(node) ?? {};
  const nameNode = n[`${kind}Name`];
  return {
    name: text(nameNode),
    nameType: attr(nameNode, 'nameType'),
    givenName: text(n.givenName),
    familyName: text(n.familyName),
    contributorType: attr(node, 'contributorType'),
    nameIdentifiers: list(n.nameIdentifier).map((i) => ({
      nameIdentifier: text(i),
      nameIdentifierScheme: attr(i, 'nameIdentifierScheme'),
    })),
    affiliation: list(n.affiliation).map((a) => ({
      name: text(a),
      affiliationIdentifier: attr(a, 'affiliationIdentifier'),
    })),
  };
}

/**
 * DataCite's XML (kernel 4) read into the JSON shape its REST API answers, so that one mapping
 * serves both. Undefined when the text is not XML with a DataCite `resource` root.
 */
export function dataciteXmlToJson(xml: string): Json | undefined {
  let doc: Json;
  try {
    doc = parser.parse(xml, true) as Json;
  } catch {
    return undefined;
  }
  const resource = obj(doc.resource);
  if (!resource) return undefined;
  const group = (name: string, item: string) => list(obj(resource[name])?.[item]);
  const identifier = resource.identifier;
  const types = resource.resourceType;
  return {
    doi: attr(identifier, 'identifierType') === 'DOI' ? text(identifier) : undefined,
    creators: group('creators', 'creator').map((c) => xmlPerson(c, 'creator')),
    contributors: group('contributors', 'contributor').map((c) => xmlPerson(c, 'contributor')),
    titles: group('titles', 'title').map((t) => ({
      title: text(t),
      titleType: attr(t, 'titleType'),
      lang: attr(t, 'lang'),
    })),
    publisher: text(resource.publisher),
    publicationYear: text(resource.publicationYear),
    types: { resourceTypeGeneral: attr(types, 'resourceTypeGeneral'), resourceType: text(types) },
    subjects: group('subjects', 'subject').map((s) => ({ subject: text(s) })),
    dates: group('dates', 'date').map((d) => ({
      date: text(d),
      dateType: attr(d, 'dateType'),
      dateInformation: attr(d, 'dateInformation'),
    })),
    language: text(resource.language),
    alternateIdentifiers: group('alternateIdentifiers', 'alternateIdentifier').map((i) => ({
      alternateIdentifier: text(i),
      alternateIdentifierType: attr(i, 'alternateIdentifierType'),
    })),
    relatedIdentifiers: group('relatedIdentifiers', 'relatedIdentifier').map((i) => ({
      relatedIdentifier: text(i),
      relatedIdentifierType: attr(i, 'relatedIdentifierType'),
      relationType: attr(i, 'relationType'),
      resourceTypeGeneral: attr(i, 'resourceTypeGeneral'),
    })),
    sizes: group('sizes', 'size').map(text),
    formats: group('formats', 'format').map(text),
    version: text(resource.version),
    rightsList: group('rightsList', 'rights').map((x) => ({
      rights: text(x),
      rightsUri: attr(x, 'rightsURI'),
      rightsIdentifier: attr(x, 'rightsIdentifier'),
    })),
    descriptions: group('descriptions', 'description').map((d) => ({
      description: text(d),
      descriptionType: attr(d, 'descriptionType'),
      lang: attr(d, 'lang'),
    })),
    geoLocations: group('geoLocations', 'geoLocation').map((g) => ({
      geoLocationPlace: text(obj(g)?.geoLocationPlace),
    })),
    fundingReferences: group('fundingReferences', 'fundingReference').map((f) => {
      const o = obj(f) ?? {};
      return {
        funderName: text(o.funderName),
        funderIdentifier: text(o.funderIdentifier),
        awardNumber: text(o.awardNumber),
        awardUri: attr(o.awardNumber, 'awardURI'),
        awardTitle: text(o.awardTitle),
      };
    }),
  };
}
