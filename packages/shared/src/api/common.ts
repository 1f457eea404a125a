import { z } from 'zod';
import { MESSAGES } from '../validation/messages.js';

/**
 * The REST API's request schemas, one file per resource (the search routes' query strings in
 * search.ts). The server registers them on its routes (so handlers receive typed input and the
 * OpenAPI document describes what the routes take) and the web app builds its requests from the
 * same types.
 */

/** Path parameters naming one item by `id`, described for the API reference. */
export const idParams = (description: string) => z.object({ id: z.string().describe(description) });

/** The longest comment a request or review takes, in characters. */
export const COMMENT_MAX = 100_000;

/** An absent value (`undefined` or `null`) is "missing"; anything else of the wrong type `other`. */
const missingOr =
  (other: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined || issue.input === null ? MESSAGES.required : other;

/**
 * A body that is not an object is read as an empty one, as the comment schema reads it: its
 * required fields are then missing rather than the whole body refused.
 */
export const objectOrEmpty = (body: unknown): unknown =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};

/**
 * `then`, once `first` passes: what `first` finds is answered alone, as the contract's loaders
 * check a body in stages (a list's length before its items, an entry's id before its options).
 * Documented as `then`: the OpenAPI document shows what a client sends.
 */
export function staged<T extends z.ZodType>(first: z.ZodType, then: T) {
  return z.preprocess((value, ctx) => {
    const result = first.safeParse(value);
    if (!result.success) ctx.issues.push(...(result.error.issues as z.core.$ZodRawIssue[]));
    return value;
  }, then);
}

/** A comment's text as requests and reviews take it: HTML, sanitised by the server. */
export const CommentContent = z.object(
  {
    content: z
      .string({ error: missingOr(MESSAGES.notString) })
      .refine((content) => content.trim().length > 0, {
        error: 'Shorter than minimum length 1.',
        abort: true,
      })
      .max(COMMENT_MAX, { error: `Longer than maximum length ${COMMENT_MAX}.` })
      .describe('HTML; sanitised'),
    format: z.literal('html', { error: 'Must be one of: html.' }).optional(),
  },
  { error: missingOr(MESSAGES.invalidInputType) },
);

/** A comment on a request: `{payload: {content, format?}}`. */
export const CommentPayload = z.preprocess(objectOrEmpty, z.object({ payload: CommentContent }));

/** Days a guest's secret link lasts once their access request is accepted; 0: no end. */
export const LINK_EXPIRATION_MAX_DAYS = 365;

export const linkExpirationDays = z
  .union([
    z.number({ error: 'Not a valid integer.' }),
    z
      .string()
      .regex(/^[0-9]{1,4}$/, { error: 'Not a valid integer.' })
      .transform(Number),
  ])
  .refine((days) => Number.isInteger(days), { error: 'Not a valid integer.', abort: true })
  .refine((days) => days >= 0 && days <= LINK_EXPIRATION_MAX_DAYS, {
    error: `Must be greater than or equal to 0 and less than or equal to ${LINK_EXPIRATION_MAX_DAYS}.`,
  });

/** A request action's body: an optional comment to go with it. */
export const ActionPayload = z.preprocess(
  objectOrEmpty,
  z.object({ payload: CommentContent.nullish() }),
);

/**
 * POST `/api/requests/{id}/actions/{action}`: an optional comment; accepting an access request
 * may also say how many days the guest's link (`secret_link_expiration`, as InvenioRDM's payload
 * names it) or, a Cairn extension, the person's grant lasts, with or without a comment.
 */
export const RequestActionBody = z.preprocess(
  objectOrEmpty,
  z.object({
    payload: z
      .preprocess(
        (payload) =>
          typeof payload === 'object' &&
          payload !== null &&
          !('content' in payload) &&
          'secret_link_expiration' in payload
            ? { ...payload, content: undefined }
            : payload,
        CommentContent.extend({
          content: CommentContent.shape.content.optional(),
          secret_link_expiration: linkExpirationDays.optional(),
        }),
      )
      .nullish(),
  }),
);

/*
 * Response schemas describe the slice of each answer that clients of this project read. Objects
 * are loose: unknown keys are kept, so the web app can send a draft back with every field it does
 * not edit, and the server may add fields without breaking a client. The server's tests parse
 * every answer of a route with the schema the route documents.
 */

/** One item of the wire `errors` list: `{field, messages, severity?, description?}`. */
export const FieldErrorSchema = z.object({
  field: z.string(),
  messages: z.array(z.string()),
  severity: z.enum(['error', 'warning', 'info']).optional(),
  description: z.string().optional(),
});

/**
 * One community a bulk call on a record's communities could not include or remove, as
 * InvenioRDM lists them: `{community_id | community, message}`.
 */
export const CommunityErrorSchema = z.looseObject({
  community_id: z.string().optional(),
  community: z.string().optional(),
  message: z.string(),
});

/** The body of every 4xx and 5xx answer. */
export const ErrorBodySchema = z.looseObject({
  status: z.number().optional(),
  message: z.string().optional(),
  errors: z.array(z.union([FieldErrorSchema, CommunityErrorSchema])).optional(),
  code: z.string().optional(),
});

/** InvenioRDM's search envelope around `item`: `{hits: {hits, total}}` and its links. */
export const hitsOf = <T extends z.ZodType>(item: T) =>
  z.looseObject({
    hits: z.looseObject({ hits: z.array(item), total: z.number() }),
    links: z.record(z.string(), z.string()).optional(),
  });

/** A vocabulary entry's title or description in one language or several. */
export const TitlesSchema = z.record(z.string(), z.string());
