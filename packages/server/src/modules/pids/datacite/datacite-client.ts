import type { DataCiteAttributes } from './datacite-types.js';

/** Where and as whom to talk to DataCite's REST API. */
export interface DataCiteClientOptions {
  /** API root without `/dois`, e.g. https://api.test.datacite.org or https://api.datacite.org. */
  url: string;
  /** Repository account id (e.g. `CAIRN.TEST`). */
  username: string;
  password: string;
  /** The repository's DOI prefix, e.g. `10.5072`; DOIs outside it are refused before sending. */
  prefix: string;
  /** Injected for tests and proxies; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Per request, covering the response body too. */
  timeoutMs?: number;
}

/** One entry of a JSON:API error body, e.g. `{source: 'url', title: "Can't be blank"}`. */
export interface DataCiteErrorItem {
  title: string;
  source?: string;
  status?: string;
}

/**
 * DataCite refused a request, or could not be reached.
 *
 * `status` is the HTTP status, or 0 when no answer came (network failure, time-out) or the
 * request was refused before sending. `retryable` says whether the same request may succeed
 * later: true for status 0 from the network, 408, 429 and 5xx; false for other 4xx, which need
 * the metadata or the configuration fixed first.
 */
export class DataCiteError extends Error {
  override readonly name = 'DataCiteError';

  constructor(
    message: string,
    readonly status: number,
    readonly retryable: boolean,
    readonly errors: DataCiteErrorItem[] = [],
    /** From a 429's or 503's Retry-After header, when DataCite sent one. */
    readonly retryAfterSeconds?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

const JSON_API = 'application/vnd.api+json';
const DEFAULT_TIMEOUT_MS = 30_000;

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** DOIs may hold any printable character; only the prefix/suffix slash may stay unescaped. */
function doiPath(doi: string): string {
  return doi.split('/').map(encodeURIComponent).join('/');
}

function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function parseErrors(body: string): DataCiteErrorItem[] {
  try {
    const parsed = JSON.parse(body) as { errors?: unknown };
    if (!Array.isArray(parsed.errors)) return [];
    return parsed.errors.flatMap((e: unknown) => {
      if (typeof e !== 'object' || e === null) return [];
      const { title, source, status } = e as Record<string, unknown>;
      if (typeof title !== 'string') return [];
      return [
        {
          title,
          ...(typeof source === 'string' ? { source } : {}),
          ...(typeof status === 'string' || typeof status === 'number'
            ? { status: String(status) }
            : {}),
        },
      ];
    });
  } catch {
    return [];
  }
}

function describeFailure(cause: unknown, timeoutMs: number): string {
  if (cause instanceof Error) {
    if (cause.name === 'TimeoutError' || cause.name === 'AbortError')
      return `timed out after ${timeoutMs} ms`;
    // undici reports "fetch failed" and keeps the useful part (ECONNREFUSED, ENOTFOUND) in cause.
    const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : '';
    return `${cause.message}${inner}`;
  }
  return String(cause);
}

/**
 * Registers, hides and deletes DOIs through DataCite's REST API (JSON:API over HTTPS, HTTP
 * Basic auth). It makes one attempt per call; retrying is the caller's job, guided by
 * {@link DataCiteError.retryable}, so that retries can outlive the request that caused them.
 */
export class DataCiteClient {
  readonly prefix: string;
  private readonly baseUrl: string;
  private readonly authorization: string;
  private readonly fetchFn: typeof fetch;
  private readonly timeoutMs: number;

  constructor(options: DataCiteClientOptions) {
    this.baseUrl = options.url.replace(/\/+$/, '');
    this.prefix = options.prefix;
    this.authorization = `Basic ${Buffer.from(`${options.username}:${options.password}`, 'utf8').toString('base64')}`;
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /**
   * Creates or updates the DOI and makes it findable, pointing at `landingUrl`. DataCite's PUT is
   * an upsert, so calling this again after a failure or a metadata edit is safe.
   * Throws {@link DataCiteError}.
   */
  async registerDoi(
    doi: string,
    landingUrl: string,
    attributes: DataCiteAttributes,
  ): Promise<void> {
    await this.send('PUT', doi, { ...attributes, doi, url: landingUrl, event: 'publish' });
  }

  /**
   * Moves a findable DOI to the registered state: it still resolves, but leaves DataCite's search
   * (used when a record is deleted or restricted). Throws {@link DataCiteError}.
   */
  async hideDoi(doi: string): Promise<void> {
    await this.send('PUT', doi, { event: 'hide' });
  }

  /**
   * Deletes a draft DOI. DataCite refuses (405 or 403) for DOIs that were ever registered or
   * findable, since those can never be removed. Throws {@link DataCiteError}, 404 included.
   */
  async deleteDraftDoi(doi: string): Promise<void> {
    await this.send('DELETE', doi);
  }

  private async send(
    method: 'PUT' | 'DELETE',
    doi: string,
    attributes?: Record<string, unknown>,
  ): Promise<void> {
    const label = `${method} /dois/${doi}`;
    if (!doi.toLowerCase().startsWith(`${this.prefix.toLowerCase()}/`)) {
      throw new DataCiteError(
        `DataCite ${label} refused: the DOI is not under prefix ${this.prefix}`,
        0,
        false,
      );
    }
    const headers: Record<string, string> = { Accept: JSON_API, Authorization: this.authorization };
    let body: string | undefined;
    if (attributes) {
      headers['Content-Type'] = JSON_API;
      body = JSON.stringify({ data: { id: doi, type: 'dois', attributes } });
    }

    let status: number;
    let text: string;
    let retryAfter: string | null;
    try {
      const response = await this.fetchFn(`${this.baseUrl}/dois/${doiPath(doi)}`, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      // Read the body even on success, so the connection goes back to the pool.
      text = await response.text();
    } catch (cause) {
      throw new DataCiteError(
        `DataCite ${label} failed: ${describeFailure(cause, this.timeoutMs)}`,
        0,
        true,
        [],
        undefined,
        {
          cause,
        },
      );
    }
    if (status >= 200 && status < 300) return;

    const errors = parseErrors(text);
    const detail = errors.length
      ? errors.map((e) => (e.source ? `${e.source}: ${e.title}` : e.title)).join('; ')
      : text.trim().slice(0, 200) || 'no details';
    throw new DataCiteError(
      `DataCite ${label} answered ${status}: ${detail}`,
      status,
      isRetryableStatus(status),
      errors,
      parseRetryAfter(retryAfter),
    );
  }
}
