import type { FieldError } from '../domain/field-error.js';
import type { RecordData, RecordFiles, ValidationOptions } from '../domain/record.js';
import { Issues } from './issues.js';
import { readAccess } from './load-access.js';
import { readCustomFields } from './load-custom-fields.js';
import { readMetadata } from './load-metadata.js';
import { readPids } from './load-pids.js';
import { MESSAGES } from './messages.js';
import {
  isJsonObject,
  prune,
  readBoolean,
  readObject,
  readString,
  type JsonObject,
  type Reader,
} from './read.js';

function readFiles(value: unknown, r: Reader): RecordFiles {
  const object = readObject(value, 'files', r);
  const files: RecordFiles = { enabled: readBoolean(object?.enabled, 'files.enabled', r) ?? true };
  const preview = readString(object?.default_preview, 'files.default_preview', r);
  if (preview !== undefined) files.default_preview = preview;
  return files;
}

function readRecord(body: unknown, r: Reader, previous: RecordData | undefined): RecordData {
  let raw: JsonObject = {};
  if (isJsonObject(body)) raw = body;
  else r.issues.add('_schema', MESSAGES.invalidInputType);
  // Top-level keys other than these (id, links, status, parent, …) are dump-only or unknown and
  // InvenioRDM ignores them silently, so a client can send back what it read.
  const pruned = (prune(raw) ?? {}) as JsonObject;
  const rawMetadata = raw.metadata;
  return {
    metadata: readMetadata(
      pruned.metadata,
      isJsonObject(rawMetadata) ? rawMetadata.title : undefined,
      r,
    ),
    custom_fields: readCustomFields(pruned.custom_fields, r),
    access: readAccess(pruned.access, r, previous?.access),
    files: readFiles(pruned.files, r),
    pids: readPids(raw.pids, r, previous?.pids),
  };
}

/**
 * Loads a client body (POST /api/records or PUT .../draft) the way InvenioRDM loads a draft:
 * never throws; returns the storable data plus every problem found.
 * - Unknown top-level keys and dump-only keys are ignored silently; unknown keys inside `metadata`
 *   and `custom_fields` are reported as "Unknown field." and dropped.
 * - Strings are trimmed, and blank strings, arrays and objects count as absent (the form sends them).
 * - Values of the wrong type or format are DROPPED from `data`, in the smallest unit possible (a bad
 *   identifier inside a creator is dropped, not the creator; a title shorter than 3 is dropped), and
 *   reported. Exact duplicates (identifiers, affiliations) are dropped and reported.
 * - Missing required values (title, publication_date, resource_type, creators, the type and family
 *   name of a person, the name of an organisation, the role of a contributor, …) and rules between
 *   fields (embargo dates, two identifiers of one scheme) are reported but nothing is dropped, so a
 *   draft keeps what the user typed.
 * - Error paths index lists as the client sent them; `data` lists are compacted.
 * - `previous` is the draft's stored data, for PUT replacement semantics: `access` omitted → previous
 *   access; `pids` omitted → previous pids; `files.enabled` omitted → true; metadata and
 *   custom_fields omitted → {}.
 */
export function loadRecord(
  body: unknown,
  options: ValidationOptions,
  previous?: RecordData,
): { data: RecordData; errors: FieldError[] } {
  const r: Reader = { issues: new Issues(), options };
  const data = readRecord(body, r, previous);
  return { data, errors: r.issues.toFieldErrors() };
}

/**
 * Re-validates stored data strictly, as publish (and submit-for-review) does: every rule of
 * `loadRecord` again, which for stored data means the required values and the day-dependent
 * embargo rules, plus the publish-only rule that DOI registration needs a publisher. Returns every
 * error; [] means the record is publishable as far as its data goes. What needs the database is
 * the server's to check: files present, PID uniqueness and prefix, vocabulary ids existing.
 */
export function validateForPublish(data: RecordData, options: ValidationOptions): FieldError[] {
  const r: Reader = { issues: new Issues(), options };
  readRecord(data, r, data);
  if (options.publisherRequired === true && (data.metadata.publisher ?? '').trim() === '') {
    r.issues.add('metadata.publisher', MESSAGES.publisherRequired);
  }
  return r.issues.toFieldErrors();
}
