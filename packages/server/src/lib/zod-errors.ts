import { INVALID_QUERY_ISSUE, SEARCH_CHECKED_FIRST, type ErrorItem } from '@cairn/shared';
import type { z } from 'zod';
import { AppError } from '../errors.js';

/** Zod issues as the contract's `errors` list: one item per field, dotted path, its messages. */
export function zodErrorItems(error: z.ZodError): ErrorItem[] {
  return issueItems(error.issues);
}

function issueItems(issues: readonly z.core.$ZodIssue[]): ErrorItem[] {
  const byField = new Map<string, string[]>();
  for (const issue of issues) {
    const field = issue.path.map(String).join('.');
    byField.set(field, [...(byField.get(field) ?? []), issue.message]);
  }
  return [...byField].map(([field, messages]) => ({ field, messages }));
}

function refusesWholeQuery(issue: z.core.$ZodIssue): boolean {
  return issue.code === 'custom' && issue.params?.code === INVALID_QUERY_ISSUE;
}

/** Where an issue comes in the order the search contract checks a query string. */
function rank(issue: z.core.$ZodIssue): number {
  const first = SEARCH_CHECKED_FIRST.indexOf(
    issue.path[0] as (typeof SEARCH_CHECKED_FIRST)[number],
  );
  if (first >= 0) return first;
  return refusesWholeQuery(issue) ? SEARCH_CHECKED_FIRST.length : SEARCH_CHECKED_FIRST.length + 1;
}

/**
 * A refused query string as InvenioRDM's searches answer it, one problem at a time: the first
 * in the order the contract checks them (q, page, size, the result window, then the rest in the
 * schema's order); the result window is INVALID_QUERY, any other a field's 400.
 */
export function queryRefusal(issues: readonly z.core.$ZodIssue[]): AppError {
  const first = [...issues].sort((a, b) => rank(a) - rank(b))[0];
  if (!first) return new AppError('VALIDATION_FAILED');
  if (refusesWholeQuery(first)) return new AppError('INVALID_QUERY', first.message);
  return new AppError('VALIDATION_FAILED', undefined, issueItems([first]));
}

/** `request.query` read with `schema` where a route cannot name it up front; refused as above. */
export function parsedQuery<T extends z.ZodType>(schema: T, query: unknown): z.output<T> {
  const result = schema.safeParse(query);
  if (!result.success) throw queryRefusal(result.error.issues);
  return result.data;
}

/**
 * `body` read with `schema` where no route parsed it (a comment nested in another body, say);
 * refused as the routes refuse their bodies: every problem, one item per field, each field
 * under `prefix` when the body is part of a larger one.
 */
export function parsedBody<T extends z.ZodType>(
  schema: T,
  body: unknown,
  prefix = '',
): z.output<T> {
  const result = schema.safeParse(body);
  if (!result.success) {
    const errors = zodErrorItems(result.error).map((item) => ({
      ...item,
      field: prefix + item.field,
    }));
    throw new AppError('VALIDATION_FAILED', undefined, errors);
  }
  return result.data;
}
