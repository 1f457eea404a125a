import type { FieldError } from '../domain/field-error.js';

/** Field errors as `{field: messages}`, which reads better in assertions than a list of items. */
export function byField(errors: readonly FieldError[]): Record<string, string[]> {
  return Object.fromEntries(errors.map((error) => [error.field, error.messages]));
}
