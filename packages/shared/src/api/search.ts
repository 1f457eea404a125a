import { z } from 'zod';
import {
  SEARCH_DEFAULT_PAGE_SIZE,
  SEARCH_MAX_WINDOW,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCH_QUERY_MAX_WORDS,
} from '../limits.js';

/*
 * The query string of every search route (InvenioRDM's search contract), as the routes validate
 * it: the values arrive as strings, or arrays of strings when repeated, and each schema reads them
 * as InvenioRDM does (the first of a repeated `q`, `page`, `size` or `sort`; every value of a
 * filter) with InvenioRDM's messages. The OpenAPI document is generated from the same schemas:
 * a `z.preprocess` is described by the schema it reads into. Unknown parameters are kept and
 * ignored, as InvenioRDM ignores them.
 */

/** The words of NFKC-normalised search text: runs of letters and digits. */
export function searchWords(normalised: string): string[] {
  return normalised.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0);
}

/**
 * What is wrong with search text past the limits every search route shares, or undefined. Each
 * engine turns a word into a term of its own query, and SQLite refuses an expression tree past a
 * thousand terms deep. Both are measured as the engines see the text, after NFKC (U+FDFA alone
 * is 18 characters).
 */
export function searchTextProblem(text: string): string | undefined {
  const normalised = text.normalize('NFKC');
  if (normalised.length > SEARCH_QUERY_MAX_LENGTH)
    return `Longer than maximum length ${SEARCH_QUERY_MAX_LENGTH}.`;
  if (searchWords(normalised).length > SEARCH_QUERY_MAX_WORDS)
    return `Must hold at most ${SEARCH_QUERY_MAX_WORDS} words.`;
  return undefined;
}

/**
 * The `params.code` of an issue that refuses the query as a whole (page × size past the result
 * window): InvenioRDM answers it with its own 400, not a field's.
 */
export const INVALID_QUERY_ISSUE = 'INVALID_QUERY';

/**
 * The parameters checked before the result window, in the order the contract checks them. A
 * query string's refusal names one problem: the first of these, then the window, then the others.
 */
export const SEARCH_CHECKED_FIRST = ['q', 'page', 'size'] as const;

const first = (value: unknown): unknown => (Array.isArray(value) ? (value[0] as unknown) : value);

/** The first value, trimmed; absent when empty. */
function readText(value: unknown): unknown {
  const text = first(value);
  if (typeof text !== 'string') return text;
  return text.trim() === '' ? undefined : text.trim();
}

/**
 * Search text (`q`, and the first `suggest`). `measured`: refused past the shared limits here;
 * the records searches leave that to their query parser, which counts the words of values only.
 */
export function searchText(measured = true) {
  const text = z.string().meta({ maxLength: SEARCH_QUERY_MAX_LENGTH });
  return z.preprocess(
    readText,
    (measured
      ? text.check((ctx) => {
          const message = searchTextProblem(ctx.value);
          if (message) ctx.issues.push({ code: 'custom', message, input: ctx.value });
        })
      : text
    ).optional(),
  );
}

const NOT_INTEGER = 'Not a valid integer.';

/** An integer as marshmallow's `Integer` reads text (signs and spaces allowed); '' is absent. */
function readInteger(value: unknown): unknown {
  const text = first(value);
  if (text === '' || typeof text !== 'string') return text === '' ? undefined : text;
  return /^\s*[+-]?\d+\s*$/.test(text) ? Number(text) : text;
}

/** `page` or `size`: marshmallow's `Integer(validate=Range(min=1, max=max))`, messages included. */
export function positiveInteger(max?: number) {
  // z.int() would refuse integers past 2^53, which are only past the result window.
  const integer = z
    .number({ error: NOT_INTEGER })
    .refine(Number.isInteger, { message: NOT_INTEGER, abort: true })
    .min(1, 'Must be greater than or equal to 1.');
  return z.preprocess(
    readInteger,
    (max === undefined ? integer : integer.max(max, `Must be less than or equal to ${max}.`))
      .meta({ type: 'integer' })
      .optional(),
  );
}

/** `sort`: one of the route's options; '' is absent (the route's default). */
function sortOption<S extends readonly [string, ...string[]]>(sorts: S) {
  return z.preprocess(
    (value) => (first(value) === '' ? undefined : first(value)),
    z.enum(sorts, { error: (issue) => `Invalid sort option '${String(issue.input)}'.` }).optional(),
  );
}

/**
 * A filter: every non-empty value of a repeated parameter (`type=a&type=b`), OR-ed. Values that
 * match nothing are not refused, as InvenioRDM does not refuse them; `values` are the ones that
 * can match, for the API reference. `check` refuses a value that can never be valid.
 */
export function facet(
  values?: readonly string[],
  check?: (value: string) => string | undefined,
): z.ZodType<string[] | undefined, unknown> {
  const list = z
    .array(z.string())
    .meta({ description: values ? `Any of: ${values.join(', ')}` : 'One value or several' });
  return z.preprocess(
    (value) => {
      const strings = (Array.isArray(value) ? value : [value]).filter(
        (v): v is string => typeof v === 'string' && v !== '',
      );
      return strings.length > 0 ? strings : undefined;
    },
    (check
      ? list.check((ctx) => {
          for (const value of ctx.value) {
            const message = check(value);
            if (message) {
              ctx.issues.push({ code: 'custom', message, input: ctx.value });
              return;
            }
          }
        })
      : list
    ).optional(),
  );
}

/** A yes/no filter of a search: `true` or `1` is yes, as InvenioRDM reads it. */
export const BooleanFilter = facet(['true', 'false']);

/** A query flag as InvenioRDM spells it (`expand=1`, `expand=true`); read by the route. */
export const Flag = z
  .unknown()
  .meta({ type: 'string', enum: ['0', '1', 'true', 'false'] })
  .optional();

/** A search's parameters once read: the contract's defaults are the route's (`searchParams`). */
export interface SearchQueryValues {
  q?: string | undefined;
  page?: number | undefined;
  size?: number | undefined;
  sort?: string | undefined;
  [filter: string]: unknown;
}

export interface SearchQueryOptions {
  /** Largest `size` the route answers, besides the result window. */
  maxSize?: number;
}

/**
 * The parameters every search route shares, its sorts and its filters (`q` is at most 500
 * characters and 32 words on every route; a filter `q` takes its place where the route's own query
 * parser measures it). Every parameter is optional; unknown ones are kept
 * for the route (`ln`, `expand`) and otherwise ignored. page × size past the result window is
 * refused as a whole (INVALID_QUERY_ISSUE).
 */
export function searchQuery<
  S extends readonly [string, ...string[]],
  F extends z.core.$ZodLooseShape = Record<never, never>,
>(sorts: S, filters: F = {} as F, options: SearchQueryOptions = {}) {
  return z
    .looseObject({
      q: searchText().describe(
        'Search text: at most 500 characters and 32 words once NFKC-normalised',
      ),
      page: positiveInteger(),
      size: positiveInteger(options.maxSize),
      sort: sortOption(sorts),
      ...filters,
    })
    .superRefine(
      (value, ctx) => {
        const { page = 1, size = SEARCH_DEFAULT_PAGE_SIZE } = value as SearchQueryValues;
        if (page * size > SEARCH_MAX_WINDOW)
          ctx.addIssue({
            code: 'custom',
            message: 'Invalid querystring parameters.',
            params: { code: INVALID_QUERY_ISSUE },
          });
      },
      // The window is checked before `sort` and the filters: whenever page and size are valid.
      {
        when: (payload) =>
          !payload.issues.some((issue) => issue.path?.[0] === 'page' || issue.path?.[0] === 'size'),
      },
    );
}
