import { z } from 'zod';

/**
 * The REST API's request schemas, one file per resource (the search routes' query strings in
 * search.ts). The server registers them on its routes (so handlers receive typed input and the
 * OpenAPI document describes what the routes take) and the web app builds its requests from the
 * same types.
 */

/** Path parameters naming one item by `id`, described for the API reference. */
export const idParams = (description: string) => z.object({ id: z.string().describe(description) });

/** A comment's text as requests and reviews take it: HTML, sanitised by the server. */
export const CommentPayload = z.object({
  payload: z.object({
    content: z.string().min(1).describe('HTML; sanitised'),
    format: z.literal('html').optional(),
  }),
});

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
