import type { IdentifierEntry } from '../domain/identifier-entry.js';
import {
  IDENTIFIER_SCHEME_LABELS,
  detectSchemes,
  isIdentifierScheme,
  isValidIdentifier,
  normalizeValidIdentifier,
  schemesByShape,
  type IdentifierScheme,
} from '../domain/identifiers.js';
import { MESSAGES, invalidIdentifierMessage } from './messages.js';
import {
  join,
  readList,
  readObject,
  readString,
  type FieldReader,
  type JsonObject,
  type Reader,
} from './read.js';

/**
 * Reads `identifier` and `scheme` from `object` the way marshmallow-utils' IdentifierSchema does:
 * a missing scheme is detected (the first detected scheme that `allowed` contains), a given scheme
 * must be allowed, and the value must be valid for its scheme; the result is normalised. Problems
 * are reported at `path.identifier` / `path.scheme` and give undefined, so the caller drops the
 * pair. An absent identifier gives undefined, reported as missing only when `required`.
 */
export function readIdentifierPair(
  object: JsonObject,
  path: string,
  r: Reader,
  allowed: ReadonlySet<IdentifierScheme>,
  required: boolean,
): IdentifierEntry | undefined {
  const identifierPath = join(path, 'identifier');
  const schemePath = join(path, 'scheme');
  if (object.identifier === undefined) {
    if (required) r.issues.add(identifierPath, MESSAGES.required);
    return undefined;
  }
  const identifier = readString(object.identifier, identifierPath, r);
  const givenScheme = readString(object.scheme, schemePath, r);
  if (identifier === undefined || (object.scheme !== undefined && givenScheme === undefined)) {
    return undefined;
  }

  let scheme: IdentifierScheme | undefined;
  if (givenScheme === undefined) {
    scheme = detectSchemes(identifier).find((detected) => allowed.has(detected));
    // A mistyped check digit defeats detection; naming the scheme it was meant for helps more.
    scheme ??= schemesByShape(identifier).find((shaped) => allowed.has(shaped));
  } else {
    const lowered = givenScheme.toLowerCase();
    if (isIdentifierScheme(lowered) && allowed.has(lowered)) scheme = lowered;
  }
  if (scheme === undefined) {
    r.issues.add(schemePath, MESSAGES.invalidScheme);
    return undefined;
  }
  if (!isValidIdentifier(scheme, identifier)) {
    r.issues.add(identifierPath, invalidIdentifierMessage(IDENTIFIER_SCHEME_LABELS[scheme]));
    return undefined;
  }
  return { scheme, identifier: normalizeValidIdentifier(scheme, identifier) };
}

/** One `{identifier, scheme}` list element; a non-object is reported and dropped. */
export function readIdentifierEntry(
  value: unknown,
  path: string,
  r: Reader,
  allowed: ReadonlySet<IdentifierScheme>,
): IdentifierEntry | undefined {
  const object = readObject(value, path, r);
  return object === undefined ? undefined : readIdentifierPair(object, path, r, allowed, true);
}

/**
 * A reader for lists of `{identifier, scheme}` elements (see readIdentifierEntry), undefined when
 * none is left. With `duplicates`, what is left then goes through dedupeIdentifiers with that
 * message and rule.
 */
export function identifierList(
  allowed: ReadonlySet<IdentifierScheme>,
  duplicates?: { message: string; onePerScheme: boolean },
): FieldReader<IdentifierEntry[]> {
  return (value, path, r) => {
    const entries = readList(value, path, r, (item, itemPath) =>
      readIdentifierEntry(item, itemPath, r, allowed),
    );
    if (entries === undefined || duplicates === undefined) return entries;
    return dedupeIdentifiers(entries, path, r, duplicates.message, duplicates.onePerScheme);
  };
}

/**
 * Drops exact repeats (same scheme and normalised identifier) and reports `message` at `path`
 * when any were found. With `onePerScheme`, two different identifiers of one scheme are also
 * reported, but both are kept: which one is right is the depositor's call, and publish stays
 * blocked until they make it. Linear in the list length.
 */
function dedupeIdentifiers(
  entries: IdentifierEntry[],
  path: string,
  r: Reader,
  message: string,
  onePerScheme: boolean,
): IdentifierEntry[] {
  const seenValues = new Set<string>();
  const seenSchemes = new Set<string>();
  const out: IdentifierEntry[] = [];
  let problem = false;
  for (const entry of entries) {
    const key = `${entry.scheme}\u0000${entry.identifier}`;
    if (seenValues.has(key)) {
      problem = true;
      continue;
    }
    seenValues.add(key);
    if (onePerScheme && seenSchemes.has(entry.scheme)) problem = true;
    seenSchemes.add(entry.scheme);
    out.push(entry);
  }
  if (problem) r.issues.add(path, message);
  return out;
}
