import {
  edtfDate,
  emptyImport,
  list,
  obj,
  orcidOf,
  personFromName,
  str,
  type ImportedOrganisation,
  type ImportedPerson,
  type ImportedRecord,
} from './imported.js';

type Json = Record<string, unknown>;

function cffPerson(value: unknown): ImportedPerson | undefined {
  const p = obj(value);
  if (!p) return undefined;
  const family = str(p['family-names']);
  const given = str(p['given-names']);
  const orcid = orcidOf(p.orcid);
  const affiliations = list(p.affiliation).flatMap((a) => (str(a) ? [{ name: str(a)! }] : []));
  if (family) {
    const particle = str(p['name-particle']);
    return {
      type: 'personal',
      familyName: particle ? `${particle} ${family}` : family,
      ...(given ? { givenName: given } : {}),
      ...(orcid ? { orcid } : {}),
      identifiers: [],
      affiliations,
    };
  }
  const name = str(p.name) ?? given;
  return name ? { type: 'organizational', name, identifiers: [], affiliations } : undefined;
}

/** A `CITATION.cff` (Citation File Format 1.2), already parsed from YAML. */
export function fromCff(c: Json): ImportedRecord {
  const r = emptyImport();
  const type = str(c.type);
  r.resourceType =
    type === 'dataset'
      ? { id: 'dataset', text: type }
      : { id: 'software', text: type ?? 'software' };
  r.title = str(c.title);
  const abstract = str(c.abstract);
  if (abstract) r.description = abstract;
  r.creators = list(c.authors).flatMap((a) => cffPerson(a) ?? []);
  r.publicationDate = edtfDate(c['date-released']);
  r.version = str(c.version);
  r.keywords = list(c.keywords).flatMap((k) => str(k) ?? []);
  for (const l of list(c.license)) {
    const id = str(l);
    if (id) r.rights.push({ id, title: id });
  }
  const licenceUrl = str(c['license-url']);
  if (licenceUrl && r.rights.length === 0) r.rights.push({ url: licenceUrl });
  r.doi = str(c.doi);
  for (const i of list(c.identifiers)) {
    const o = obj(i);
    const value = str(o?.value);
    const scheme = str(o?.type);
    if (!value) continue;
    if (scheme === 'doi') r.doi ??= value;
    else r.identifiers.push({ identifier: value, ...(scheme === 'url' ? { scheme } : {}) });
  }
  const repository = str(c['repository-code']);
  if (repository)
    r.related.push({ identifier: repository, scheme: 'url', relation: 'IsSupplementTo' });
  const url = str(c.url);
  if (url) r.identifiers.push({ identifier: url, scheme: 'url' });
  return r;
}

function schemaOrgOrganisation(value: unknown): ImportedOrganisation | undefined {
  const o = obj(value);
  const name = str(o?.name) ?? str(o?.legalName) ?? str(value);
  const identifier = str(o?.['@id']) ?? str(o?.identifier);
  if (!name && !identifier) return undefined;
  return { ...(name ? { name } : {}), ...(identifier ? { identifier } : {}) };
}

function schemaOrgPerson(value: unknown): ImportedPerson | undefined {
  const p = obj(value);
  if (!p) return str(value) ? personFromName(str(value)!) : undefined;
  const affiliations = list(p.affiliation).flatMap((a) => schemaOrgOrganisation(a) ?? []);
  const orcid = orcidOf(p['@id']) ?? orcidOf(p.identifier);
  if (str(p['@type']) === 'Organization') {
    const org = schemaOrgOrganisation(p);
    return org?.name
      ? { type: 'organizational', name: org.name, identifiers: [], affiliations }
      : undefined;
  }
  const family = str(p.familyName);
  const given = str(p.givenName);
  const base = { identifiers: [], affiliations, ...(orcid ? { orcid } : {}) };
  if (family)
    return {
      type: 'personal',
      familyName: family,
      ...(given ? { givenName: given } : {}),
      ...base,
    };
  const name = str(p.name);
  return name ? { ...personFromName(name), ...base } : undefined;
}

/** A CodeMeta (2.0/3.0) `codemeta.json`: schema.org's SoftwareSourceCode in JSON-LD. */
export function fromCodeMeta(c: Json): ImportedRecord {
  const r = emptyImport();
  const type = str(c['@type']) ?? 'SoftwareSourceCode';
  r.resourceType = { schemaOrg: type, text: type };
  r.title = str(c.name);
  const description = str(c.description);
  if (description) r.description = description;
  r.creators = list(c.author).flatMap((a) => schemaOrgPerson(a) ?? []);
  r.contributors = list(c.contributor).flatMap((a) => {
    const p = schemaOrgPerson(a);
    return p ? [{ ...p, role: 'Other' }] : [];
  });
  r.publicationDate = edtfDate(c.datePublished) ?? edtfDate(c.dateCreated);
  const modified = edtfDate(c.dateModified);
  if (modified) r.dates.push({ date: modified, type: 'Updated' });
  r.version = str(c.version) ?? str(c.softwareVersion);
  r.keywords = list(c.keywords).flatMap((k) =>
    typeof k === 'string'
      ? k
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [],
  );
  for (const l of list(c.license)) {
    const s = str(l) ?? str(obj(l)?.['@id']) ?? str(obj(l)?.url);
    if (!s) continue;
    const spdx = /spdx\.org\/licenses\/([^/]+?)(\.html)?$/.exec(s)?.[1];
    r.rights.push(
      spdx ? { id: spdx, url: s } : /^https?:/.test(s) ? { url: s } : { id: s, title: s },
    );
  }
  const identifier = str(c.identifier) ?? str(c['@id']);
  if (identifier && /(^10\.|doi\.org\/)/.test(identifier)) r.doi = identifier;
  else if (identifier) r.identifiers.push({ identifier });
  const repository = str(c.codeRepository);
  if (repository)
    r.related.push({ identifier: repository, scheme: 'url', relation: 'IsSupplementTo' });
  for (const link of list(c.relatedLink)) {
    const s = str(link);
    if (s) r.related.push({ identifier: s, scheme: 'url', relation: 'References' });
  }
  r.publisher = schemaOrgOrganisation(c.publisher)?.name;
  for (const f of list(c.funding)) {
    const o = obj(f);
    const funder = schemaOrgOrganisation(o?.funder);
    const number = str(o?.identifier) ?? str(o?.name) ?? str(f);
    if (funder) r.funding.push({ funder, ...(number ? { awardNumber: number } : {}) });
  }
  for (const f of list(c.funder)) {
    const funder = schemaOrgOrganisation(f);
    if (funder && !r.funding.some((x) => x.funder.name === funder.name)) r.funding.push({ funder });
  }
  for (const l of list(c.programmingLanguage)) {
    const s = str(l) ?? str(obj(l)?.name);
    if (s) r.keywords.push(s);
  }
  return r;
}

function ref(value: unknown): string | undefined {
  return str(obj(value)?.id) ?? str(value);
}

function inveniordmPerson(value: unknown): ImportedPerson | undefined {
  const c = obj(value);
  const p = obj(c?.person_or_org);
  if (!p) return undefined;
  const ids = list(p.identifiers).flatMap((i) => {
    const identifier = str(obj(i)?.identifier);
    return identifier ? [{ identifier, scheme: str(obj(i)?.scheme) }] : [];
  });
  const orcid = ids.find((i) => i.scheme === 'orcid');
  const role = ref(c?.role);
  const affiliations = list(c?.affiliations).flatMap((a) => {
    const id = str(obj(a)?.id);
    const name = str(obj(a)?.name);
    return id || name ? [{ ...(id ? { identifier: id } : {}), ...(name ? { name } : {}) }] : [];
  });
  const personal = str(p.type) !== 'organizational';
  const family = str(p.family_name);
  const given = str(p.given_name);
  const name = str(p.name);
  return {
    type: personal ? 'personal' : 'organizational',
    ...(personal && family ? { familyName: family } : name ? { name } : {}),
    ...(personal && given ? { givenName: given } : {}),
    ...(orcid ? { orcid: orcid.identifier } : {}),
    identifiers: ids
      .filter((i) => i !== orcid)
      .map((i) => ({ identifier: i.identifier, ...(i.scheme ? { scheme: i.scheme } : {}) })),
    affiliations,
    ...(role ? { role } : {}),
  };
}

/** An InvenioRDM record or draft as its REST API answers (`metadata` in InvenioRDM's shapes). */
export function fromInvenioRdm(record: Json): ImportedRecord {
  const m = obj(record.metadata) ?? {};
  const r = emptyImport();
  const type = ref(m.resource_type);
  if (type) r.resourceType = { id: type, text: type };
  r.title = str(m.title);
  for (const t of list(m.additional_titles)) {
    const title = str(obj(t)?.title);
    if (title) r.additionalTitles.push({ title, type: ref(obj(t)?.type), lang: ref(obj(t)?.lang) });
  }
  r.publicationDate = str(m.publication_date);
  r.creators = list(m.creators).flatMap((c) => inveniordmPerson(c) ?? []);
  r.contributors = list(m.contributors).flatMap((c) => inveniordmPerson(c) ?? []);
  r.description = str(m.description);
  for (const d of list(m.additional_descriptions)) {
    const description = str(obj(d)?.description);
    if (description) {
      r.additionalDescriptions.push({
        description,
        type: ref(obj(d)?.type),
        lang: ref(obj(d)?.lang),
      });
    }
  }
  for (const x of list(m.rights)) {
    const o = obj(x);
    const id = str(o?.id);
    const title = str(obj(o?.title)?.en) ?? Object.values(obj(o?.title) ?? {}).map(str)[0];
    const url = str(o?.link) ?? str(obj(o?.props)?.url);
    r.rights.push({ ...(id ? { id } : {}), ...(title ? { title } : {}), ...(url ? { url } : {}) });
  }
  r.copyright = str(m.copyright);
  r.publisher = str(m.publisher);
  for (const s of list(m.subjects)) {
    const id = str(obj(s)?.id);
    const subject = str(obj(s)?.subject);
    if (id) r.subjectIds.push(id);
    else if (subject) r.keywords.push(subject);
  }
  r.languages = list(m.languages).flatMap((l) => ref(l) ?? []);
  for (const d of list(m.dates)) {
    const date = str(obj(d)?.date);
    const description = str(obj(d)?.description);
    if (date)
      r.dates.push({ date, type: ref(obj(d)?.type), ...(description ? { description } : {}) });
  }
  r.version = str(m.version);
  r.doi = str(obj(obj(record.pids)?.doi)?.identifier);
  for (const i of list(m.identifiers)) {
    const identifier = str(obj(i)?.identifier);
    if (identifier) r.identifiers.push({ identifier, scheme: str(obj(i)?.scheme) });
  }
  for (const i of list(m.related_identifiers)) {
    const o = obj(i);
    const identifier = str(o?.identifier);
    const rt = ref(o?.resource_type);
    if (identifier) {
      r.related.push({
        identifier,
        scheme: str(o?.scheme),
        relation: ref(o?.relation_type),
        ...(rt ? { resourceType: { id: rt } } : {}),
      });
    }
  }
  r.references = list(m.references).flatMap((x) => str(obj(x)?.reference) ?? []);
  for (const f of list(m.funding)) {
    const funder = obj(obj(f)?.funder);
    const award = obj(obj(f)?.award);
    const id = str(funder?.id);
    const name = str(funder?.name);
    if (!id && !name) continue;
    const number = str(award?.number);
    const title = str(obj(award?.title)?.en);
    r.funding.push({
      funder: { ...(id ? { identifier: id } : {}), ...(name ? { name } : {}) },
      ...(number ? { awardNumber: number } : {}),
      ...(title ? { awardTitle: title } : {}),
    });
  }
  r.sizes = list(m.sizes).flatMap((s) => str(s) ?? []);
  r.formats = list(m.formats).flatMap((s) => str(s) ?? []);
  for (const f of list(obj(m.locations)?.features)) {
    const place = str(obj(f)?.place);
    const description = str(obj(f)?.description);
    if (place || description) {
      r.locations.push({ ...(place ? { place } : {}), ...(description ? { description } : {}) });
    }
  }
  return r;
}

function zenodoPerson(value: unknown, role?: string): ImportedPerson | undefined {
  const p = obj(value);
  const name = str(p?.name);
  if (!name) return undefined;
  const orcid = orcidOf(p?.orcid);
  const affiliation = str(p?.affiliation);
  return personFromName(name, {
    ...(orcid ? { orcid } : {}),
    affiliations: affiliation ? [{ name: affiliation }] : [],
    ...(role ? { role } : {}),
  });
}

// Zenodo's legacy upload types, as InvenioRDM's resource type ids.
const ZENODO_TYPES: Record<string, string> = {
  poster: 'poster',
  presentation: 'presentation',
  dataset: 'dataset',
  image: 'image',
  video: 'video',
  software: 'software',
  lesson: 'lesson',
  physicalobject: 'physicalobject',
  other: 'other',
  publication: 'publication',
};

/** A record of Zenodo's legacy deposit API (`metadata.upload_type`, creators by `name`). */
export function fromZenodoLegacy(record: Json): ImportedRecord {
  const m = obj(record.metadata) ?? {};
  const r = emptyImport();
  const rt = obj(m.resource_type);
  const type = str(rt?.type) ?? str(m.upload_type);
  const subtype = str(rt?.subtype) ?? str(m.publication_type) ?? str(m.image_type);
  if (type) {
    r.resourceType = {
      id: subtype ? `${type}-${subtype}` : (ZENODO_TYPES[type] ?? type),
      text: [type, subtype].filter(Boolean).join(' / '),
    };
    if (subtype && type === 'publication' && subtype === 'article')
      r.resourceType.id = 'publication-article';
  }
  r.title = str(m.title);
  r.description = str(m.description);
  r.publicationDate = edtfDate(m.publication_date);
  r.creators = list(m.creators).flatMap((c) => zenodoPerson(c) ?? []);
  r.contributors = list(m.contributors).flatMap((c) => zenodoPerson(c, str(obj(c)?.type)) ?? []);
  r.keywords = list(m.keywords).flatMap((k) => str(k) ?? []);
  const language = str(m.language);
  if (language) r.languages.push(language);
  r.version = str(m.version);
  r.doi = str(m.doi) ?? str(record.doi);
  const license = str(obj(m.license)?.id) ?? str(m.license);
  if (license) r.rights.push({ id: license, title: license });
  for (const i of list(m.related_identifiers)) {
    const o = obj(i);
    const identifier = str(o?.identifier);
    if (identifier)
      r.related.push({ identifier, scheme: str(o?.scheme), relation: str(o?.relation) });
  }
  r.references = list(m.references).flatMap((x) => str(x) ?? []);
  const notes = str(m.notes);
  if (notes) r.additionalDescriptions.push({ description: notes, type: 'Other' });
  for (const g of list(m.grants)) {
    const o = obj(g);
    const number = str(o?.code) ?? str(o?.id);
    const funder = str(obj(o?.funder)?.name);
    if (funder || number) {
      r.funding.push({
        funder: funder ? { name: funder } : {},
        ...(number ? { awardNumber: number } : {}),
        ...(str(o?.title) ? { awardTitle: str(o?.title)! } : {}),
      });
    }
  }
  return r;
}
