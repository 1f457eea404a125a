import type { ValidationOptions } from '../domain/record.js';
import type { VocabularyRef } from '../domain/vocabulary.js';
import type { Issues } from './issues.js';
import { MESSAGES } from './messages.js';

/*
 * Small readers shared by the record loaders. Each takes a value that may be anything a client
 * sent, returns it typed when it has the right type, and otherwise reports the problem at `path`
 * and returns undefined, so the caller drops the value (InvenioRDM's partial-save rule).
 */

/** A JSON object as parsed from a request body. */
export type JsonObject = Record<string, unknown>;

/** What every loader needs: where to report and the instance settings. */
export interface Reader {
  issues: Issues;
  options: ValidationOptions;
}

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Trims every string and removes blank values, because the form sends empty strings, `{id: ''}`
 * and `[null]` for fields the user left alone, and those must read as "absent", not as errors.
 * An object left without keys and an array left without elements become undefined too. Arrays keep
 * their length (a blank element becomes undefined) so that error paths keep the index the client
 * sent.
 */
export function prune(value: unknown): unknown {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  }
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    let kept = 0;
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i += 1) {
      const element = prune(value[i]);
      out[i] = element;
      if (element !== undefined) kept += 1;
    }
    return kept === 0 ? undefined : out;
  }
  if (isJsonObject(value)) {
    let out: JsonObject | undefined;
    for (const key of Object.keys(value)) {
      const element = prune(value[key]);
      if (element !== undefined) {
        out ??= {};
        out[key] = element;
      }
    }
    return out;
  }
  return value;
}

/** `parent.child`, or `child` at the root. */
export function join(path: string, key: string | number): string {
  return path === '' ? String(key) : `${path}.${key}`;
}

/** A string, or undefined after reporting "Not a valid string.". */
export function readString(value: unknown, path: string, r: Reader): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  r.issues.add(path, MESSAGES.notString);
  return undefined;
}

/** A boolean, or undefined after reporting "Not a valid boolean.". */
export function readBoolean(value: unknown, path: string, r: Reader): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  r.issues.add(path, MESSAGES.notBoolean);
  return undefined;
}

/** An object, or undefined after reporting "Invalid input type." (marshmallow's nested message). */
export function readObject(value: unknown, path: string, r: Reader): JsonObject | undefined {
  if (value === undefined || isJsonObject(value)) return value;
  r.issues.add(path, MESSAGES.invalidInputType);
  return undefined;
}

/** An array, or undefined after reporting "Not a valid list.". */
export function readArray(value: unknown, path: string, r: Reader): unknown[] | undefined {
  if (value === undefined || Array.isArray(value)) return value;
  r.issues.add(path, MESSAGES.notList);
  return undefined;
}

/**
 * Loads each present element of a list with `loadItem` (given the element's path, which keeps the
 * index the client sent) and keeps what it returns. Undefined when nothing is left.
 */
export function readList<T>(
  value: unknown,
  path: string,
  r: Reader,
  loadItem: (item: unknown, itemPath: string) => T | undefined,
): T[] | undefined {
  const list = readArray(value, path, r);
  if (list === undefined) return undefined;
  const out: T[] = [];
  for (let i = 0; i < list.length; i += 1) {
    const item = list[i];
    if (item === undefined) continue;
    const loaded = loadItem(item, `${path}.${i}`);
    if (loaded !== undefined) out.push(loaded);
  }
  return out.length === 0 ? undefined : out;
}

/**
 * A vocabulary reference `{id}`. Other keys (the `title`, `props` and `icon` that responses carry)
 * are ignored so that a client can send back what it read.
 */
export function readVocabularyRef(
  value: unknown,
  path: string,
  r: Reader,
): VocabularyRef | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  if (object.id === undefined) {
    r.issues.add(join(path, 'id'), MESSAGES.required);
    return undefined;
  }
  const id = readString(object.id, join(path, 'id'), r);
  return id === undefined ? undefined : { id };
}

/** Reports "Missing data for required field." at `path` when `value` is absent; true if present. */
export function requirePresent(value: unknown, path: string, r: Reader): boolean {
  if (value !== undefined) return true;
  r.issues.add(path, MESSAGES.required);
  return false;
}

/** The object, or undefined when it has no keys (so an entry stripped of everything is dropped). */
export function nonEmpty<T extends object>(value: T): T | undefined {
  for (const key in value) {
    if (Object.hasOwn(value, key)) return value;
  }
  return undefined;
}
