import { ERROR_CATALOGUE, type ErrorCode } from '@cairn/shared';
import { vi } from 'vitest';
import type { FieldError } from '../api/records';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Headers;
  /** The parsed JSON body, if any. */
  body: unknown;
  /** The body, when it is a form. */
  form?: FormData;
}

export type Responder = (request: RecordedRequest) => Response | Promise<Response>;

/**
 * Replaces `fetch`, the network boundary, with `respond`; returns the requests as they arrive.
 */
export function stubFetch(respond: Responder): RecordedRequest[] {
  const requests: RecordedRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const request: RecordedRequest = {
        method: init.method ?? 'GET',
        url: input instanceof Request ? input.url : input.toString(),
        headers: new Headers(init.headers),
        body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
        ...(init.body instanceof FormData ? { form: init.body } : {}),
      };
      requests.push(request);
      return respond(request);
    }),
  );
  return requests;
}

/** Answers requests in order, one response each; a further request fails the test. */
export function stubFetchSequence(...responses: Response[]): RecordedRequest[] {
  return stubFetch((request) => {
    const response = responses.shift();
    if (!response) throw new Error(`Unexpected request: ${request.method} ${request.url}`);
    return response;
  });
}

/**
 * The answer Cairn gives for `code`: the catalogue's status and message (or `message`), the code,
 * and any `errors` or further keys in `extra`.
 */
export function errorResponse(
  code: ErrorCode,
  extra: { message?: string; errors?: FieldError[]; [key: string]: unknown } = {},
): Response {
  const { status, message } = ERROR_CATALOGUE[code];
  return jsonResponse(status, { status, message, code, ...extra });
}

export function jsonResponse(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}
