import type { FastifyError, FastifyRequest, preHandlerHookHandler } from 'fastify';

/**
 * A route whose JSON body its schema validates, but whose refusal waits until the handler reads
 * the body ({@link validBody}). The contract answers a request for a missing draft with 404, and
 * an anonymous caller with 403, whatever its body holds: the body is only judged where the
 * service used to read it. Params and query strings are still refused at once.
 */
export const DEFERRED_BODY = {
  attachValidation: true,
  preHandler: refuseAllButBody,
} as const;

function refuseAllButBody(...[request, , done]: Parameters<preHandlerHookHandler>): void {
  const error = request.validationError as FastifyError | undefined;
  done(error && error.validationContext !== 'body' ? error : undefined);
}

/**
 * The body as the route's schema parsed it; throws the schema's refusal, which the error handler
 * answers as the contract's 400 with one item per field.
 */
export function validBody<T>(request: FastifyRequest & { body: T }): T {
  if (request.validationError) throw request.validationError;
  return request.body;
}

/** The body read later, where the service decides (after the caller's permission, say). */
export type BodyReader<T> = () => T;

/** A reader of the route's validated body, for a service that judges it after its own checks. */
export function bodyReader<T>(request: FastifyRequest & { body: T }): BodyReader<T> {
  return () => validBody(request);
}
