import type { ErrorItem } from '@cairn/shared';
import type { z } from 'zod';

/** Zod issues as the contract's `errors` list: one item per field, dotted path, its messages. */
export function zodErrorItems(error: z.ZodError): ErrorItem[] {
  const byField = new Map<string, string[]>();
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.');
    byField.set(field, [...(byField.get(field) ?? []), issue.message]);
  }
  return [...byField].map(([field, messages]) => ({ field, messages }));
}
