import { DEFAULT_ACCESS, type Access, type AccessLevel, type Embargo } from '../domain/access.js';
import { isIsoDay } from '../domain/edtf.js';
import { MESSAGES } from './messages.js';
import {
  checkedString,
  join,
  readBoolean,
  readInto,
  readObject,
  readString,
  requirePresent,
  type Reader,
} from './read.js';

/** An embargo end date: an ISO day (YYYY-MM-DD). */
const readIsoDay = checkedString(isIsoDay, MESSAGES.invalidDate);

function readLevel(
  value: unknown,
  path: string,
  r: Reader,
  message: string,
  fallback: AccessLevel,
): AccessLevel {
  if (!requirePresent(value, path, r)) return fallback;
  if (value === 'public' || value === 'restricted') return value;
  r.issues.add(path, message);
  return fallback;
}

function readEmbargo(value: unknown, path: string, r: Reader): Embargo {
  const object = readObject(value, path, r);
  if (object === undefined) return { active: false };
  const embargo: Embargo = { active: readBoolean(object.active, join(path, 'active'), r) ?? false };
  readInto(embargo, object, 'until', path, r, readIsoDay);
  readInto(embargo, object, 'reason', path, r, readString);
  return embargo;
}

/**
 * Loads `access` (already pruned of blanks). Omitted, it keeps `previous` (PUT replaces the draft,
 * but clients that never touch access must not reset it); a new record gets `DEFAULT_ACCESS`.
 * A missing or invalid `record`/`files` is reported and replaced by the previous or default value
 * so the stored access is always complete. A restricted record forces restricted files, silently,
 * as InvenioRDM does. Embargo rules (a future end date while active, a past or no end date while
 * inactive, an active embargo only on something restricted) are reported but the values are kept,
 * so publish stays blocked until the depositor decides.
 */
export function readAccess(value: unknown, r: Reader, previous: Access | undefined): Access {
  const path = 'access';
  const base = previous ?? DEFAULT_ACCESS;
  const object = readObject(value, path, r);
  if (object === undefined) {
    return { record: base.record, files: base.files, embargo: { ...base.embargo } };
  }
  const record = readLevel(
    object.record,
    join(path, 'record'),
    r,
    MESSAGES.accessRecord,
    base.record,
  );
  const requestedFiles = readLevel(
    object.files,
    join(path, 'files'),
    r,
    MESSAGES.accessFiles,
    base.files,
  );
  const files = record === 'restricted' ? 'restricted' : requestedFiles;

  const embargoPath = join(path, 'embargo');
  const embargo = readEmbargo(object.embargo, embargoPath, r);
  const untilPath = join(embargoPath, 'until');
  const { today } = r.options;
  if (embargo.active) {
    if (embargo.until === undefined || embargo.until <= today)
      r.issues.add(untilPath, MESSAGES.embargoFuture);
    if (record === 'public' && files === 'public')
      r.issues.add(embargoPath, MESSAGES.embargoNeedsRestriction);
  } else if (embargo.until !== undefined && embargo.until > today) {
    r.issues.add(untilPath, MESSAGES.embargoPast);
  }
  return { record, files, embargo };
}
