import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** What a redacted value is replaced with, in structured fields and in text alike. */
export const REDACTED = '[redacted]';

/**
 * Query parameters that carry credentials: InvenioRDM clients send their token as
 * `?access_token=`, and a key, secret, password or signature under any name is no better.
 */
const SECRET_PARAMETER = /token|secret|passw|api[-_]?key|signature|credential|session/i;

/** Headers whose values are credentials (the session and CSRF cookies travel in `cookie`). */
const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-csrftoken',
  'x-amz-security-token',
];

/** Body and object fields that hold credentials, should code ever log a body. */
const SECRET_FIELDS = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'access_token',
  'refresh_token',
  'secret',
  'secretAccessKey',
];

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * `name=value` pairs after `?`, `&` or `;`. The value stops at a quote or backslash as well, so
 * that the same expression can run over a JSON-encoded log line without breaking its escapes.
 */
const QUERY_PAIR = /([?&;])([^=&#\s"'\\]+)=([^&#\s"'\\]*)/g;
/** `Bearer …`, `Basic …`, and Cairn's own token format wherever it appears in text. */
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const CAIRN_TOKEN = /\bcairn_[A-Za-z0-9_-]{40,}/g;

/** `text` with credentials in query strings, authorization schemes and Cairn tokens replaced. */
export function redactText(text: string): string {
  return text
    .replace(QUERY_PAIR, (pair, separator: string, name: string) =>
      SECRET_PARAMETER.test(decodedName(name)) ? `${separator}${name}=${REDACTED}` : pair,
    )
    .replace(BEARER, (_match, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(CAIRN_TOKEN, REDACTED);
}

/** pino's redaction paths: the secret headers and fields at the depths code logs them. */
function redactPaths(): string[] {
  const headers = SECRET_HEADERS.flatMap((name) => [`headers["${name}"]`, `*.headers["${name}"]`]);
  const fields = SECRET_FIELDS.flatMap((name) => [name, `*.${name}`, `*.*.${name}`]);
  return [...headers, ...fields];
}

/**
 * Fastify's logger options for every Cairn process. Structured fields are redacted by name
 * (pino's `redact`), the request line's URL by its serializer, and each line is scrubbed once
 * more as text on its way out: an error message or stack, or any message, may repeat a URL or
 * a header that was never a field of its own.
 */
export function loggerOptions(
  level: string,
  stream?: { write(line: string): void },
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    redact: { paths: redactPaths(), censor: REDACTED },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactText(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    hooks: { streamWrite: redactText },
    ...(stream ? { stream } : {}),
  };
}
