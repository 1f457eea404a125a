import {
  ERROR_CATALOGUE,
  ErrorBodySchema,
  FieldErrorSchema,
  type ErrorCode,
  type FieldError,
} from '@cairn/shared';

/** The media type that makes InvenioRDM add the localised `ui` object to records. */
export const INVENIO_JSON = 'application/vnd.inveniordm.v1+json';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A non-2xx answer (or no answer at all: `status` 0) in the wire error format. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly errors?: FieldError[];
  /**
   * The catalogue's code for the failure, which the app branches on rather than on `status`: one
   * status stands for several failures (a 404 is an unknown record, file or community). Absent
   * when no Cairn answered (a proxy's error page, no answer) or the code is one this app does not
   * know.
   */
  readonly code?: ErrorCode;
  /**
   * Whether `message` came from the server. Banners show a server message instead of their default
   * text, but never a transport error such as "Failed to fetch".
   */
  readonly hasServerMessage: boolean;

  constructor(
    status: number,
    message: string,
    details: { errors?: FieldError[]; code?: ErrorCode; hasServerMessage?: boolean } = {},
  ) {
    super(message);
    this.status = status;
    if (details.errors) this.errors = details.errors;
    if (details.code) this.code = details.code;
    this.hasServerMessage = details.hasServerMessage ?? false;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string>;
  body?: unknown;
  /** The `revision_id` the change is based on; the server answers 412 when it moved on. */
  ifMatch?: number;
  accept?: string;
}

export interface ApiClientOptions {
  csrfCookieName: string;
  csrfHeaderName: string;
}

/** The API client of a page, with the CSRF settings its bootstrap names. */
export function createApiClient(bootstrap: {
  config: { csrfCookieName: string; csrfHeaderName: string };
}): ApiClient {
  return new ApiClient({
    csrfCookieName: bootstrap.config.csrfCookieName,
    csrfHeaderName: bootstrap.config.csrfHeaderName,
  });
}

/**
 * The only place that talks HTTP to Cairn's API. Sends the session cookie and the CSRF header,
 * and turns every non-2xx answer into an {@link ApiError}; success bodies are returned as
 * `unknown` for the caller to validate.
 */
export class ApiClient {
  readonly #options: ApiClientOptions;

  constructor(options: ApiClientOptions) {
    this.#options = options;
  }

  async request(url: string, options: RequestOptions = {}): Promise<unknown> {
    const method = options.method ?? 'GET';
    const headers = new Headers({ Accept: options.accept ?? INVENIO_JSON });
    if (options.body !== undefined) headers.set('Content-Type', 'application/json');
    if (options.ifMatch !== undefined) headers.set('If-Match', String(options.ifMatch));
    if (UNSAFE_METHODS.has(method)) {
      const token = readCookie(this.#options.csrfCookieName);
      if (token !== undefined) headers.set(this.#options.csrfHeaderName, token);
    }

    let response: Response;
    try {
      response = await fetch(toRequestPath(url, options.query), {
        method,
        headers,
        credentials: 'same-origin',
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      });
    } catch (error) {
      throw new ApiError(0, error instanceof Error ? error.message : String(error));
    }

    const body = await readBody(response);
    if (!response.ok) throw toApiError(response, body);
    return body;
  }

  /**
   * The first `maxBytes` of a file as text (a `Range` request), for previews: a 2 GB CSV must
   * not be downloaded to show its first rows. Servers that ignore Range send it all; the text is
   * cut to the same length.
   */
  async getTextPrefix(url: string, maxBytes: number): Promise<string> {
    let response: Response;
    try {
      response = await fetch(toRequestPath(url), {
        headers: { Range: `bytes=0-${maxBytes - 1}` },
        credentials: 'same-origin',
      });
    } catch (error) {
      throw new ApiError(0, error instanceof Error ? error.message : String(error));
    }
    if (!response.ok) throw toApiError(response, await readBody(response));
    const bytes = new Uint8Array(await response.arrayBuffer()).subarray(0, maxBytes);
    // A cut may split a multi-byte character: the decoder replaces the torn tail.
    return new TextDecoder().decode(bytes);
  }

  get(url: string, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<unknown> {
    return this.request(url, { ...options, method: 'GET' });
  }

  post(url: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) {
    return this.request(url, { ...options, method: 'POST', body });
  }

  put(url: string, body: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) {
    return this.request(url, { ...options, method: 'PUT', body });
  }
}

/**
 * Links in API responses are absolute URLs built from the configured site URL. The app only
 * ever talks to the server that served it, so requests go to the path on the current origin:
 * this keeps cookies same-origin when the page is reached under another host name (or through
 * the Vite dev proxy).
 */
export function toRequestPath(url: string, query: Record<string, string> = {}): string {
  const resolved = new URL(url, window.location.origin);
  for (const [name, value] of Object.entries(query)) resolved.searchParams.set(name, value);
  return resolved.pathname + resolved.search;
}

/** A cookie's value (the CSRF token), undefined when it is not set. */
export function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function toApiError(response: Response, body: unknown): ApiError {
  const parsed = ErrorBodySchema.safeParse(body);
  if (!parsed.success) {
    return new ApiError(response.status, response.statusText || `HTTP ${response.status}`);
  }
  const { message } = parsed.data;
  // Field errors only: a bulk call on a record's communities lists communities instead.
  const errors = parsed.data.errors?.flatMap((error) => {
    const field = FieldErrorSchema.safeParse(error);
    return field.success ? [field.data] : [];
  });
  const code = isErrorCode(parsed.data.code) ? parsed.data.code : undefined;
  return new ApiError(
    response.status,
    message ?? (response.statusText || `HTTP ${response.status}`),
    {
      ...(errors ? { errors } : {}),
      ...(code ? { code } : {}),
      hasServerMessage: message !== undefined && message !== '',
    },
  );
}

function isErrorCode(code: string | undefined): code is ErrorCode {
  return code !== undefined && Object.hasOwn(ERROR_CATALOGUE, code);
}

/** The catalogue's code of a failed API call, undefined for any other failure. */
export function errorCodeOf(error: unknown): ErrorCode | undefined {
  return error instanceof ApiError ? error.code : undefined;
}

/** The server's own words for a failure, when it sent any (never a transport error text). */
export function serverMessageOf(error: unknown): string | undefined {
  return error instanceof ApiError && error.hasServerMessage ? error.message : undefined;
}
