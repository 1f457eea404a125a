import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaValidationError,
} from 'fastify';
import type { z } from 'zod';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_CATALOGUE, type ErrorBody, type ErrorCode, type ErrorItem } from '@cairn/shared';
import { AppError } from '../errors.js';
import { isUniqueViolation } from '../database/errors.js';
import { queryRefusal } from '../lib/zod-errors.js';
import { bodyTimeout, stopWatchingBody } from './body-timeout.js';

const NOT_FOUND_MESSAGE = 'The requested URL was not found on the server.';

/**
 * The code of a client error that Fastify or a plugin raised with a status only: the generic one
 * for the status, never a specific one (a framework 401 is not a wrong password).
 */
const GENERIC_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'RANGE_NOT_SATISFIABLE',
  429: 'RATE_LIMITED',
};

function send(
  reply: FastifyReply,
  code: ErrorCode,
  message?: string,
  errors?: ErrorItem[],
  extra?: Record<string, unknown>,
) {
  const status = ERROR_CATALOGUE[code].status;
  const body: ErrorBody = {
    status,
    message: message ?? ERROR_CATALOGUE[code].message,
    code,
    ...extra,
  };
  if (errors && errors.length > 0) body.errors = errors;
  return reply.status(status).type('application/json').send(body);
}

/** Zod issue paths of querystring/params/body become dotted fields, with every issue kept. */
function zodErrors(error: FastifyError): ErrorItem[] {
  const byField = new Map<string, string[]>();
  for (const v of error.validation ?? []) {
    const params = v.params as { issue?: { path?: PropertyKey[] } } | undefined;
    const issuePath = params?.issue?.path;
    const field = issuePath?.length
      ? issuePath.map(String).join('.')
      : v.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_schema';
    const list = byField.get(field) ?? [];
    list.push(v.message ?? 'Invalid value.');
    byField.set(field, list);
  }
  return [...byField].map(([field, messages]) => ({ field, messages }));
}

/** The Zod issue fastify-type-provider-zod spread into one of Fastify's validation errors. */
function zodIssue(v: FastifySchemaValidationError): z.core.$ZodIssue {
  return {
    ...v.params,
    code: v.keyword,
    message: v.message ?? 'Invalid value.',
    path: v.instancePath.split('/').slice(1),
  } as z.core.$ZodIssue;
}

/**
 * Fastify's `frameworkErrors` option: a URL that cannot be decoded, or a path parameter past the
 * router's length limit, never reaches a route, so it names nothing that exists. Without this
 * hook Fastify answers with its own body shape instead of the contract's.
 */
export function handleFrameworkError(
  _error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  void send(reply, 'NOT_FOUND', NOT_FOUND_MESSAGE);
}

const LINGER_MS = 2000;

/**
 * Refused before its body was read (an upload over quota, say): the rest of the body is read and
 * discarded for a moment after the answer, then the connection is closed. Closing at once would
 * make the client's next write fail before it could read why (EPIPE instead of the 400);
 * reading on would take in gigabytes only to throw them away.
 */
function lingerThenClose(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  stopWatchingBody(request);
  reply.raw.once('finish', () => {
    const timer = setTimeout(() => raw.destroy(), LINGER_MS);
    timer.unref();
    raw.once('end', () => clearTimeout(timer));
  });
  raw.resume();
}

/**
 * Turns everything thrown into the InvenioRDM error body. Anything unexpected is logged with the
 * request id and answered 500 without internals.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const timedOut = bodyTimeout(request);
    if (timedOut) {
      // The client stopped sending: the answer is the last thing on this connection.
      reply.raw.once('finish', () => request.raw.socket?.destroy());
      void reply.header('connection', 'close');
      return send(reply, timedOut.code, timedOut.message);
    }
    if (!request.raw.complete) lingerThenClose(request, reply);
    if (error instanceof AppError) {
      if (error.headers) void reply.headers(error.headers);
      return send(reply, error.code, error.message, error.errors, error.extra);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      if (error.validationContext === 'querystring') {
        const refusal = queryRefusal(error.validation.map(zodIssue));
        return send(reply, refusal.code, refusal.message, refusal.errors);
      }
      return send(reply, 'VALIDATION_FAILED', undefined, zodErrors(error));
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return send(reply, 'INVALID_JSON');
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(reply, 'PAYLOAD_TOO_LARGE', request.routeOptions.config.bodyTooLargeMessage);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(reply, 'UNSUPPORTED_MEDIA_TYPE');
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return send(reply, 'INVALID_JSON');
    }
    if (error instanceof SyntaxError && error.statusCode === 400)
      return send(reply, 'INVALID_JSON');
    if (isUniqueViolation(error)) return send(reply, 'CONFLICT');
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'client error');
      return send(reply, GENERIC_CODES[error.statusCode] ?? 'VALIDATION_FAILED', error.message);
    }
    request.log.error({ err: error, reqId: request.id }, 'unexpected error');
    return send(reply, 'INTERNAL', undefined, undefined, { error_id: request.id });
  });

  app.setNotFoundHandler((_request, reply) => send(reply, 'NOT_FOUND', NOT_FOUND_MESSAGE));
}
