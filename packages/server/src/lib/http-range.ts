/**
 * What a `Range` request header asks of a representation of a known size.
 *
 * - `none`: answer 200 with the whole body (no header, or one we choose not to honour).
 * - `range`: answer 206 with bytes `start..end`, both inclusive and within the body.
 * - `unsatisfiable`: answer 416, whose Content-Range names only the size.
 */
export type ParsedRange =
  { kind: 'none' } | { kind: 'range'; start: number; end: number } | { kind: 'unsatisfiable' };

const NONE: ParsedRange = { kind: 'none' };
const UNSATISFIABLE: ParsedRange = { kind: 'unsatisfiable' };

// RFC 9110 §14.1.1: `first-pos "-" [ last-pos ]` or `"-" suffix-length`, digits only.
const RANGE_SPEC = /^(?:(\d+)-(\d*)|-(\d+))$/;

/**
 * Reads a `Range` header for a body of `size` bytes the way InvenioRDM answers it: one byte
 * range (`bytes=0-9`, `bytes=5-`, `bytes=-5`), with a last position past the end clamped to the
 * end and a suffix longer than the body meaning the whole body.
 *
 * Departures from RFC 9110, on purpose:
 * - A malformed header (`bytes=abc`, `items=0-1`, `bytes=9-3`) is unsatisfiable, not ignored,
 *   because InvenioRDM (Werkzeug) answers it with 416 and clients of its API expect that.
 * - Several ranges (`bytes=0-1,4-5`) give the whole body: we do not produce
 *   multipart/byteranges, §14.2 lets a server ignore Range, and a 200 serves the client where
 *   Werkzeug's 416 would fail it. A malformed list is still unsatisfiable.
 * - A suffix (`bytes=-5`) of an empty body selects the whole of it, nothing, which a 206 cannot
 *   carry (no `Content-Range` names zero bytes): it is `none`, and the answer a 200 with no body.
 *   A range that starts at a position (`bytes=0-`, what media elements send) starts past the end
 *   of an empty body and stays unsatisfiable, as RFC 9110 has it.
 *
 * An absent or blank header is `none`.
 */
export function parseRange(header: string | undefined, size: number): ParsedRange {
  if (header === undefined || header.trim() === '') return NONE;

  const equals = header.indexOf('=');
  if (equals < 0) return UNSATISFIABLE;
  // §14.1: range units are case-insensitive.
  if (header.slice(0, equals).trim().toLowerCase() !== 'bytes') return UNSATISFIABLE;

  // §5.6.1.2: recipients accept empty list elements (`bytes=0-9,`) and whitespace around commas.
  const specs = header
    .slice(equals + 1)
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec !== '');
  if (specs.length === 0) return UNSATISFIABLE;

  const ranges: Array<{ start: number; end: number } | undefined> = [];
  let wholeOfEmpty = false;
  for (const spec of specs) {
    const match = RANGE_SPEC.exec(spec);
    if (match === null) return UNSATISFIABLE;
    const [, first, last, suffix] = match;
    if (suffix !== undefined) {
      const length = Number(suffix);
      // §14.1.1: a suffix-range is satisfiable only with a non-zero suffix-length.
      if (length === 0) ranges.push(undefined);
      else if (size === 0) wholeOfEmpty = true;
      else ranges.push({ start: Math.max(0, size - length), end: size - 1 });
      continue;
    }
    const start = Number(first);
    const end = last === '' ? Infinity : Number(last);
    if (end < start) return UNSATISFIABLE;
    ranges.push(start >= size ? undefined : { start, end: Math.min(end, size - 1) });
  }

  if (wholeOfEmpty || ranges.length > 1) return NONE;
  const [range] = ranges;
  return range === undefined ? UNSATISFIABLE : { kind: 'range', ...range };
}
