import type { Affiliation, Creator, PersonOrOrg } from '../domain/creator.js';
import { PERSON_OR_ORG_SCHEMES } from '../domain/identifiers.js';
import { identifierList } from './load-identifier.js';
import { MESSAGES, duplicatedAffiliationsMessage } from './messages.js';
import {
  join,
  nonEmpty,
  readIdOrText,
  readInto,
  readList,
  readObject,
  readString,
  readVocabularyRef,
  type Reader,
} from './read.js';

/** Exact repeats are dropped; two identifiers of one scheme are kept; both are reported. */
const readPersonOrOrgIdentifiers = identifierList(new Set(PERSON_OR_ORG_SCHEMES), {
  message: MESSAGES.onePerScheme,
  onePerScheme: true,
});

/** Creators may leave the role out; contributors must give one. */
export type CreatorKind = 'creators' | 'contributors';

function readPersonOrOrg(value: unknown, path: string, r: Reader): PersonOrOrg | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;

  const typePath = join(path, 'type');
  const type =
    object.type === 'personal' || object.type === 'organizational' ? object.type : undefined;
  // InvenioRDM answers a missing type with the same "choose one of" message as a wrong one.
  if (type === undefined) r.issues.add(typePath, MESSAGES.personOrOrgType);

  const givenName = readString(object.given_name, join(path, 'given_name'), r);
  const familyName = readString(object.family_name, join(path, 'family_name'), r);
  const name = readString(object.name, join(path, 'name'), r);

  const result: PersonOrOrg = {};
  if (type !== undefined) result.type = type;
  if (type === 'personal') {
    if (familyName === undefined && object.family_name === undefined) {
      r.issues.add(join(path, 'family_name'), MESSAGES.familyNameBlank);
    }
    if (givenName !== undefined) result.given_name = givenName;
    if (familyName !== undefined) result.family_name = familyName;
    // With a family name the display name is derived, whatever the client sent, so it can never
    // disagree with the parts. Without one, a name the client sent is all the draft knows of the
    // person (clients and imports often send only "Doe, Jane"): it is kept until the family name
    // is filled in, and the error above keeps the record from being published meanwhile.
    const display =
      familyName !== undefined
        ? givenName !== undefined
          ? `${familyName}, ${givenName}`
          : familyName
        : (name ?? givenName);
    if (display !== undefined) result.name = display;
  } else if (type === 'organizational') {
    if (name === undefined && object.name === undefined)
      r.issues.add(join(path, 'name'), MESSAGES.nameBlank);
    if (name !== undefined) result.name = name;
  } else {
    if (name !== undefined) result.name = name;
    if (givenName !== undefined) result.given_name = givenName;
    if (familyName !== undefined) result.family_name = familyName;
  }
  readInto(result, object, 'identifiers', path, r, readPersonOrOrgIdentifiers);
  return nonEmpty(result);
}

function readAffiliation(value: unknown, path: string, r: Reader): Affiliation | undefined {
  return readIdOrText(value, path, r, 'name', MESSAGES.affiliationIdOrName);
}

function readAffiliations(value: unknown, path: string, r: Reader): Affiliation[] | undefined {
  const affiliations = readList(value, path, r, readAffiliation);
  if (affiliations === undefined) return undefined;
  const seen = new Set<string>();
  const duplicates: string[] = [];
  const out: Affiliation[] = [];
  for (const affiliation of affiliations) {
    const label = affiliation.id ?? affiliation.name ?? '';
    const key = affiliation.id === undefined ? `name:${label}` : `id:${label}`;
    if (seen.has(key)) {
      if (!duplicates.includes(label)) duplicates.push(label);
      continue;
    }
    seen.add(key);
    out.push(affiliation);
  }
  if (duplicates.length > 0) r.issues.add(path, duplicatedAffiliationsMessage(duplicates));
  return out;
}

/**
 * Loads one creator or contributor. A wrong-typed part (a bad identifier, a non-string name) is
 * dropped and reported; a missing required part (type, family name of a person, name of an
 * organisation, role of a contributor) is reported and the rest kept. For persons with a family
 * name the display `name` is computed as "Family, Given"; a person without one keeps the `name`
 * sent. For organisations given and family names are removed.
 * Exact duplicate identifiers and affiliations are dropped and reported.
 */
export function readCreator(
  value: unknown,
  path: string,
  r: Reader,
  kind: CreatorKind,
): Creator | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const creator: Creator = {};

  readInto(creator, object, 'person_or_org', path, r, readPersonOrOrg, { required: true });
  readInto(creator, object, 'role', path, r, readVocabularyRef, {
    required: kind === 'contributors',
  });
  readInto(creator, object, 'affiliations', path, r, readAffiliations);
  return nonEmpty(creator);
}
