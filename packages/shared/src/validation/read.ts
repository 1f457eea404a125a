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

/**
 * Reads one value found at `path`: gives it typed, or undefined after reporting why it was dropped.
 * An absent (undefined) value gives undefined without a report.
 */
export type FieldReader<T> = (value: unknown, path: string, r: Reader) => T | undefined;

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

/**
 * A reader for strings that pass `test`: a string that fails it is reported with `message` and
 * dropped (a value that is not a string at all gets "Not a valid string." as with readString).
 */
export function checkedString(
  test: (text: string) => boolean,
  message: string,
): FieldReader<string> {
  return (value, path, r) => {
    const text = readString(value, path, r);
    if (text === undefined || test(text)) return text;
    r.issues.add(path, message);
    return undefined;
  };
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
  loadItem: FieldReader<T>,
): T[] | undefined {
  const list = readArray(value, path, r);
  if (list === undefined) return undefined;
  const out: T[] = [];
  for (let i = 0; i < list.length; i += 1) {
    const item = list[i];
    if (item === undefined) continue;
    const loaded = loadItem(item, `${path}.${i}`, r);
    if (loaded !== undefined) out.push(loaded);
  }
  return out.length === 0 ? undefined : out;
}

/** A reader for lists whose elements are read with `readItem` (see readList). */
export function listOf<T>(readItem: FieldReader<T>): FieldReader<T[]> {
  return (value, path, r) => readList(value, path, r, readItem);
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

/**
 * A vocabulary entry by `id` or a free text under `textKey` (an affiliation's `name`, a subject's
 * `subject`, a funder's `name`). A valid `id` wins and the rest is ignored, because vocabulary
 * entries come back from the API with their text; otherwise the text is taken. `message` is
 * reported at `path` only when neither key was sent at all (a wrong-typed one is reported as such).
 */
export function readIdOrText<K extends string>(
  value: unknown,
  path: string,
  r: Reader,
  textKey: K,
  message: string,
): { id: string } | Partial<Record<K, string>> | undefined {
  const object = readObject(value, path, r);
  if (object === undefined) return undefined;
  const id = readString(object.id, join(path, 'id'), r);
  if (id !== undefined) return { id };
  const text = readString(object[textKey], join(path, textKey), r);
  if (text !== undefined) {
    const entry: Partial<Record<K, string>> = {};
    entry[textKey] = text;
    return entry;
  }
  if (object.id === undefined && object[textKey] === undefined) r.issues.add(path, message);
  return undefined;
}

/** Reports "Missing data for required field." at `path` when `value` is absent; true if present. */
export function requirePresent(value: unknown, path: string, r: Reader): boolean {
  if (value !== undefined) return true;
  r.issues.add(path, MESSAGES.required);
  return false;
}

/**
 * Reads `source[key]` with `read` (at `path.key`) and stores what it gives in `target[key]`; a
 * value that `read` drops leaves `target[key]` unset. With `required`, an absent value is reported
 * as "Missing data for required field." instead of being read. Loaders call it field by field in
 * reading order, which is the order their issues are reported in.
 */
export function readInto<T extends object, K extends keyof T & string>(
  target: T,
  source: JsonObject,
  key: K,
  path: string,
  r: Reader,
  read: FieldReader<Exclude<T[K], undefined>>,
  { required = false }: { required?: boolean } = {},
): void {
  const fieldPath = join(path, key);
  const value = source[key];
  if (required && !requirePresent(value, fieldPath, r)) return;
  const loaded = read(value, fieldPath, r);
  if (loaded !== undefined) target[key] = loaded;
}

/** The object, or undefined when it has no keys (so an entry stripped of everything is dropped). */
export function nonEmpty<T extends object>(value: T): T | undefined {
  for (const key in value) {
    if (Object.hasOwn(value, key)) return value;
  }
  return undefined;
}
