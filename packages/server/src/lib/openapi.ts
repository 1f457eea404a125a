import { z } from 'zod';
import { ErrorBodySchema } from '@cairn/shared';

/** The schema as JSON Schema for the OpenAPI document, as a client would send it. */
function describe(schema: z.core.$ZodType): Record<string, unknown> {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { $schema, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input' });
  return jsonSchema;
}

/**
 * A body schema for the OpenAPI document only: the request is not validated against it, because
 * the service checks bodies itself and answers with the contract's messages and field paths (a
 * draft, for one, is stored even when parts of it are invalid).
 */
export function documentedBody(schema: z.ZodType, description?: string): z.ZodType<unknown> {
  return z.unknown().meta({ ...describe(schema), ...(description ? { description } : {}) });
}

/**
 * Query parameters for the OpenAPI document only: every value passes on to the service, which
 * parses them itself with the contract's messages (InvenioRDM ignores unknown parameters).
 */
export function documentedQuery(
  schema: z.ZodObject<z.ZodRawShape>,
): z.ZodType<Record<string, unknown>> {
  return z.looseObject(
    Object.fromEntries(
      Object.entries<z.core.$ZodType>(schema.shape).map(([name, parameter]) => [
        name,
        z.unknown().optional().meta(describe(parameter)),
      ]),
    ),
  );
}

/** The schema each documented response stands for, so that tests can hold answers to it. */
const contracts = new WeakMap<object, z.ZodType>();

/**
 * A response for the OpenAPI document: described by `schema`, but not checked on every answer
 * (that would parse each record twice in production). The test app checks every JSON answer
 * against the schema its route documents for the status (`responseContract`).
 */
export function documentedResponse(schema: z.ZodType, description: string): z.ZodType<unknown> {
  const documented = z.unknown().meta({ ...describe(schema), description });
  contracts.set(documented, schema);
  return documented;
}

/** A success without a body (204). */
export function noContent(description: string): z.ZodType<unknown> {
  return z.null().meta({ description });
}

/**
 * The schema a route documents for an answer with `status`: the exact status first, then its
 * class (`4XX`), as Fastify picks them.
 */
export function responseContract(
  responses: Record<string, unknown> | undefined,
  status: number,
): z.ZodType | undefined {
  const documented = responses?.[String(status)] ?? responses?.[`${String(status)[0]}XX`];
  if (typeof documented !== 'object' || documented === null) return undefined;
  // An answer documented per media type is held to the schema of its JSON.
  const json = (documented as { content?: Record<string, { schema?: unknown }> }).content?.[
    'application/json'
  ]?.schema;
  return contracts.get(typeof json === 'object' && json !== null ? json : documented);
}

/**
 * A response documented per media type, as an operation that answers several (`Accept`) has it:
 * each type with its schema. Fastify serializes by the schema of the type the answer has.
 */
export function documentedContent(
  description: string,
  schemas: Record<string, z.ZodType>,
): { description: string; content: Record<string, { schema: z.ZodType }> } {
  return {
    description,
    content: Object.fromEntries(
      Object.entries(schemas).map(([type, schema]) => [type, { schema }]),
    ),
  };
}

/** What every API route may answer besides its successes. */
export const ERROR_RESPONSES = {
  '4XX': documentedResponse(ErrorBodySchema, "Refused: the contract's error body"),
  '5XX': documentedResponse(ErrorBodySchema, 'The server failed or is not available'),
};
