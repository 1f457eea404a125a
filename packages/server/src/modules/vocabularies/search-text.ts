/**
 * The one normalisation every vocabulary search uses, in memory and in SQL alike, so that
 * `muller` finds `Müller` on SQLite and on PostgreSQL without relying on either engine's
 * collations or text-search dictionaries.
 */

/**
 * Case- and accent-insensitive form: decomposed, marks dropped, lower case, and anything but
 * letters and digits as a single space (so `cc-by-4.0` and `CC BY 4.0` meet).
 */
export function normaliseSearchText(text: string): string {
  // Most names and labels are plain ASCII: skip decomposition and Unicode classes for them.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) {
    return text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  }
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The distinct words of already-normalised text. */
export function searchTokens(normalised: string): string[] {
  return [...new Set(normalised.split(' ').filter((t) => t !== ''))];
}

// What people paste: resolver URLs and `scheme:` prefixes around ORCID, ROR, GND, ISNI and DOIs.
const IDENTIFIER_PREFIX =
  /^(?:https?:\/\/(?:www\.)?(?:orcid\.org|ror\.org|d-nb\.info\/gnd|isni\.org\/isni|(?:dx\.)?doi\.org)\/|(?:orcid|ror|gnd|isni|doi):\s*)/i;

/**
 * An identifier reduced to what identifies it: resolver prefix gone, lower case, only letters and
 * digits. `https://orcid.org/0000-0002-1825-0097`, `0000000218250097` and `orcid:0000-0002-1825-0097`
 * are the same person; `https://ror.org/01ggx4157` and `01ggx4157` the same organisation.
 */
export function compactIdentifier(identifier: string): string {
  return identifier
    .trim()
    .replace(IDENTIFIER_PREFIX, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * Whether a query, typed whole, could be an identifier rather than words: one chunk, at least
 * some digits (ORCID, ROR, GND, ISNI and DOIs all have them).
 */
export function identifierQuery(query: string): string | undefined {
  const q = query.trim();
  if (q === '' || /\s/.test(q.replace(IDENTIFIER_PREFIX, ''))) return undefined;
  const compact = compactIdentifier(q);
  return compact.length >= 4 && /\d/.test(compact) ? compact : undefined;
}
