import { isEmptyValue } from '@cairn/shared';

/** Who saved the server's version and when, from its `updated_by` (a Cairn extension). */
export function savedByOf(theirs: {
  updated?: string | undefined;
  updated_by?: { name: string } | undefined;
}): { name: string | undefined; at: Date | undefined } {
  const at = theirs.updated ? new Date(theirs.updated) : undefined;
  return {
    name: theirs.updated_by?.name || undefined,
    at: at && !Number.isNaN(at.getTime()) ? at : undefined,
  };
}

/** One field that differs between this tab's version and the server's. */
export interface FieldDifference {
  path: string;
  mine: string;
  theirs: string;
}

/** Leaves of a JSON value by dotted path; an empty value reads as absent. */
function flatten(value: unknown, prefix: string, out: Map<string, string>): void {
  if (isEmptyValue(value)) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) =>
      flatten(item, prefix ? `${prefix}.${index}` : String(index), out),
    );
    return;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      flatten(item, prefix ? `${prefix}.${key}` : key, out);
    }
    return;
  }
  out.set(prefix, String(value));
}

/**
 * What differs between two payloads, leaf by leaf, in the order the fields appear: the conflict
 * dialog shows it so the person can choose knowingly (never a silent overwrite).
 */
export function diffPayloads(mine: unknown, theirs: unknown): FieldDifference[] {
  const a = new Map<string, string>();
  const b = new Map<string, string>();
  flatten(mine, '', a);
  flatten(theirs, '', b);
  const paths = [...new Set([...a.keys(), ...b.keys()])];
  return paths
    .filter((path) => a.get(path) !== b.get(path))
    .map((path) => ({ path, mine: a.get(path) ?? '', theirs: b.get(path) ?? '' }));
}
