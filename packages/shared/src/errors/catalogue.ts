import { JSON_MAX_DEPTH } from '../limits.js';

/**
 * Every error code Cairn answers with, its HTTP status and its default message.
 *
 * The messages are InvenioRDM's where InvenioRDM has one (clients and tests compare some of them
 * exactly); `code` is Cairn's addition, stable so that clients never have to parse messages.
 */
export const ERROR_CATALOGUE = {
  VALIDATION_FAILED: { status: 400, message: 'A validation error occurred.' },
  INVALID_JSON: { status: 400, message: 'Unable to decode JSON data in request body.' },
  JSON_TOO_DEEP: {
    status: 400,
    message: `JSON nested deeper than ${JSON_MAX_DEPTH} levels of objects and arrays is not accepted.`,
  },
  INVALID_QUERY: { status: 400, message: 'Invalid querystring parameters.' },
  INVALID_VOCABULARY_VALUE: { status: 400, message: 'Invalid value.' },
  CITATION_STYLE_NOT_FOUND: { status: 400, message: 'Citation string style not found.' },
  PID_ALREADY_EXISTS: { status: 400, message: 'A PID already exists for type doi' },
  RECORD_ALREADY_DELETED: { status: 400, message: 'Record is already deleted' },
  RECORD_NOT_DELETED: { status: 400, message: 'Record is not deleted' },
  OPEN_REVIEW_BLOCKS_PUBLISH: {
    status: 400,
    message:
      'You cannot publish a draft with an open review request. Please cancel the review request first.',
  },
  UNAUTHENTICATED: { status: 401, message: 'Authentication required.' },
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid email or password.' },
  PERMISSION_DENIED: { status: 403, message: 'Permission denied.' },
  CSRF_FAILED: {
    status: 403,
    message: 'CSRF token missing or incorrect. Reload the page and try again.',
  },
  NOT_FOUND: { status: 404, message: 'Not found.' },
  PID_DOES_NOT_EXIST: { status: 404, message: 'The persistent identifier does not exist.' },
  PID_NOT_REGISTERED: { status: 404, message: 'The persistent identifier is not registered.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'The method is not allowed for the requested URL.' },
  NOT_ACCEPTABLE: { status: 406, message: "Invalid 'Accept' header." },
  EMAIL_TAKEN: { status: 409, message: 'An account with this email address already exists.' },
  CONFLICT: { status: 409, message: 'The resource was changed at the same time. Please retry.' },
  RECORD_DELETED: { status: 410, message: 'Record deleted' },
  REVISION_MISMATCH: { status: 412, message: "Revision id provided doesn't match record's one" },
  REQUEST_TIMEOUT: { status: 408, message: 'The request body stopped arriving.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    message: "Invalid 'Content-Type' header. Expected one of: application/json",
  },
  RANGE_NOT_SATISFIABLE: { status: 416, message: 'Requested range not satisfiable.' },
  RATE_LIMITED: { status: 429, message: 'Too many requests. Please slow down and retry.' },
  INTERNAL: {
    status: 500,
    message: 'The server encountered an internal error and was unable to complete your request.',
  },
  UPSTREAM_FAILED: {
    status: 502,
    message: 'A service Cairn depends on could not be reached. Please retry later.',
  },
  UPSTREAM_TIMEOUT: {
    status: 504,
    message: 'A service Cairn depends on did not answer in time. Please retry later.',
  },
  SHUTTING_DOWN: { status: 503, message: 'The server is shutting down. Please retry.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** One entry of the contract's `errors` list. */
export interface ErrorItem {
  field: string;
  messages: string[];
  severity?: 'error' | 'warning' | 'info';
  description?: string;
}

/** The wire body of every error response: InvenioRDM's shape plus Cairn's stable `code`. */
export interface ErrorBody {
  status: number;
  message: string;
  code: ErrorCode;
  errors?: ErrorItem[];
  [extra: string]: unknown;
}
