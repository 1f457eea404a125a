import {
  detectSchemes,
  isIdentifierScheme,
  normalizeDoi,
  type Creator,
  type Metadata,
} from '@cairn/shared';
import { sanitizeRichText } from '../../../lib/html.js';
import type { IndexedItem } from '../../vocabularies/indexed/kinds.js';
import type { VocabularyEntry } from '../../vocabularies/vocabularies.service.js';
import type {
  ImportedOrganisation,
  ImportedPerson,
  ImportedRecord,
  ImportedResourceType,
  ImportedRights,
} from './imported.js';

/** The vocabularies an import is matched against. */
export interface ImportVocabularies {
  /** Every entry of a small vocabulary (resource types, licences, languages, relation types…). */
  list(type: string): Promise<VocabularyEntry[]>;
  /** For each of `wanted`, the item of names, affiliations or funders it names exactly. */
  findExact(
    type: 'names' | 'affiliations' | 'funders',
    wanted: ReadonlyArray<{ identifier?: string; label?: string }>,
  ): Promise<Array<IndexedItem | undefined>>;
  /** Which of `ids` the subjects vocabulary has. */
  existing(type: 'subjects', ids: string[]): Promise<Set<string>>;
}

/** A value the import keeps as free text (or leaves out) because no vocabulary entry matched. */
export interface Unmatched {
  /** Where in `metadata` it is, as the draft's errors name fields: `metadata.creators.0…`. */
  field: string;
  value: string;
  /** `free_text`: kept as typed; `dropped`: the field takes vocabulary entries only. */
  kept: 'free_text' | 'dropped';
}

/**
 * A small vocabulary indexed every way an import names its entries: by id, then by each kind of
 * key in the order `keys` gives them, so that an earlier kind wins a clash ("en" is English's
 * ISO 639-1 code before it is the title of the language En).
 */
class SmallVocabulary {
  private readonly byKey = new Map<string, string>();
  constructor(
    entries: VocabularyEntry[],
    keys: (entry: VocabularyEntry) => Array<string | undefined>,
  ) {
    const tiers = entries.map((entry) => [entry.id, ...keys(entry)]);
    const depth = Math.max(0, ...tiers.map((t) => t.length));
    for (let tier = 0; tier < depth; tier++) {
      entries.forEach((entry, i) => {
        const k = tiers[i]![tier]?.trim().toLowerCase();
        // The first entry keeps a key: the fixtures list the general type before its subtypes.
        if (k && !this.byKey.has(k)) this.byKey.set(k, entry.id);
      });
    }
  }
  find(...names: Array<string | undefined>): string | undefined {
    for (const name of names) {
      const id = name ? this.byKey.get(name.trim().toLowerCase()) : undefined;
      if (id) return id;
    }
    return undefined;
  }
}

/** CSL's item types as InvenioRDM's resource types (the fixtures' `csl` column read backwards). */
const CSL_TYPES: Record<string, string> = {
  article: 'publication-preprint',
  'article-journal': 'publication-article',
  'article-magazine': 'publication-article',
  'article-newspaper': 'publication-article',
  book: 'publication-book',
  chapter: 'publication-section',
  dataset: 'dataset',
  figure: 'image-figure',
  graphic: 'image',
  manuscript: 'publication-workingpaper',
  motion_picture: 'video',
  'paper-conference': 'publication-conferencepaper',
  patent: 'publication-patent',
  report: 'publication-report',
  review: 'publication-peerreview',
  software: 'software',
  song: 'audio',
  speech: 'presentation',
  standard: 'publication-standard',
  thesis: 'publication-dissertation',
};

/** The licence URL reduced to what tells licences apart (no scheme, `www`, legal code or deed). */
function licenceUrlKey(url: string): string {
  return url
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\/(www\.)?/, '')
    .replace(/\/(legalcode|deed)(\.[a-z-]+)?$/, '')
    .replace(/\/+$/, '');
}

/** `creativecommons.org/licenses/by-nc/4.0` → `cc-by-nc-4.0`; `publicdomain/zero/1.0` → `cc0-1.0`. */
function creativeCommonsId(url: string): string | undefined {
  const key = licenceUrlKey(url);
  const match = /^creativecommons\.org\/licenses\/([a-z-]+)\/(\d\.\d)(?:\/([a-z]+))?$/.exec(key);
  if (match) return `cc-${match[1]}-${match[2]}${match[3] ? `-${match[3]}` : ''}`;
  return /^creativecommons\.org\/publicdomain\/zero\/1\.0$/.test(key) ? 'cc0-1.0' : undefined;
}

/**
 * Turns what a source said into the draft's `metadata`, matching against Cairn's vocabularies:
 * names by ORCID, organisations by ROR (or their exact name), licences to SPDX, languages to ISO
 * 639-3, types to resource types. What matches nothing stays free text where the field allows it,
 * is left out where it does not, and is listed in `unmatched` either way.
 */
export async function resolveImport(
  imported: ImportedRecord,
  vocab: ImportVocabularies,
): Promise<{ metadata: Metadata; unmatched: Unmatched[] }> {
  const unmatched: Unmatched[] = [];
  const free = (field: string, value: string) =>
    unmatched.push({ field: `metadata.${field}`, value, kept: 'free_text' });
  const dropped = (field: string, value: string) =>
    unmatched.push({ field: `metadata.${field}`, value, kept: 'dropped' });

  const withDatacite = async (type: string) =>
    new SmallVocabulary(await vocab.list(type), (e) => [e.props?.datacite, e.title.en]);
  const [resourceTypes, licences, languages, relations, dateTypes, titleTypes, descTypes] =
    await Promise.all([
      vocab.list('resourcetypes').then((entries) => ({
        entries,
        general: new SmallVocabulary(entries, (e) => [
          e.props?.datacite_type ? undefined : e.props?.datacite_general,
          e.props?.['schema.org']?.replace('https://schema.org/', ''),
          e.title.en,
        ]),
      })),
      vocab
        .list('licenses')
        .then(
          (entries) =>
            new SmallVocabulary(entries, (e) => [
              e.props?.url ? licenceUrlKey(e.props.url) : undefined,
              e.title.en,
            ]),
        ),
      vocab
        .list('languages')
        .then((entries) => new SmallVocabulary(entries, (e) => [e.props?.alpha_2, e.title.en])),
      withDatacite('relationtypes'),
      withDatacite('datetypes'),
      withDatacite('titletypes'),
      withDatacite('descriptiontypes'),
    ]);
  const creatorRoles = await withDatacite('creatorsroles');
  const contributorRoles = await withDatacite('contributorsroles');

  function resourceType(t: ImportedResourceType | undefined): string | undefined {
    if (!t) return undefined;
    if (t.id && resourceTypes.entries.some((e) => e.id === t.id)) return t.id;
    // DataCite's general type with its free-text subtype ("Image" / "Photo") names a subtype.
    const specific =
      t.dataciteGeneral && t.dataciteType
        ? resourceTypes.entries.find(
            (e) =>
              e.props?.datacite_general === t.dataciteGeneral &&
              e.props?.datacite_type?.toLowerCase() === t.dataciteType?.toLowerCase(),
          )
        : undefined;
    if (specific) return specific.id;
    return (
      resourceTypes.general.find(t.dataciteGeneral, t.schemaOrg) ??
      (t.csl ? resourceTypes.general.find(CSL_TYPES[t.csl]) : undefined) ??
      resourceTypes.general.find(t.text)
    );
  }

  // Every name, affiliation and funder is looked up before anything is mapped, one batch per
  // vocabulary: an author list of thousands costs a few queries, not one per author.
  const persons = [...imported.creators, ...imported.contributors];
  const names = await matchAll(vocab, 'names', persons, (p) =>
    p.type === 'personal' && p.orcid ? { identifier: p.orcid } : {},
  );
  const affiliationsOf = new Map<ImportedPerson, ImportedOrganisation[]>();
  for (const p of persons) {
    const known = names.get(p) as KnownName | undefined;
    affiliationsOf.set(
      p,
      p.affiliations.length
        ? p.affiliations
        : (known?.affiliations ?? []).map((a) => ({
            ...(a.id ? { identifier: a.id } : {}),
            ...(a.name ? { name: a.name } : {}),
          })),
    );
  }
  const organisations = await matchAll(
    vocab,
    'affiliations',
    [...affiliationsOf.values()].flat(),
    organisationWanted,
  );
  const funders = await matchAll(
    vocab,
    'funders',
    imported.funding.map((f) => f.funder),
    organisationWanted,
  );

  function organisation(
    org: ImportedOrganisation,
    found: IndexedItem | undefined,
    field: string,
  ): { id: string } | { name: string } | undefined {
    if (found) return { id: found.id };
    const label = org.name ?? org.identifier;
    if (!label) return undefined;
    free(field, label);
    return { name: label };
  }

  function person(p: ImportedPerson, field: string, roles: SmallVocabulary): Creator {
    const orcid = p.orcid;
    const known = names.get(p) as KnownName | undefined;
    const givenName = p.givenName ?? known?.given_name;
    const familyName = p.familyName ?? known?.family_name;
    const identifiers = [
      ...(orcid ? [{ scheme: 'orcid', identifier: orcid }] : []),
      ...p.identifiers.flatMap((i) => identifierEntry(i.identifier, i.scheme)),
    ];
    const display =
      p.name ?? ([familyName, givenName].filter(Boolean).join(', ') || known?.name || '');
    if (!known && identifiers.length === 0 && display) free(`${field}.person_or_org`, display);
    const affiliations: Array<{ id: string } | { name: string }> = [];
    for (const a of affiliationsOf.get(p) ?? []) {
      const where = `${field}.affiliations.${affiliations.length}`;
      const resolved = organisation(a, organisations.get(a), where);
      if (resolved) affiliations.push(resolved);
    }
    const role = p.role ? roles.find(p.role) : undefined;
    if (p.role && !role) dropped(`${field}.role`, p.role);
    return {
      person_or_org: {
        type: p.type,
        ...(p.type === 'personal' && familyName
          ? { family_name: familyName, ...(givenName ? { given_name: givenName } : {}) }
          : { name: display }),
        ...(identifiers.length ? { identifiers: identifiers as never } : {}),
      },
      ...(role ? { role: { id: role } } : {}),
      ...(affiliations.length ? { affiliations } : {}),
    };
  }

  function rights(r: ImportedRights, index: number) {
    const id =
      licences.find(r.id, r.url ? licenceUrlKey(r.url) : undefined, r.title) ??
      (r.url ? licences.find(creativeCommonsId(r.url)) : undefined);
    if (id) return { id };
    const title = r.title ?? r.id ?? r.url;
    if (!title) return undefined;
    free(`rights.${index}`, title);
    return {
      title: { en: title },
      ...(r.url && /^https?:\/\//.test(r.url) ? { link: r.url } : {}),
    };
  }

  const m: Metadata = {};
  const rt = resourceType(imported.resourceType);
  if (rt) m.resource_type = { id: rt };
  else {
    const t = imported.resourceType;
    const text = t && (t.text ?? t.dataciteGeneral ?? t.csl ?? t.schemaOrg ?? t.id);
    if (text) dropped('resource_type', text);
  }
  if (imported.title) m.title = imported.title;
  if (imported.additionalTitles.length) {
    m.additional_titles = imported.additionalTitles.map((t, i) => {
      const type = titleTypes.find(t.type);
      if (t.type && !type) dropped(`additional_titles.${i}.type`, t.type);
      const lang = t.lang ? languages.find(t.lang) : undefined;
      return {
        title: t.title,
        ...(type ? { type: { id: type } } : { type: { id: 'other' } }),
        ...(lang ? { lang: { id: lang } } : {}),
      };
    });
  }
  if (imported.publicationDate) m.publication_date = imported.publicationDate;
  const creators: Creator[] = [];
  for (const p of imported.creators) {
    creators.push(person(p, `creators.${creators.length}`, creatorRoles));
  }
  if (creators.length) m.creators = creators;
  const contributors: Creator[] = [];
  for (const p of imported.contributors) {
    contributors.push(person(p, `contributors.${contributors.length}`, contributorRoles));
  }
  if (contributors.length) m.contributors = contributors;
  if (imported.description) m.description = sanitizeRichText(imported.description);
  if (imported.additionalDescriptions.length) {
    m.additional_descriptions = imported.additionalDescriptions.map((d, i) => {
      const type = descTypes.find(d.type);
      if (d.type && !type) dropped(`additional_descriptions.${i}.type`, d.type);
      const lang = d.lang ? languages.find(d.lang) : undefined;
      return {
        description: sanitizeRichText(d.description),
        type: { id: type ?? 'other' },
        ...(lang ? { lang: { id: lang } } : {}),
      };
    });
  }
  const rightsOut = imported.rights
    .map((r, i) => rights(r, i))
    .filter((r): r is NonNullable<typeof r> => r !== undefined);
  if (rightsOut.length) m.rights = rightsOut;
  if (imported.copyright) m.copyright = imported.copyright;
  if (imported.publisher) m.publisher = imported.publisher;
  const knownSubjects = imported.subjectIds.length
    ? await vocab.existing('subjects', imported.subjectIds)
    : new Set<string>();
  for (const id of imported.subjectIds) {
    if (!knownSubjects.has(id)) dropped('subjects', id);
  }
  const subjects = [
    ...imported.subjectIds.filter((id) => knownSubjects.has(id)).map((id) => ({ id })),
    ...[...new Set(imported.keywords)].map((subject) => ({ subject })),
  ];
  if (subjects.length) m.subjects = subjects;
  const langs: string[] = [];
  for (const l of imported.languages) {
    const id = languages.find(l);
    if (id) {
      if (!langs.includes(id)) langs.push(id);
    } else dropped(`languages.${langs.length}`, l);
  }
  if (langs.length) m.languages = langs.map((id) => ({ id }));
  if (imported.dates.length) {
    m.dates = imported.dates.map((d, i) => {
      const type = dateTypes.find(d.type);
      if (d.type && !type) dropped(`dates.${i}.type`, d.type);
      return {
        date: d.date,
        type: { id: type ?? 'other' },
        ...(d.description ? { description: d.description } : {}),
      };
    });
  }
  if (imported.version) m.version = imported.version;
  const identifiers = imported.identifiers.flatMap((i) => identifierEntry(i.identifier, i.scheme));
  if (identifiers.length) m.identifiers = identifiers as Metadata['identifiers'];
  const related = imported.related.flatMap((r, i) => {
    const entry = identifierEntry(r.identifier, r.scheme)[0];
    if (!entry) return [];
    const relation = relations.find(r.relation);
    if (r.relation && !relation) dropped(`related_identifiers.${i}.relation_type`, r.relation);
    const type = resourceType(r.resourceType);
    return [
      {
        ...entry,
        // A relation is required at publish; "references" is what a list of related works says.
        relation_type: { id: relation ?? 'references' },
        ...(type ? { resource_type: { id: type } } : {}),
      },
    ];
  });
  if (related.length) m.related_identifiers = related as Metadata['related_identifiers'];
  if (imported.references.length) {
    m.references = imported.references.map((reference) => ({ reference }));
  }
  const funding: NonNullable<Metadata['funding']> = [];
  for (const f of imported.funding) {
    const funder = organisation(
      f.funder,
      funders.get(f.funder),
      `funding.${funding.length}.funder`,
    );
    const award =
      f.awardNumber || f.awardTitle
        ? {
            ...(f.awardNumber ? { number: f.awardNumber } : {}),
            ...(f.awardTitle ? { title: { en: f.awardTitle } } : {}),
            ...(f.awardUri && /^https?:\/\//.test(f.awardUri)
              ? { identifiers: [{ scheme: 'url' as const, identifier: f.awardUri }] }
              : {}),
          }
        : undefined;
    if (funder || award)
      funding.push({ ...(funder ? { funder } : {}), ...(award ? { award } : {}) });
  }
  if (funding.length) m.funding = funding;
  if (imported.sizes.length) m.sizes = imported.sizes;
  if (imported.formats.length) m.formats = imported.formats;
  if (imported.locations.length) m.locations = { features: imported.locations };
  return { metadata: m, unmatched };
}

/** What the names vocabulary holds of a person, as far as an import uses it. */
interface KnownName {
  given_name?: string;
  family_name?: string;
  name?: string;
  affiliations?: Array<{ id?: string; name?: string }>;
}

function organisationWanted(org: ImportedOrganisation): { identifier?: string; label?: string } {
  return {
    ...(org.identifier ? { identifier: org.identifier } : {}),
    ...(org.name ? { label: org.name } : {}),
  };
}

/** Each of `sources` with the vocabulary item it names exactly, looked up in one batch. */
async function matchAll<T extends object>(
  vocab: ImportVocabularies,
  type: 'names' | 'affiliations' | 'funders',
  sources: readonly T[],
  wanted: (source: T) => { identifier?: string; label?: string },
): Promise<Map<T, IndexedItem | undefined>> {
  const found = await vocab.findExact(type, sources.map(wanted));
  return new Map(sources.map((source, i) => [source, found[i]]));
}

/** `{scheme, identifier}` with the scheme named or detected; nothing when neither gives one. */
export function identifierEntry(
  identifier: string,
  scheme?: string,
): Array<{ scheme: string; identifier: string }> {
  const named = scheme?.toLowerCase();
  if (named === 'doi' || (!named && normalizeDoi(identifier))) {
    const doi = normalizeDoi(identifier);
    return doi ? [{ scheme: 'doi', identifier: doi }] : [];
  }
  if (named && isIdentifierScheme(named)) return [{ scheme: named, identifier }];
  const detected = detectSchemes(identifier)[0];
  return detected ? [{ scheme: detected, identifier }] : [];
}
