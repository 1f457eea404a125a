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
