import { isUtf8 } from 'node:buffer';
import { JSON_MAX_DEPTH, type ErrorItem } from '@cairn/shared';
import { AppError, validationFailed } from '../errors.js';

/*
 * Text as clients send it, checked where it enters (JSON bodies, query strings, path
 * parameters) so nothing further in is ever handed what it cannot store or walk:
 *
 * - JSON deeper than JSON_MAX_DEPTH is refused on the raw text, before JSON.parse or any
 *   recursive walk (the record loader, sanitisers, the presenters) could overflow the stack.
 * - Text that is not well-formed Unicode (an unpaired UTF-16 surrogate, escaped in JSON as
 *   `\ud800`, or bytes that are not UTF-8) is refused: SQLite would store it as bytes no client
 *   can send back, PostgreSQL refuses it. U+0000 is well-formed but PostgreSQL's text cannot
 *   hold it, so it is refused too, with its own message. Nothing is rewritten silently.
 *
 * Hand-written: JSON.parse has no depth limit, and the streaming parsers that do (or that report
 * where a string sits) are several times slower than JSON.parse on the large drafts that must
 * save fastest. The depth scan and the decoder below are each one loop over the input.
 */

export const ILL_FORMED_MESSAGE =
  'Text must be well-formed Unicode: this holds an unpaired UTF-16 surrogate.';
export const NUL_MESSAGE = 'Text must not contain the NUL character (U+0000).';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether JSON text nests objects and arrays deeper than `max`. Brackets inside strings do not
 * count; the text need not be valid JSON (JSON.parse judges that afterwards).
 */
export function jsonDepthExceeds(text: string, max = JSON_MAX_DEPTH): boolean {
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Jump to the closing quote: one not preceded by an odd number of backslashes.
      let end = text.indexOf('"', i + 1);
      while (end !== -1) {
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) return false;
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/**
 * Whether JSON text may hold an ill-formed string or U+0000 once parsed. Only the escaped forms
 * can: raw NUL is invalid JSON, and raw surrogates come only from {@link decodeUtf8}'s escapes.
 */
function mayHoldRefusedText(json: string): boolean {
  return /\\u(?:0000|d[89a-f])/i.test(json);
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const UNPAIRED_SURROGATE =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Why `text` is refused, or undefined when it may be stored. */
export function refusedTextProblem(text: string): string | undefined {
  UNPAIRED_SURROGATE.lastIndex = 0;
  if (UNPAIRED_SURROGATE.test(text)) return ILL_FORMED_MESSAGE;
  if (text.includes('\u0000')) return NUL_MESSAGE;
  return undefined;
}

/** `text` as it can be shown in an error's `field`: surrogates as U+FFFD, NUL as ␀. */
export function shownText(text: string): string {
  return text.replace(UNPAIRED_SURROGATE, '\uFFFD').replaceAll('\u0000', '\u2400');
}

const MAX_PROBLEMS = 100;

/**
 * Every string and object key of a parsed value that {@link refusedTextProblem} refuses, as the
 * contract's errors with dotted fields (`metadata.creators.0.person_or_org.family_name`). The
 * value's depth is bounded by the depth check, so the walk cannot overflow the stack.
 */
export function refusedTextIn(value: unknown, path = '', found: ErrorItem[] = []): ErrorItem[] {
  if (found.length >= MAX_PROBLEMS) return found;
  if (typeof value === 'string') {
    const problem = refusedTextProblem(value);
    if (problem) found.push({ field: path, messages: [problem] });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => refusedTextIn(item, path ? `${path}.${i}` : String(i), found));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const field = path ? `${path}.${shownText(key)}` : shownText(key);
      const problem = refusedTextProblem(key);
      if (problem) found.push({ field, messages: [problem] });
      else refusedTextIn(item, field, found);
    }
  }
  return found;
}

/** Length of the well-formed UTF-8 sequence starting at `i`, or 0 when there is none. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const continues = (k: number) => k < bytes.length && (bytes[k]! & 0xc0) === 0x80;
  const first = bytes[i]!;
  const second = bytes[i + 1] ?? 0;
  if (first >= 0xc2 && first <= 0xdf) return continues(i + 1) ? 2 : 0;
  if (first >= 0xe0 && first <= 0xef) {
    if (!continues(i + 1) || !continues(i + 2)) return 0;
    // Overlong forms, and the surrogates encoded as if they were characters.
    if ((first === 0xe0 && second < 0xa0) || (first === 0xed && second >= 0xa0)) return 0;
    return 3;
  }
  if (first >= 0xf0 && first <= 0xf4) {
    if (!continues(i + 1) || !continues(i + 2) || !continues(i + 3)) return 0;
    if ((first === 0xf0 && second < 0x90) || (first === 0xf4 && second >= 0x90)) return 0;
    return 4;
  }
  return 0;
}

/**
 * Bytes as text. Each byte that is not part of well-formed UTF-8 becomes a lone surrogate
 * (U+DC80–U+DCFF, Python's "surrogateescape"), where Node would write U+FFFD and so rewrite the
 * text silently: the one check for ill-formed text then refuses it and names where it was.
 */
export function decodeUtf8(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  let text = '';
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    if (bytes[i]! < 0x80) i++;
    else {
      const length = sequenceLength(bytes, i);
      if (length > 0) i += length;
      else {
        text += bytes.toString('utf8', start, i) + String.fromCharCode(0xdc00 + bytes[i]!);
        i++;
        start = i;
      }
    }
  }
  return text + bytes.toString('utf8', start);
}

/**
 * One percent-encoded query string component (`+` already a space) decoded as {@link decodeUtf8}
 * decodes bytes. A `%` that starts no escape stays a percent sign, as Node's decoding keeps it.
 */
export function decodeQueryComponent(component: string): string {
  if (!component.includes('%')) return component;
  const parts: Buffer[] = [];
  let last = 0;
  for (const escapes of component.matchAll(/(?:%[0-9a-f]{2})+/gi)) {
    parts.push(Buffer.from(component.slice(last, escapes.index)));
    parts.push(Buffer.from(escapes[0].replaceAll('%', ''), 'hex'));
    last = escapes.index + escapes[0].length;
  }
  parts.push(Buffer.from(component.slice(last)));
  return decodeUtf8(Buffer.concat(parts));
}

/**
 * A client's JSON body: an empty body is "no data", prototype keys are dropped (as InvenioRDM
 * does), and too deep nesting, ill-formed text and U+0000 are refused with the contract's 400s.
 */
export function parseClientJson(bytes: Buffer): unknown {
  const utf8 = isUtf8(bytes);
  const text = utf8 ? bytes.toString('utf8') : decodeUtf8(bytes);
  if (text.trim() === '') return undefined;
  if (jsonDepthExceeds(text)) throw new AppError('JSON_TOO_DEEP');
  const hasPrototypeKeys = text.includes('__proto__') || text.includes('constructor');
  let value: unknown;
  try {
    value = hasPrototypeKeys
      ? JSON.parse(text, (key, item: unknown) =>
          key === '__proto__' || key === 'constructor' ? undefined : item,
        )
      : JSON.parse(text);
  } catch {
    throw new AppError('INVALID_JSON');
  }
  // The walk costs a draft's whole tree, so it runs only when the text can hold what it finds.
  if (!utf8 || mayHoldRefusedText(text)) {
    const errors = refusedTextIn(value);
    if (errors.length > 0) throw validationFailed(errors);
  }
  return value;
}
