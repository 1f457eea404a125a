import { z } from 'zod';

/**
 * A body schema for the OpenAPI document only: the request is not validated against it, because
 * the service checks bodies itself and answers with the contract's messages and field paths.
 */
export function documentedBody<T extends z.ZodType>(schema: T, description?: string): z.ZodType {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { $schema, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input' });
  return z.any().meta({ ...jsonSchema, ...(description ? { description } : {}) });
}

/**
 * Query parameters for the OpenAPI document only: every value passes on to the service, which
 * parses them itself with the contract's messages (InvenioRDM ignores unknown parameters).
 */
export function documentedQuery(parameters: Record<string, z.ZodType>): z.ZodType {
  return z.looseObject(
    Object.fromEntries(
      Object.entries(parameters).map(([name, schema]) => {
        // eslint-disable-next-line @typescript-eslint/no-unused-vars
        const { $schema, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input' });
        return [name, z.any().optional().meta(jsonSchema)];
      }),
    ),
  );
}

/** One value or several of a facet filter, repeated (`type=a&type=b`). */
export const facet = (values?: readonly [string, ...string[]]) =>
  z.union([values ? z.enum(values) : z.string(), z.array(values ? z.enum(values) : z.string())]);

/**
 * The parameters every search route shares (InvenioRDM's search contract), its sorts and its
 * filters; `q` is at most 500 characters and 32 words on every route.
 */
export function searchQuery(
  sorts: readonly [string, ...string[]],
  filters: Record<string, z.ZodType> = {},
): z.ZodType {
  return documentedQuery({
    q: z
      .string()
      .max(500)
      .describe('Search text: at most 500 characters and 32 words once NFKC-normalised'),
    sort: z.enum(sorts),
    page: z.int().min(1),
    size: z.int().min(1),
    ...filters,
  });
}
