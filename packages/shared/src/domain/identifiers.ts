/**
 * Persistent identifier helpers in the manner of Python's idutils, which InvenioRDM uses to detect,
 * validate and normalise identifiers. Only the schemes a record can carry are covered.
 */

/** Every identifier scheme a record, creator, reference or funding entry can carry. */
export type IdentifierScheme =
  | 'doi'
  | 'orcid'
  | 'ror'
  | 'isni'
  | 'gnd'
  | 'isbn'
  | 'issn'
  | 'eissn'
  | 'lissn'
  | 'url'
  | 'urn'
  | 'handle'
  | 'ark'
  | 'arxiv'
  | 'ads'
  | 'pmid'
  | 'purl'
  | 'lsid'
  | 'istc'
  | 'upc'
  | 'igsn'
  | 'wikidata'
  | 'rrid'
  | 'cstr'
  | 'crossreffunderid'
  | 'grid'
  | 'other';

/** Display labels, as InvenioRDM's scheme configuration spells them (used in error messages). */
export const IDENTIFIER_SCHEME_LABELS: Readonly<Record<IdentifierScheme, string>> = Object.freeze({
  doi: 'DOI',
  orcid: 'ORCID',
  ror: 'ROR',
  isni: 'ISNI',
  gnd: 'GND',
  isbn: 'ISBN',
  issn: 'ISSN',
  eissn: 'EISSN',
  lissn: 'LISSN',
  url: 'URL',
  urn: 'URN',
  handle: 'Handle',
  ark: 'ARK',
  arxiv: 'arXiv',
  ads: 'Bibcode',
  pmid: 'PMID',
  purl: 'PURL',
  lsid: 'LSID',
  istc: 'ISTC',
  upc: 'UPC',
  igsn: 'IGSN',
  wikidata: 'Wikidata',
  rrid: 'RRID',
  cstr: 'CSTR',
  crossreffunderid: 'Crossref Funder ID',
  grid: 'GRID',
  other: 'Other',
});

/** Schemes accepted on a creator's or contributor's `person_or_org.identifiers`. */
export const PERSON_OR_ORG_SCHEMES: readonly IdentifierScheme[] = Object.freeze([
  'orcid',
  'isni',
  'gnd',
  'ror',
]);

/**
 * Schemes accepted on alternate identifiers, related identifiers and references (InvenioRDM's list
 * for these fields).
 */
export const RECORD_IDENTIFIER_SCHEMES: readonly IdentifierScheme[] = Object.freeze([
  'ark',
  'arxiv',
  'ads',
  'crossreffunderid',
  'cstr',
  'doi',
  'eissn',
  'grid',
  'handle',
  'igsn',
  'isbn',
  'isni',
  'issn',
  'istc',
  'lissn',
  'lsid',
  'pmid',
  'purl',
  'rrid',
  'upc',
  'url',
  'urn',
  'wikidata',
  'other',
]);

/** Schemes accepted on a custom award's identifiers (the form sends its URL field this way). */
export const AWARD_IDENTIFIER_SCHEMES: readonly IdentifierScheme[] = Object.freeze(['url']);

/** True when `value` names one of the schemes above. */
export function isIdentifierScheme(value: string): value is IdentifierScheme {
  return Object.hasOwn(IDENTIFIER_SCHEME_LABELS, value);
}

const DOI_PATTERN =
  /^(?:doi:\s*|(?:https?:\/\/)?(?:dx\.|www\.)?doi\.org\/)?(10\.\d+(?:\.\d+)*\/\S+)$/i;
const HANDLE_PATTERN =
  /^(?:hdl:\s*|(?:https?:\/\/)?hdl\.handle\.net\/)?([^/.\s]+(?:\.[^/.\s]+)*\/\S*)$/i;
const ARK_PATTERN = /^ark:\/[0-9bcdfghjkmnpqrstvwxz]+\/\S+$/;
const ARK_URL_PATTERN = /^http:\/\/[^/\s?#]+\/(ark:\/[0-9bcdfghjkmnpqrstvwxz]+\/\S+)$/;
const PURL_PATTERN =
  /^https?:\/\/(?:purl\.org|purl\.oclc\.org|purl\.net|purl\.com|purl\.fdlp\.gov)\/\S+$/i;
const URL_PATTERN = /^[a-z][a-z\d+.-]*:\/\/[^\s/?#]+\S*$/i;
const URN_PATTERN = /^urn:[^\s:]+:\S+$/i;
const LSID_PATTERN = /^urn:lsid:[^:\s]+(?::[^:\s]+){2,3}$/i;
const ADS_PATTERN = /^(?:ads:)?(\d{4}[A-Za-z]\S{13}[A-Za-z.:])$/i;
const ARXIV_POST_2007 = /^(?:arxiv:)?(\d{4})\.(\d{4,5})(v\d+)?$/i;
const ARXIV_POST_2007_WITH_CLASS =
  /^(?:arxiv:)?[a-z-]+(?:\.[a-z]{2})?\/(\d{4})\.(\d{4,5})(v\d+)?$/i;
const ARXIV_PRE_2007 = /^(?:arxiv:)?([a-z-]+)(?:\.[a-z]{2})?(\/\d{4})(\d+)(v\d+)?$/i;
const PMID_PATTERN = /^(?:pmid:|https?:\/\/pubmed\.ncbi\.nlm\.nih\.gov\/)?(\d+)\/?$/i;
const GND_PATTERN =
  /^(?:gnd:|https?:\/\/d-nb\.info\/gnd\/|d-nb\.info\/gnd\/)?(1[012]?\d{7}[\dX]|[47]\d{6}-\d|[1-9]\d{0,7}-[\dX]|3\d{7}[\dX])$/i;
const ROR_PATTERN = /^(?:https?:\/\/)?(?:ror\.org\/)?(0[a-z\d]{6}\d{2})$/i;
const ORCID_URL_PREFIX = /^https?:\/\/(?:www\.)?orcid\.org\//i;
const ISBN_PREFIX = /^isbn(?:-1[03])?:?\s*/i;
const ISSN_PATTERN = /^\d{4}[-\s]?\d{3}[\dX]$/i;
const WIKIDATA_PATTERN = /^(?:wikidata:)?Q[1-9]\d*$/i;
const RRID_PATTERN = /^RRID:[A-Za-z][A-Za-z\d]*_\S+$/;
const CSTR_PATTERN = /^(?:cstr:)?\d{5}\.\d{2}\.\S+$/i;
const GRID_PATTERN = /^grid\.\d+\.[\da-f]+$/i;
const ISTC_PATTERN = /^[\dA-F]{16}$/;

/** Crockford base 32 without i, l, o and u: ROR's alphabet. */
const ROR_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** ORCID iDs are ISNIs taken from these blocks (https://support.orcid.org, structure of the iD). */
const ORCID_BLOCKS: ReadonlyArray<readonly [number, number]> = [
  [15_000_000, 35_000_000],
  [900_000_000_000, 900_100_000_000],
];

function compact(value: string): string {
  return value.replace(/[-\s]/g, '').toUpperCase();
}

/** ISO 7064 MOD 11-2, the check digit of ISNI and ORCID. */
function hasIsniCheckDigit(digits: string): boolean {
  if (!/^\d{15}[\dX]$/.test(digits)) return false;
  let total = 0;
  for (let i = 0; i < 15; i += 1) total = (total + Number(digits[i])) * 2;
  const expected = (12 - (total % 11)) % 11;
  const actual = digits[15] === 'X' ? 10 : Number(digits[15]);
  return expected === actual;
}

function isIsni(value: string): boolean {
  return hasIsniCheckDigit(compact(value));
}

function isOrcid(value: string): boolean {
  const digits = compact(value.replace(ORCID_URL_PREFIX, ''));
  if (!hasIsniCheckDigit(digits)) return false;
  const number = Number(digits.slice(0, 15));
  return ORCID_BLOCKS.some(([start, end]) => number >= start && number <= end);
}

function isIsbn10(digits: string): boolean {
  if (!/^\d{9}[\dX]$/.test(digits)) return false;
  let total = 0;
  for (let i = 0; i < 10; i += 1) {
    const digit = digits[i] === 'X' ? 10 : Number(digits[i]);
    total += (10 - i) * digit;
  }
  return total % 11 === 0;
}

function isIsbn13(digits: string): boolean {
  // ISBN-13 is an EAN-13 in the "Bookland" prefixes; other EAN-13s are not books.
  if (!/^97[89]\d{10}$/.test(digits)) return false;
  let total = 0;
  for (let i = 0; i < 13; i += 1) total += Number(digits[i]) * (i % 2 === 0 ? 1 : 3);
  return total % 10 === 0;
}

function isIsbn(value: string): boolean {
  const digits = compact(value.replace(ISBN_PREFIX, ''));
  return isIsbn10(digits) || isIsbn13(digits);
}

function isIssn(value: string): boolean {
  if (!ISSN_PATTERN.test(value)) return false;
  const digits = compact(value);
  let total = 0;
  for (let i = 0; i < 8; i += 1) {
    const digit = digits[i] === 'X' ? 10 : Number(digits[i]);
    total += (8 - i) * digit;
  }
  return total % 11 === 0;
}

/** ISTC: 16 hexadecimal characters, the last a weighted check character. */
function isIstc(value: string): boolean {
  const chars = compact(value);
  if (!ISTC_PATTERN.test(chars)) return false;
  const weights = [11, 9, 3, 1];
  let total = 0;
  for (let i = 0; i < 15; i += 1) total += parseInt(chars.charAt(i), 16) * (weights[i % 4] ?? 0);
  return (total % 16).toString(16).toUpperCase() === chars[15];
}

function isRor(value: string): boolean {
  const match = ROR_PATTERN.exec(value);
  if (match === null) return false;
  const id = (match[1] ?? '').toLowerCase();
  let number = 0;
  for (let i = 1; i < 7; i += 1) {
    const digit = ROR_ALPHABET.indexOf(id.charAt(i));
    if (digit === -1) return false;
    number = number * 32 + digit;
  }
  return Number(id.slice(7)) === 98 - ((number * 100) % 97);
}

function isArxiv(value: string): boolean {
  return (
    ARXIV_POST_2007.test(value) ||
    ARXIV_POST_2007_WITH_CLASS.test(value) ||
    ARXIV_PRE_2007.test(value)
  );
}

function isArk(value: string): boolean {
  return ARK_PATTERN.test(value) || ARK_URL_PATTERN.test(value);
}

function isUrn(value: string): boolean {
  return URN_PATTERN.test(value);
}

function isLsid(value: string): boolean {
  return LSID_PATTERN.test(value);
}

function isUrl(value: string): boolean {
  return URL_PATTERN.test(value);
}

function isHandle(value: string): boolean {
  return HANDLE_PATTERN.test(value);
}

/** Schemes a value can be recognised as, tested in this order (the order idutils uses). */
const DETECTORS: ReadonlyArray<readonly [IdentifierScheme, (value: string) => boolean]> = [
  ['doi', (v) => DOI_PATTERN.test(v)],
  ['ark', isArk],
  ['handle', isHandle],
  ['purl', (v) => PURL_PATTERN.test(v)],
  ['lsid', isLsid],
  ['urn', isUrn],
  ['ads', (v) => ADS_PATTERN.test(v)],
  ['arxiv', isArxiv],
  ['isbn', isIsbn],
  ['issn', isIssn],
  ['orcid', isOrcid],
  ['isni', isIsni],
  ['istc', isIstc],
  ['gnd', (v) => GND_PATTERN.test(v)],
  ['ror', isRor],
  ['pmid', (v) => PMID_PATTERN.test(v)],
  ['url', isUrl],
  ['wikidata', (v) => WIKIDATA_PATTERN.test(v)],
  ['rrid', (v) => RRID_PATTERN.test(v)],
  ['cstr', (v) => CSTR_PATTERN.test(v)],
  ['grid', (v) => GRID_PATTERN.test(v)],
];

/**
 * When the first scheme is detected the others are dropped: they match by accident (a URL looks
 * like a handle, a check-digited number looks like a PubMed id). Mirrors idutils' scheme filter,
 * plus DOI over handle, since every DOI is also a handle and DOI is the useful reading.
 */
const SHADOWS: ReadonlyArray<readonly [IdentifierScheme, readonly IdentifierScheme[]]> = [
  ['url', ['isbn', 'istc', 'urn', 'lsid', 'issn']],
  ['isbn', ['gnd', 'pmid']],
  ['orcid', ['gnd', 'pmid']],
  ['isni', ['gnd', 'pmid']],
  ['issn', ['gnd']],
  ['doi', ['handle']],
  ['ark', ['handle']],
  ['arxiv', ['handle']],
];

/**
 * Every scheme `value` is recognised as, most specific first: `10.1234/x` → `['doi']`,
 * `0000-0002-1825-0097` → `['orcid', 'isni']`, `https://ror.org/01ggx4157` → `['ror', 'url']`.
 * Schemes without a recognisable shape (UPC, IGSN, Crossref Funder ID, other) are never detected;
 * the client must name them. An unrecognised value gives `[]`.
 */
export function detectSchemes(value: string): IdentifierScheme[] {
  const trimmed = value.trim();
  if (trimmed === '') return [];
  let schemes: IdentifierScheme[] = [];
  for (const [scheme, test] of DETECTORS) {
    if (test(trimmed)) schemes.push(scheme);
  }
  if (schemes.includes('gnd') && schemes.includes('isbn') && /^gnd:/i.test(trimmed)) {
    schemes = schemes.filter((scheme) => scheme !== 'isbn');
  }
  for (const [present, shadowed] of SHADOWS) {
    if (schemes.includes(present)) schemes = schemes.filter((scheme) => !shadowed.includes(scheme));
  }
  if (
    schemes.includes('handle') &&
    schemes.includes('url') &&
    !/^https?:\/\/hdl\.handle\.net\//i.test(trimmed)
  ) {
    schemes = schemes.filter((scheme) => scheme !== 'handle');
  }
  return schemes;
}

const SHAPES: ReadonlyArray<readonly [RegExp, readonly IdentifierScheme[]]> = [
  [
    /^(?:https?:\/\/(?:www\.)?orcid\.org\/)?\d{4}[-\s]?\d{4}[-\s]?\d{4}[-\s]?\d{3}[\dX]$/i,
    ['orcid', 'isni'],
  ],
  [/^(?:https?:\/\/)?(?:ror\.org\/)?0[a-z\d]{6}\d{2}$/i, ['ror']],
  [/^gnd:/i, ['gnd']],
  [/^\d{4}-?\d{3}[\dX]$/i, ['issn', 'eissn', 'lissn']],
  [
    /^(?:isbn(?:-1[03])?:?\s*)?(?:\d[-\s]?){9}[\dX]$|^(?:isbn(?:-13)?:?\s*)?97[89](?:[-\s]?\d){10}$/i,
    ['isbn'],
  ],
];

/**
 * Schemes whose outward shape `value` has, ignoring check digits: `0000-0002-1825-0098` has the
 * shape of an ORCID although its check digit is wrong. Lets a form say "Invalid ORCID identifier."
 * where detection alone could only say "Invalid scheme.".
 */
export function schemesByShape(value: string): IdentifierScheme[] {
  const trimmed = value.trim();
  const out: IdentifierScheme[] = [];
  for (const [pattern, schemes] of SHAPES) {
    if (pattern.test(trimmed)) out.push(...schemes);
  }
  return out;
}

/**
 * True when `value` is a well-formed identifier of `scheme`, with check digits verified where the
 * scheme has them (ORCID and ISNI: ISO 7064 11,2; ISBN-10/13; ISSN; ROR's two-digit checksum; ISTC).
 * Schemes InvenioRDM accepts without a format (UPC, IGSN, GRID, Crossref Funder ID, other) accept
 * any non-blank value.
 */
export function isValidIdentifier(scheme: IdentifierScheme, value: string): boolean {
  const v = value.trim();
  if (v === '') return false;
  switch (scheme) {
    case 'doi':
      return DOI_PATTERN.test(v);
    case 'orcid':
      return isOrcid(v);
    case 'ror':
      return isRor(v);
    case 'isni':
      return isIsni(v);
    case 'gnd':
      return GND_PATTERN.test(v);
    case 'isbn':
      return isIsbn(v);
    case 'issn':
    case 'eissn':
    case 'lissn':
      return isIssn(v);
    case 'url':
      return isUrl(v);
    case 'urn':
      return isUrn(v);
    case 'handle':
      return isHandle(v);
    case 'ark':
      return isArk(v);
    case 'arxiv':
      return isArxiv(v);
    case 'ads':
      return ADS_PATTERN.test(v);
    case 'pmid':
      return PMID_PATTERN.test(v);
    case 'purl':
      return PURL_PATTERN.test(v);
    case 'lsid':
      return isLsid(v);
    case 'istc':
      return isIstc(v);
    case 'wikidata':
      return WIKIDATA_PATTERN.test(v);
    case 'rrid':
      return RRID_PATTERN.test(v);
    case 'cstr':
      return CSTR_PATTERN.test(v);
    case 'upc':
    case 'igsn':
    case 'crossreffunderid':
    case 'grid':
    case 'other':
      return true;
  }
}

/**
 * A DOI without its `doi:` or resolver prefix (`https://doi.org/10.1234/x` → `10.1234/x`), or
 * undefined when `value` is not a DOI. Case is kept: DOIs are case-insensitive but registrants
 * choose their case.
 */
export function normalizeDoi(value: string): string | undefined {
  const match = DOI_PATTERN.exec(value.trim());
  return match?.[1];
}

function normalizeArxiv(value: string): string {
  const post = ARXIV_POST_2007.exec(value) ?? ARXIV_POST_2007_WITH_CLASS.exec(value);
  if (post !== null) return `arXiv:${post[1] ?? ''}.${post[2] ?? ''}${post[3] ?? ''}`;
  const pre = ARXIV_PRE_2007.exec(value);
  // arXiv's preferred form of old ids drops the subject class: math.GT/0309136 → math/0309136.
  if (pre !== null) return `arXiv:${pre[1] ?? ''}${pre[2] ?? ''}${pre[3] ?? ''}${pre[4] ?? ''}`;
  return value;
}

/**
 * The canonical spelling InvenioRDM stores for a valid identifier: DOI, handle, PubMed id, ADS
 * and ROR without prefixes or resolvers (ROR lower-cased); ORCID as `0000-0000-0000-000X`; GND
 * as `gnd:…`; ISSN as `XXXX-XXXX`; arXiv as `arXiv:…`; URN with a lower-case `urn:`. Other
 * schemes (ISBN included: its hyphenation needs the ISBN agency's range tables) are only trimmed.
 * An invalid value is returned trimmed, never rejected.
 */
export function normalizeIdentifier(scheme: IdentifierScheme, value: string): string {
  const v = value.trim();
  return isValidIdentifier(scheme, v) ? normalizeValidIdentifier(scheme, v) : v;
}

/**
 * `normalizeIdentifier` for a trimmed value already known to be valid for `scheme`, which saves
 * checking it twice when a long creator list is loaded.
 */
export function normalizeValidIdentifier(scheme: IdentifierScheme, v: string): string {
  switch (scheme) {
    case 'doi':
      return normalizeDoi(v) ?? v;
    case 'orcid': {
      const digits = compact(v.replace(ORCID_URL_PREFIX, ''));
      return `${digits.slice(0, 4)}-${digits.slice(4, 8)}-${digits.slice(8, 12)}-${digits.slice(12, 16)}`;
    }
    case 'ror':
      return (ROR_PATTERN.exec(v)?.[1] ?? v).toLowerCase();
    case 'handle':
      return HANDLE_PATTERN.exec(v)?.[1] ?? v;
    case 'pmid':
      return PMID_PATTERN.exec(v)?.[1] ?? v;
    case 'ads':
      return ADS_PATTERN.exec(v)?.[1] ?? v;
    case 'gnd':
      return `gnd:${GND_PATTERN.exec(v)?.[1] ?? v}`;
    case 'issn':
    case 'eissn':
    case 'lissn': {
      const digits = compact(v);
      return `${digits.slice(0, 4)}-${digits.slice(4)}`;
    }
    case 'arxiv':
      return normalizeArxiv(v);
    case 'urn':
      return `urn:${v.slice(4)}`;
    default:
      return v;
  }
}

/**
 * True for an absolute http(s) URL with a plausible host (a dotted name with a top-level domain,
 * `localhost`, or an IP literal), as marshmallow's URL validator demands of license links and
 * meeting URLs. Written out rather than built on `URL` so it behaves the same in every runtime.
 */
export function isHttpUrl(value: string): boolean {
  return HTTP_URL_PATTERN.test(value.trim());
}

const HTTP_URL_PATTERN =
  /^https?:\/\/(?:[^\s/?#@]+@)?(?:localhost|(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}]{2,}|\d{1,3}(?:\.\d{1,3}){3}|\[[\da-f:.]+\])(?::\d{1,5})?(?:[/?#]\S*)?$/iu;
