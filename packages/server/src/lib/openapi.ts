import { z } from 'zod';

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
