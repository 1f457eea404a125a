import { isEdtfDate } from '../domain/edtf.js';
import {
  AWARD_IDENTIFIER_SCHEMES,
  RECORD_IDENTIFIER_SCHEMES,
  isHttpUrl,
} from '../domain/identifiers.js';
import {
  METADATA_FIELDS,
  type AdditionalDescription,
  type AdditionalTitle,
  type Award,
  type DateEntry,
  type Funder,
  type Funding,
  type LocationFeature,
  type Locations,
  type Metadata,
  type Reference,
  type RelatedIdentifier,
  type Rights,
  type Subject,
} from '../domain/metadata.js';
import type { LocalizedText } from '../domain/vocabulary.js';
import { DESCRIPTION_MIN_LENGTH, TITLE_MIN_LENGTH, VERSION_MAX_LENGTH } from '../limits.js';
import { readCreator } from './load-creators.js';
import { dedupeIdentifiers, readIdentifierEntry, readIdentifierPair } from './load-identifier.js';
import { MESSAGES } from './messages.js';
import {
  isJsonObject,
  join,
  nonEmpty,
  readList,
  readObject,
  readString,
  readVocabularyRef,
  requirePresent,
  type Reader,
} from './read.js';

const RECORD_SCHEME_SET = new Set(RECORD_IDENTIFIER_SCHEMES);
const AWARD_SCHEME_SET = new Set(AWARD_IDENTIFIER_SCHEMES);
const KNOWN_FIELDS = new Set<string>(METADATA_FIELDS);

/** A string of at least `min` characters; shorter ones are reported and dropped. */
function readMinLengthText(
  value: unknown,
  path: string,
  r: Reader,
  min: number,
): string | undefined {
  const text = readString(value, path, r);
  if (text === undefined || text.length >= min) return text;
  r.issues.add(path, MESSAGES.tooShort);
  return undefined;
}

function readEdtf(value: unknown, path: string, r: Reader): string | undefined {
  const text = readString(value, path, r);
  if (text === undefined || isEdtfDate(text)) return text;
  r.issues.add(path, MESSAGES.invalidEdtf);
  return undefined;
}

/**
 * A text keyed by exactly one configured locale (`{en: '…'}`), as custom licenses and awards
 * carry their titles and descriptions.
 */
function readLocalizedText(value: unknown, path: string, r: Reader): LocalizedText | undefined {
  if (value === undefined) return undefined;
  if (!isJsonObject(value)) {
    r.issues.add(path, MESSAGES.notMapping);
    return undefined;
  }
  const locales = Object.keys(value);
  if (locales.length !== 1) {
    r.issues.add(path, MESSAGES.onlyOneValue);
    return undefined;
  }
  const [locale = ''] = locales;
  if (!r.options.locales.includes(locale)) {
    r.issues.add(path, MESSAGES.invalidLocale);
    return undefined;
  }
  const text = readString(value[locale], path, r);
  return text === undefined ? undefined : { [locale]: text };
}

function readAdditionalTitle(value: unknown, path: string, r: Reader): AdditionalTitle | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const entry: AdditionalTitle = {};
  const titlePath = join(path, 'title');
  if (requirePresent(object.title, titlePath, r)) {
    const title = readMinLengthText(object.title, titlePath, r, TITLE_MIN_LENGTH);
    if (title !== undefined) entry.title = title;
  }
  const typePath = join(path, 'type');
  if (requirePresent(object.type, typePath, r)) {
    const type = readVocabularyRef(object.type, typePath, r);
    if (type !== undefined) entry.type = type;
  }
  const lang = readVocabularyRef(object.lang, join(path, 'lang'), r);
  if (lang !== undefined) entry.lang = lang;
  return nonEmpty(entry);
}

function readAdditionalDescription(
  value: unknown,
  path: string,
  r: Reader,
): AdditionalDescription | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const entry: AdditionalDescription = {};
  const descriptionPath = join(path, 'description');
  if (requirePresent(object.description, descriptionPath, r)) {
    const description = readMinLengthText(
      object.description,
      descriptionPath,
      r,
      DESCRIPTION_MIN_LENGTH,
    );
    if (description !== undefined) entry.description = description;
  }
  const typePath = join(path, 'type');
  if (requirePresent(object.type, typePath, r)) {
    const type = readVocabularyRef(object.type, typePath, r);
    if (type !== undefined) entry.type = type;
  }
  const lang = readVocabularyRef(object.lang, join(path, 'lang'), r);
  if (lang !== undefined) entry.lang = lang;
  return nonEmpty(entry);
}

function readDateEntry(value: unknown, path: string, r: Reader): DateEntry | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const entry: DateEntry = {};
  const datePath = join(path, 'date');
  if (requirePresent(object.date, datePath, r)) {
    const date = readEdtf(object.date, datePath, r);
    if (date !== undefined) entry.date = date;
  }
  const typePath = join(path, 'type');
  if (requirePresent(object.type, typePath, r)) {
    const type = readVocabularyRef(object.type, typePath, r);
    if (type !== undefined) entry.type = type;
  }
  const description = readString(object.description, join(path, 'description'), r);
  if (description !== undefined) entry.description = description;
  return nonEmpty(entry);
}

function readSubject(value: unknown, path: string, r: Reader): Subject | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const id = readString(object.id, join(path, 'id'), r);
  // Vocabulary subjects come back with their `subject` and `scheme`; the id is what counts.
  if (id !== undefined) return { id };
  const subject = readString(object.subject, join(path, 'subject'), r);
  if (subject !== undefined) return { subject };
  if (object.id === undefined && object.subject === undefined)
    r.issues.add(path, MESSAGES.subjectIdOrText);
  return undefined;
}

function readRelatedIdentifier(
  value: unknown,
  path: string,
  r: Reader,
): RelatedIdentifier | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const entry: RelatedIdentifier = {};
  const pair = readIdentifierPair(object, path, r, RECORD_SCHEME_SET, true);
  if (pair !== undefined) {
    entry.identifier = pair.identifier;
    entry.scheme = pair.scheme;
  }
  const relationPath = join(path, 'relation_type');
  if (requirePresent(object.relation_type, relationPath, r)) {
    const relation = readVocabularyRef(object.relation_type, relationPath, r);
    if (relation !== undefined) entry.relation_type = relation;
  }
  const resourceType = readVocabularyRef(object.resource_type, join(path, 'resource_type'), r);
  if (resourceType !== undefined) entry.resource_type = resourceType;
  return nonEmpty(entry);
}

function readReference(value: unknown, path: string, r: Reader): Reference | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const entry: Reference = {};
  const referencePath = join(path, 'reference');
  if (requirePresent(object.reference, referencePath, r)) {
    const reference = readString(object.reference, referencePath, r);
    if (reference !== undefined) entry.reference = reference;
  }
  const pair = readIdentifierPair(object, path, r, RECORD_SCHEME_SET, false);
  if (pair !== undefined) {
    entry.identifier = pair.identifier;
    entry.scheme = pair.scheme;
  }
  return nonEmpty(entry);
}

function readRights(value: unknown, path: string, r: Reader): Rights | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const id = readString(object.id, join(path, 'id'), r);
  const hasFreeText =
    object.title !== undefined || object.description !== undefined || object.link !== undefined;
  if (id !== undefined) {
    // `icon` and `props` are what responses add to vocabulary licenses; only free text conflicts.
    if (hasFreeText) r.issues.add(path, MESSAGES.rightsNotBoth);
    return { id };
  }
  const rights: Rights = {};
  if (object.title === undefined) {
    if (object.id === undefined) r.issues.add(path, MESSAGES.rightsIdOrTitle);
  } else {
    const title = readLocalizedText(object.title, join(path, 'title'), r);
    if (title !== undefined) rights.title = title;
  }
  const description = readLocalizedText(object.description, join(path, 'description'), r);
  if (description !== undefined) rights.description = description;
  const linkPath = join(path, 'link');
  const link = readString(object.link, linkPath, r);
  if (link !== undefined) {
    if (isHttpUrl(link)) rights.link = link;
    else r.issues.add(linkPath, MESSAGES.invalidUrl);
  }
  return nonEmpty(rights);
}

function readFunder(value: unknown, path: string, r: Reader): Funder | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const id = readString(object.id, join(path, 'id'), r);
  if (id !== undefined) return { id };
  const name = readString(object.name, join(path, 'name'), r);
  if (name !== undefined) return { name };
  if (object.id === undefined && object.name === undefined)
    r.issues.add(path, MESSAGES.funderIdOrName);
  return undefined;
}

function readAward(value: unknown, path: string, r: Reader): Award | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const id = readString(object.id, join(path, 'id'), r);
  // A vocabulary award comes back with title, number, acronym and identifiers; the id is what counts.
  if (id !== undefined) return { id };
  const award: Award = {};
  const title = readLocalizedText(object.title, join(path, 'title'), r);
  if (title !== undefined) award.title = title;
  const number = readString(object.number, join(path, 'number'), r);
  if (number !== undefined) award.number = number;
  const identifiers = readList(object.identifiers, join(path, 'identifiers'), r, (item, itemPath) =>
    readIdentifierEntry(item, itemPath, r, AWARD_SCHEME_SET),
  );
  if (identifiers !== undefined) award.identifiers = identifiers;
  if (object.id === undefined && (object.number === undefined || object.title === undefined)) {
    r.issues.add(path, MESSAGES.awardIdOrNumberTitle);
  }
  return nonEmpty(award);
}

function readFunding(value: unknown, path: string, r: Reader): Funding | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const funding: Funding = {};
  const funderPath = join(path, 'funder');
  if (requirePresent(object.funder, funderPath, r)) {
    const funder = readFunder(object.funder, funderPath, r);
    if (funder !== undefined) funding.funder = funder;
  }
  const award = readAward(object.award, join(path, 'award'), r);
  if (award !== undefined) funding.award = award;
  return nonEmpty(funding);
}

function readLocationFeature(value: unknown, path: string, r: Reader): LocationFeature | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  if (
    object.geometry === undefined &&
    object.place === undefined &&
    object.description === undefined &&
    object.identifiers === undefined
  ) {
    r.issues.add(path, MESSAGES.locationNeedsContent);
    return undefined;
  }
  const feature: LocationFeature = {};
  // GeoJSON is passed through; checking geometries is beyond what the deposit form needs.
  const geometry = readObject(object.geometry, join(path, 'geometry'), r);
  if (geometry !== undefined) feature.geometry = geometry;
  const place = readString(object.place, join(path, 'place'), r);
  if (place !== undefined) feature.place = place;
  const description = readString(object.description, join(path, 'description'), r);
  if (description !== undefined) feature.description = description;
  const identifiers = readList(
    object.identifiers,
    join(path, 'identifiers'),
    r,
    (item, itemPath) => {
      const entry = readObject(item, itemPath, r);
      if (entry === undefined) return undefined;
      const scheme = readString(entry.scheme, join(itemPath, 'scheme'), r);
      const identifier = readString(entry.identifier, join(itemPath, 'identifier'), r);
      if (entry.scheme === undefined) r.issues.add(join(itemPath, 'scheme'), MESSAGES.required);
      if (entry.identifier === undefined)
        r.issues.add(join(itemPath, 'identifier'), MESSAGES.required);
      return scheme === undefined || identifier === undefined ? undefined : { scheme, identifier };
    },
  );
  if (identifiers !== undefined) feature.identifiers = identifiers;
  return nonEmpty(feature);
}

function readLocations(value: unknown, path: string, r: Reader): Locations | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const featuresPath = join(path, 'features');
  if (!requirePresent(object.features, featuresPath, r)) return undefined;
  const features = readList(object.features, featuresPath, r, (item, itemPath) =>
    readLocationFeature(item, itemPath, r),
  );
  return features === undefined ? undefined : { features };
}

function readStringList(value: unknown, path: string, r: Reader): string[] | undefined {
  return readList(value, path, r, (item, itemPath) => readString(item, itemPath, r));
}

/**
 * Loads `metadata` (already pruned of blanks). `rawTitle` is the title exactly as sent: InvenioRDM
 * answers an empty title with "Shorter than minimum length 3." rather than "missing", and clients
 * compare that message.
 */
export function readMetadata(value: unknown, rawTitle: unknown, r: Reader): Metadata {
  const path = 'metadata';
  const object = readObject(value, path, r) ?? {};
  const metadata: Metadata = {};

  for (const key of Object.keys(object)) {
    if (!KNOWN_FIELDS.has(key)) r.issues.add(join(path, key), MESSAGES.unknownField);
  }

  const titlePath = join(path, 'title');
  if (typeof rawTitle === 'string' && rawTitle.trim().length < TITLE_MIN_LENGTH) {
    r.issues.add(titlePath, MESSAGES.tooShort);
  } else if (requirePresent(object.title, titlePath, r)) {
    const title = readMinLengthText(object.title, titlePath, r, TITLE_MIN_LENGTH);
    if (title !== undefined) metadata.title = title;
  }

  const publicationDatePath = join(path, 'publication_date');
  if (requirePresent(object.publication_date, publicationDatePath, r)) {
    const date = readEdtf(object.publication_date, publicationDatePath, r);
    if (date !== undefined) metadata.publication_date = date;
  }

  const resourceTypePath = join(path, 'resource_type');
  if (requirePresent(object.resource_type, resourceTypePath, r)) {
    const resourceType = readVocabularyRef(object.resource_type, resourceTypePath, r);
    if (resourceType !== undefined) metadata.resource_type = resourceType;
  }

  const creatorsPath = join(path, 'creators');
  if (requirePresent(object.creators, creatorsPath, r)) {
    const creators = readList(object.creators, creatorsPath, r, (item, itemPath) =>
      readCreator(item, itemPath, r, 'creators'),
    );
    if (creators !== undefined) metadata.creators = creators;
  }

  const contributors = readList(
    object.contributors,
    join(path, 'contributors'),
    r,
    (item, itemPath) => readCreator(item, itemPath, r, 'contributors'),
  );
  if (contributors !== undefined) metadata.contributors = contributors;

  const additionalTitles = readList(
    object.additional_titles,
    join(path, 'additional_titles'),
    r,
    (item, itemPath) => readAdditionalTitle(item, itemPath, r),
  );
  if (additionalTitles !== undefined) metadata.additional_titles = additionalTitles;

  const description = readMinLengthText(
    object.description,
    join(path, 'description'),
    r,
    DESCRIPTION_MIN_LENGTH,
  );
  if (description !== undefined) metadata.description = description;

  const additionalDescriptions = readList(
    object.additional_descriptions,
    join(path, 'additional_descriptions'),
    r,
    (item, itemPath) => readAdditionalDescription(item, itemPath, r),
  );
  if (additionalDescriptions !== undefined)
    metadata.additional_descriptions = additionalDescriptions;

  const rights = readList(object.rights, join(path, 'rights'), r, (item, itemPath) =>
    readRights(item, itemPath, r),
  );
  if (rights !== undefined) metadata.rights = rights;

  const copyright = readString(object.copyright, join(path, 'copyright'), r);
  if (copyright !== undefined) metadata.copyright = copyright;

  const publisher = readString(object.publisher, join(path, 'publisher'), r);
  if (publisher !== undefined) metadata.publisher = publisher;

  const subjects = readList(object.subjects, join(path, 'subjects'), r, (item, itemPath) =>
    readSubject(item, itemPath, r),
  );
  if (subjects !== undefined) metadata.subjects = subjects;

  const languages = readList(object.languages, join(path, 'languages'), r, (item, itemPath) =>
    readVocabularyRef(item, itemPath, r),
  );
  if (languages !== undefined) metadata.languages = languages;

  const dates = readList(object.dates, join(path, 'dates'), r, (item, itemPath) =>
    readDateEntry(item, itemPath, r),
  );
  if (dates !== undefined) metadata.dates = dates;

  const versionPath = join(path, 'version');
  const version = readString(object.version, versionPath, r);
  if (version !== undefined) {
    if (version.length <= VERSION_MAX_LENGTH) metadata.version = version;
    else r.issues.add(versionPath, MESSAGES.versionTooLong);
  }

  const identifiersPath = join(path, 'identifiers');
  const identifiers = readList(object.identifiers, identifiersPath, r, (item, itemPath) =>
    readIdentifierEntry(item, itemPath, r, RECORD_SCHEME_SET),
  );
  if (identifiers !== undefined) {
    metadata.identifiers = dedupeIdentifiers(
      identifiers,
      identifiersPath,
      r,
      MESSAGES.duplicatedIdentifier,
      false,
    );
  }

  const related = readList(
    object.related_identifiers,
    join(path, 'related_identifiers'),
    r,
    (item, itemPath) => readRelatedIdentifier(item, itemPath, r),
  );
  if (related !== undefined) metadata.related_identifiers = related;

  const references = readList(object.references, join(path, 'references'), r, (item, itemPath) =>
    readReference(item, itemPath, r),
  );
  if (references !== undefined) metadata.references = references;

  const funding = readList(object.funding, join(path, 'funding'), r, (item, itemPath) =>
    readFunding(item, itemPath, r),
  );
  if (funding !== undefined) metadata.funding = funding;

  const locations = readLocations(object.locations, join(path, 'locations'), r);
  if (locations !== undefined) metadata.locations = locations;

  const sizes = readStringList(object.sizes, join(path, 'sizes'), r);
  if (sizes !== undefined) metadata.sizes = sizes;

  const formats = readStringList(object.formats, join(path, 'formats'), r);
  if (formats !== undefined) metadata.formats = formats;

  return metadata;
}
