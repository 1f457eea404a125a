import {
  CUSTOM_FIELD_GROUPS,
  type CustomFieldKind,
  type CustomFields,
} from '../domain/custom-fields.js';
import { isEdtfDate } from '../domain/edtf.js';
import { RECORD_IDENTIFIER_SCHEMES, isHttpUrl, isValidIdentifier } from '../domain/identifiers.js';
import { identifierList } from './load-identifier.js';
import { MESSAGES } from './messages.js';
import { join, nonEmpty, readObject, readString, type Reader } from './read.js';

const readRecordIdentifiers = identifierList(new Set(RECORD_IDENTIFIER_SCHEMES));
const GROUPS: Readonly<Record<string, Readonly<Record<string, CustomFieldKind>>>> =
  CUSTOM_FIELD_GROUPS;

/** The message for a text sub-field whose value does not fit its kind, if any. */
function textProblem(
  kind: Exclude<CustomFieldKind, 'identifiers'>,
  text: string,
): string | undefined {
  switch (kind) {
    case 'text':
      return undefined;
    case 'isbn':
      return isValidIdentifier('isbn', text) ? undefined : MESSAGES.invalidIsbn;
    case 'issn':
      return isValidIdentifier('issn', text) ? undefined : MESSAGES.invalidIssn;
    case 'url':
      return isHttpUrl(text) ? undefined : MESSAGES.invalidUrl;
    case 'date':
      return isEdtfDate(text, { allowInterval: false }) ? undefined : MESSAGES.invalidEdtfDate;
  }
}

function readSubField(kind: CustomFieldKind, value: unknown, path: string, r: Reader): unknown {
  if (kind === 'identifiers') return readRecordIdentifiers(value, path, r);
  const text = readString(value, path, r);
  if (text === undefined) return undefined;
  const problem = textProblem(kind, text);
  if (problem === undefined) return text;
  r.issues.add(path, problem);
  return undefined;
}

/** `table[key]` when `key` is one of the table's own keys; otherwise reports "Unknown field.". */
function lookUpKnown<V>(
  table: Readonly<Record<string, V>>,
  key: string,
  path: string,
  r: Reader,
): V | undefined {
  const found = Object.hasOwn(table, key) ? table[key] : undefined;
  if (found === undefined) r.issues.add(path, MESSAGES.unknownField);
  return found;
}

/**
 * Loads `custom_fields` (already pruned of blanks): only the groups of `CUSTOM_FIELD_GROUPS` and
 * their sub-fields are kept; unknown keys are reported as "Unknown field." and dropped, invalid
 * values (ISBN, ISSN, URL, dates) are reported and dropped.
 */
export function readCustomFields(value: unknown, r: Reader): CustomFields {
  const path = 'custom_fields';
  const object = readObject(value, path, r) ?? {};
  const out: Record<string, Record<string, unknown>> = {};
  for (const groupKey of Object.keys(object)) {
    const groupPath = join(path, groupKey);
    const kinds = lookUpKnown(GROUPS, groupKey, groupPath, r);
    if (kinds === undefined) continue;
    const group = readObject(object[groupKey], groupPath, r);
    if (group === undefined) continue;
    const loaded: Record<string, unknown> = {};
    for (const subKey of Object.keys(group)) {
      const subPath = join(groupPath, subKey);
      const kind = lookUpKnown(kinds, subKey, subPath, r);
      if (kind === undefined) continue;
      const subValue = readSubField(kind, group[subKey], subPath, r);
      if (subValue !== undefined) loaded[subKey] = subValue;
    }
    const kept = nonEmpty(loaded);
    if (kept !== undefined) out[groupKey] = kept;
  }
  // TypeScript cannot follow the table lookups; the property test in load-record.test.ts checks
  // that what is built here always satisfies CustomFieldsSchema.
  return out;
}
