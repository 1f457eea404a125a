import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';

/**
 * Every route `register` adds, as `METHOD /url` (HEAD aside), read from a bare Fastify: the
 * permission matrices check that each route of their modules has a row.
 */
export async function registeredRoutes(
  register: (app: FastifyInstance) => PromiseLike<unknown>,
): Promise<Set<string>> {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const routes = new Set<string>();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.add(`${method} ${route.url}`);
    }
  });
  await register(app);
  await app.close();
  return routes;
}
