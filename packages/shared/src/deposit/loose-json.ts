// Loosely typed JSON as the deposit serializer reads it: a value of the wrong type reads as
// empty rather than failing, since every key of an API answer may be missing.

export type Json = Readonly<Record<string, unknown>>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown): Json {
  return isObject(value) ? value : {};
}

export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}

/**
 * Custom fields with their vocabulary fields (top-level keys, or `group.field` for a field inside
 * a group) passed through `convert`; every other value as it is.
 */
export function mapVocabularyFields(
  customFields: Readonly<Record<string, unknown>>,
  vocabularyFields: readonly string[],
  convert: (value: unknown) => unknown,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(customFields)) {
    if (vocabularyFields.includes(key)) {
      result[key] = convert(value);
      continue;
    }
    if (!isObject(value)) {
      result[key] = value;
      continue;
    }
    result[key] = Object.fromEntries(
      Object.entries(value).map(([field, item]) => [
        field,
        vocabularyFields.includes(`${key}.${field}`) ? convert(item) : item,
      ]),
    );
  }
  return result;
}
