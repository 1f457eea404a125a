/**
 * InvenioRDM's `_removeEmptyValues` (rule R of the serializer, see serializer.ts), deeply:
 * - arrays: each element is cleaned, then empty ones dropped; numbers and booleans inside an array
 *   survive only when truthy (InvenioRDM's quirk: `0` and `false` in a list are dropped);
 * - objects: each value is cleaned, then keys whose value is `null`, `undefined`, `''`, `[]` or
 *   `{}` are dropped; numbers and booleans survive at object level (`version: 0`, `flag: false`);
 * - scalars: numbers and booleans as they are, other falsy values become `null`.
 * An array or object left empty becomes `null`, so its parent drops it in turn.
 */
export function removeEmptyValues(value: unknown): unknown {
  // Loops rather than map/filter/fromEntries: a draft with 10,000 creators passes through here
  // on every load and save, and the intermediate arrays cost more than the cleaning itself.
  // A cleaned value is never `undefined`, `''`, `[]` or `{}` (those become `null`), so `null` is
  // all that needs dropping below.
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const element of value) {
      const item = removeEmptyValues(element);
      const isKept =
        typeof item === 'number' || typeof item === 'boolean' ? Boolean(item) : item !== null;
      if (isKept) items.push(item);
    }
    return items.length > 0 ? items : null;
  }
  if (typeof value === 'object' && value !== null) {
    let result: Record<string, unknown> | null = null;
    for (const key of Object.keys(value)) {
      const item = removeEmptyValues((value as Record<string, unknown>)[key]);
      if (item === null) continue;
      result ??= {};
      if (key === '__proto__') {
        // As Object.fromEntries would: an own `__proto__` key, never the prototype.
        Object.defineProperty(result, key, {
          value: item,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else {
        result[key] = item;
      }
    }
    return result;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return value === '' || value === undefined ? null : value;
}

/** `null`, `undefined`, `''`, `[]` and `{}`: what rule R drops. */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}
