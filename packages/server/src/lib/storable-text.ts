// PostgreSQL's text and jsonb cannot hold U+0000 or an unpaired UTF-16 surrogate ("unsupported
// Unicode escape sequence"), while SQLite stores both. Client text is made storable once, where it
// enters (JSON bodies and query strings), so both engines keep the same thing and neither fails.
const UNPAIRED_SURROGATE =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` without U+0000, and with each unpaired surrogate replaced by U+FFFD. */
export function storableText(text: string): string {
  return text.replaceAll('\u0000', '').replace(UNPAIRED_SURROGATE, '\uFFFD');
}

/**
 * True when JSON text may hold an unstorable character. Only the escaped forms can: Fastify
 * decodes bodies as UTF-8, which turns raw surrogate bytes into U+FFFD, and JSON forbids raw NUL.
 */
export function mayHoldUnstorableText(json: string): boolean {
  return /\\u(?:0000|d[89a-f])/i.test(json);
}

/** A `JSON.parse` reviver applying {@link storableText} to every string and object key. */
export function reviveStorable(_key: string, value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (keys.every((k) => storableText(k) === k)) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [storableText(k), v]),
  );
}

/** A parsed query string with {@link storableText} applied to names and values. */
export function storableQuery(
  query: Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  // fromEntries defines own properties, so a parameter named __proto__ stays a plain parameter.
  return Object.fromEntries(
    Object.entries(query).flatMap(([name, value]) =>
      value === undefined
        ? []
        : [
            [
              storableText(name),
              Array.isArray(value) ? value.map(storableText) : storableText(value),
            ],
          ],
    ),
  );
}

/** `value` as JSON text that both engines can store (for bodies parsed with raw text kept). */
export function storableJson(value: unknown): string {
  const json = JSON.stringify(value);
  return mayHoldUnstorableText(json) ? JSON.stringify(JSON.parse(json, reviveStorable)) : json;
}
