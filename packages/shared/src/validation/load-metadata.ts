import type { Creator } from '../domain/creator.js';
import { edtfProblem } from '../domain/edtf.js';
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
import { identifierList, readIdentifierPair } from './load-identifier.js';
import { MESSAGES } from './messages.js';
import {
  checkedString,
  isJsonObject,
  join,
  listOf,
  nonEmpty,
  readIdOrText,
  readInto,
  readList,
  readObject,
  readString,
  readVocabularyRef,
  requirePresent,
  type FieldReader,
  type Reader,
} from './read.js';

const RECORD_SCHEME_SET = new Set(RECORD_IDENTIFIER_SCHEMES);
const readAwardIdentifiers = identifierList(new Set(AWARD_IDENTIFIER_SCHEMES));
const KNOWN_FIELDS = new Set<string>(METADATA_FIELDS);

/** A title of at least TITLE_MIN_LENGTH characters; a shorter one is reported and dropped. */
const readTitleText = checkedString((text) => text.length >= TITLE_MIN_LENGTH, MESSAGES.tooShort);

/** A description of at least DESCRIPTION_MIN_LENGTH characters, likewise. */
const readDescriptionText = checkedString(
  (text) => text.length >= DESCRIPTION_MIN_LENGTH,
  MESSAGES.tooShort,
);

/** An EDTF date or interval; a reversed interval is reported as such. */
const readEdtf: FieldReader<string> = (value, path, r) => {
  const text = readString(value, path, r);
  if (text === undefined) return undefined;
  const problem = edtfProblem(text);
  if (problem === undefined) return text;
  r.issues.add(path, problem === 'reversed' ? MESSAGES.intervalReversed : MESSAGES.invalidEdtf);
  return undefined;
};

/** An http(s) URL. */
const readHttpUrl = checkedString(isHttpUrl, MESSAGES.invalidUrl);

/** A version of at most VERSION_MAX_LENGTH characters. */
const readVersion = checkedString(
  (text) => text.length <= VERSION_MAX_LENGTH,
  MESSAGES.versionTooLong,
);

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
  readInto(entry, object, 'title', path, r, readTitleText, { required: true });
  readInto(entry, object, 'type', path, r, readVocabularyRef, { required: true });
  readInto(entry, object, 'lang', path, r, readVocabularyRef);
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
  readInto(entry, object, 'description', path, r, readDescriptionText, { required: true });
  readInto(entry, object, 'type', path, r, readVocabularyRef, { required: true });
  readInto(entry, object, 'lang', path, r, readVocabularyRef);
  return nonEmpty(entry);
}

function readDateEntry(value: unknown, path: string, r: Reader): DateEntry | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const entry: DateEntry = {};
  readInto(entry, object, 'date', path, r, readEdtf, { required: true });
  readInto(entry, object, 'type', path, r, readVocabularyRef, { required: true });
  readInto(entry, object, 'description', path, r, readString);
  return nonEmpty(entry);
}

/** Vocabulary subjects come back with their `subject` and `scheme`; the id is what counts. */
function readSubject(value: unknown, path: string, r: Reader): Subject | undefined {
  return readIdOrText(value, path, r, 'subject', MESSAGES.subjectIdOrText);
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
  readInto(entry, object, 'relation_type', path, r, readVocabularyRef, { required: true });
  readInto(entry, object, 'resource_type', path, r, readVocabularyRef);
  return nonEmpty(entry);
}

function readReference(value: unknown, path: string, r: Reader): Reference | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const entry: Reference = {};
  readInto(entry, object, 'reference', path, r, readString, { required: true });
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
  if (object.title === undefined && object.id === undefined) {
    r.issues.add(path, MESSAGES.rightsIdOrTitle);
  }
  readInto(rights, object, 'title', path, r, readLocalizedText);
  readInto(rights, object, 'description', path, r, readLocalizedText);
  readInto(rights, object, 'link', path, r, readHttpUrl);
  return nonEmpty(rights);
}

function readFunder(value: unknown, path: string, r: Reader): Funder | undefined {
  return readIdOrText(value, path, r, 'name', MESSAGES.funderIdOrName);
}

function readAward(value: unknown, path: string, r: Reader): Award | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const id = readString(object.id, join(path, 'id'), r);
  // A vocabulary award comes back with title, number, acronym and identifiers; the id is what counts.
  if (id !== undefined) return { id };
  const award: Award = {};
  readInto(award, object, 'title', path, r, readLocalizedText);
  readInto(award, object, 'number', path, r, readString);
  readInto(award, object, 'identifiers', path, r, readAwardIdentifiers);
  if (object.id === undefined && (object.number === undefined || object.title === undefined)) {
    r.issues.add(path, MESSAGES.awardIdOrNumberTitle);
  }
  return nonEmpty(award);
}

function readFunding(value: unknown, path: string, r: Reader): Funding | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const funding: Funding = {};
  readInto(funding, object, 'funder', path, r, readFunder, { required: true });
  readInto(funding, object, 'award', path, r, readAward);
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
  readInto(feature, object, 'geometry', path, r, readObject);
  readInto(feature, object, 'place', path, r, readString);
  readInto(feature, object, 'description', path, r, readString);
  readInto(feature, object, 'identifiers', path, r, listOf(readPlaceIdentifier));
  return nonEmpty(feature);
}

/** A location's `{scheme, identifier}`: any scheme, both required, kept only when both are valid. */
function readPlaceIdentifier(
  value: unknown,
  path: string,
  r: Reader,
): { scheme: string; identifier: string } | undefined {
  const entry = readObject(value, path, r);
  if (entry === undefined) return undefined;
  const scheme = readString(entry.scheme, join(path, 'scheme'), r);
  const identifier = readString(entry.identifier, join(path, 'identifier'), r);
  if (entry.scheme === undefined) r.issues.add(join(path, 'scheme'), MESSAGES.required);
  if (entry.identifier === undefined) r.issues.add(join(path, 'identifier'), MESSAGES.required);
  return scheme === undefined || identifier === undefined ? undefined : { scheme, identifier };
}

function readLocations(value: unknown, path: string, r: Reader): Locations | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const featuresPath = join(path, 'features');
  if (!requirePresent(object.features, featuresPath, r)) return undefined;
  const features = readList(object.features, featuresPath, r, readLocationFeature);
  return features === undefined ? undefined : { features };
}

/** `metadata.creators` and `metadata.contributors` (each contributor must give a role). */
const readCreators = listOf<Creator>((item, path, r) => readCreator(item, path, r, 'creators'));
const readContributors = listOf<Creator>((item, path, r) =>
  readCreator(item, path, r, 'contributors'),
);

/** `metadata.identifiers`: exact repeats are dropped and reported. */
const readAlternateIdentifiers = identifierList(RECORD_SCHEME_SET, {
  message: MESSAGES.duplicatedIdentifier,
  onePerScheme: false,
});

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

  if (typeof rawTitle === 'string' && rawTitle.trim().length < TITLE_MIN_LENGTH) {
    r.issues.add(join(path, 'title'), MESSAGES.tooShort);
  } else {
    readInto(metadata, object, 'title', path, r, readTitleText, { required: true });
  }
  readInto(metadata, object, 'publication_date', path, r, readEdtf, { required: true });
  readInto(metadata, object, 'resource_type', path, r, readVocabularyRef, { required: true });
  readInto(metadata, object, 'creators', path, r, readCreators, { required: true });
  readInto(metadata, object, 'contributors', path, r, readContributors);
  readInto(metadata, object, 'additional_titles', path, r, listOf(readAdditionalTitle));
  readInto(metadata, object, 'description', path, r, readDescriptionText);
  readInto(metadata, object, 'additional_descriptions', path, r, listOf(readAdditionalDescription));
  readInto(metadata, object, 'rights', path, r, listOf(readRights));
  readInto(metadata, object, 'copyright', path, r, readString);
  readInto(metadata, object, 'publisher', path, r, readString);
  readInto(metadata, object, 'subjects', path, r, listOf(readSubject));
  readInto(metadata, object, 'languages', path, r, listOf(readVocabularyRef));
  readInto(metadata, object, 'dates', path, r, listOf(readDateEntry));
  readInto(metadata, object, 'version', path, r, readVersion);
  readInto(metadata, object, 'identifiers', path, r, readAlternateIdentifiers);
  readInto(metadata, object, 'related_identifiers', path, r, listOf(readRelatedIdentifier));
  readInto(metadata, object, 'references', path, r, listOf(readReference));
  readInto(metadata, object, 'funding', path, r, listOf(readFunding));
  readInto(metadata, object, 'locations', path, r, readLocations);
  readInto(metadata, object, 'sizes', path, r, listOf(readString));
  readInto(metadata, object, 'formats', path, r, listOf(readString));

  return metadata;
}
