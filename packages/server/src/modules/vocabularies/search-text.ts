/**
 * The one normalisation every vocabulary search uses, in memory and in SQL alike, so that
 * `muller` finds `Müller` on SQLite and on PostgreSQL without relying on either engine's
 * collations or text-search dictionaries.
 */

// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/** The steps of normaliseSearchText over a whole text, separators not yet collapsed or trimmed. */
function foldWhole(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^\p{L}\p{N}]+/gu, ' ');
}

/** normaliseSearchText as its definition reads; the fast path must agree with it (a test checks). */
export function normaliseSearchTextByDefinition(text: string): string {
  return foldWhole(text).trim();
}

// Every step above works character by character, but for two: lower-casing Σ depends on whether
// it ends a word (ς or σ), and a character outside the BMP is two code units. Text with either
// takes the definition; everything else is folded one code unit at a time from this table,
// filled on first use (null: not foldable alone), which costs a fraction of the regular
// expressions on the names an import reads by the million.
const FOLDED: Array<string | null | undefined> = new Array<string | null | undefined>(0x10000);
for (let c = 0; c < 0x80; c++) FOLDED[c] = foldWhole(String.fromCharCode(c));

function folded(c: number): string | null {
  let f = FOLDED[c];
  if (f === undefined) {
    const char = String.fromCharCode(c);
    f =
      (c >= 0xd800 && c <= 0xdfff) || char.normalize('NFKD').includes('\u03a3')
        ? null
        : foldWhole(char);
    FOLDED[c] = f;
  }
  return f;
}

/**
 * Case- and accent-insensitive form: decomposed, marks dropped, lower case, and anything but
 * letters and digits as a single space (so `cc-by-4.0` and `CC BY 4.0` meet).
 */
export function normaliseSearchText(text: string): string {
  let out = '';
  let gap = false;
  for (let i = 0; i < text.length; i++) {
    const f = folded(text.charCodeAt(i));
    if (f === null) return normaliseSearchTextByDefinition(text);
    for (let j = 0; j < f.length; j++) {
      const ch = f[j]!;
      if (ch === ' ') {
        gap = out !== '';
      } else {
        if (gap) {
          out += ' ';
          gap = false;
        }
        out += ch;
      }
    }
  }
  return out;
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
  const lower = identifier.trim().replace(IDENTIFIER_PREFIX, '').toLowerCase();
  // Identifiers are nearly always ASCII, where a plain class does what the Unicode one does.
  return ASCII.test(lower)
    ? lower.replace(/[^a-z0-9]+/g, '')
    : lower.replace(/[^\p{L}\p{N}]+/gu, '');
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
