/**
 * The search query's one error, and where it is raised from: the tokenizer and the parser both
 * refuse a query by the character it went wrong at. Separate so that both can throw it without
 * importing each other.
 */
export type SearchQueryErrorReason =
  | 'too-long'
  | 'too-many-words'
  | 'unbalanced-parenthesis'
  | 'unbalanced-quote'
  | 'unexpected'
  | 'missing-value'
  | 'unknown-field'
  | 'range'
  | 'wildcard'
  | 'unsupported';

/** A query that cannot be parsed; `position` is the 1-based character in the normalised text. */
export class SearchQueryError extends Error {
  override readonly name = 'SearchQueryError';
  constructor(
    readonly reason: SearchQueryErrorReason,
    readonly position: number,
    message: string,
  ) {
    super(message);
  }
}

/** Refuses the query at `index`, a UTF-16 offset into `text`; the message counts code points. */
export function fail(
  text: string,
  index: number,
  reason: SearchQueryErrorReason,
  what: string,
  detail?: string,
): never {
  // A character for a person is a code point, not a UTF-16 unit.
  const position = Array.from(text.slice(0, index)).length + 1;
  const message = `${what} at character ${position}${detail === undefined ? '' : `: ${detail}`}.`;
  throw new SearchQueryError(reason, position, message);
}
