/**
 * The search query syntax (`q` of every search route), parsed once here into a small tree that each
 * engine later compiles to its own SQL. It is the part of the Lucene / Elasticsearch query_string
 * syntax that InvenioRDM users write:
 *
 * - words, with AND between them when no operator is written (InvenioRDM's default operator), and
 *   "quoted phrases";
 * - `field:value`, `field:"a phrase"`, `field:(a OR b)` on an allow-list of the record's JSON paths;
 * - ranges on date and number fields: `field:[2019 TO 2021]`, exclusive ends with `{ }`, an open
 *   end as `*`;
 * - `AND` / `&&`, `OR` / `||`, `NOT` / `!` / a leading `-`, a leading `+` (required, which every
 *   term already is), parentheses; precedence NOT > AND > OR;
 * - a trailing wildcard `glaci*`. A wildcard anywhere else (`*ice`, `gl*ier`, `?`) is refused,
 *   since no index can answer it; so are fuzzy `~` and boost `^`;
 * - a backslash makes the next character literal (`10.1234\:x`, `\AND`).
 *
 * The text is NFKC-normalised first, as every search route measures it (a full-width `（` is a
 * parenthesis), and must fit SEARCH_QUERY_MAX_LENGTH characters and SEARCH_QUERY_MAX_WORDS words.
 * Words are counted in the values only (terms, phrases, range ends): they are what becomes a term
 * of the engine's query, whereas field names and operators do not.
 *
 * The tree (`SearchQuery`):
 *
 * - `{ kind: 'and' | 'or', children }`: two or more children, in the order written. A chain of the
 *   same operator is one node; a parenthesised group stays its own node.
 * - `{ kind: 'not', child }`
 * - `{ kind: 'term', field?, text, prefix? }`: one word; `prefix: true` for `text*`.
 * - `{ kind: 'phrase', field?, text }`: the words between quotes, exactly as written.
 * - `{ kind: 'range', field, from?, to?, inclusiveFrom, inclusiveTo }`: a missing end is open.
 *
 * A field written before a group applies to every term, phrase and range inside it: the tree has
 * no field groups. A blank query, `*` and `*:*` mean "everything" and parse to `null`.
 *
 * Every refusal is a `SearchQueryError` whose message says where (a 1-based character position in
 * the normalised text) and what was expected; nothing falls back to plain text. `formatSearchQuery`
 * writes a tree back as a query, and parsing that gives the same tree.
 *
 * Written by hand rather than with a parser library: the grammar is a dozen rules, and what matters
 * is a precise message for each mistake (which parenthesis, which field, which wildcard). liqe
 * (nearley) says only "Syntax error at line 1 column N", or "Found no parsings." for an unfinished
 * query; the peggy-generated `lucene` names what it expected in grammar terms; chevrotain brings
 * five packages for a dozen rules. Each would still need a pass over its tree for fields, kinds,
 * wildcards and limits. A recursive descent parser does both in one place, with no dependency in
 * the browser bundle.
 *
 * The parser is here; the tokenizer it reads from is query-tokens.ts, the error both raise
 * query-error.ts, and the writer of a tree back as a query query-format.ts. This module exports
 * all of it, so callers import the syntax from one place.
 */
import { SEARCH_QUERY_MAX_LENGTH, SEARCH_QUERY_MAX_WORDS } from '../limits.js';
import { fail, type SearchQueryErrorReason } from './query-error.js';
import { describe, tokenize, type Token } from './query-tokens.js';

export { SearchQueryError, type SearchQueryErrorReason } from './query-error.js';
export { formatSearchQuery } from './query-format.js';

export type SearchQuery =
  | { kind: 'and'; children: SearchQuery[] }
  | { kind: 'or'; children: SearchQuery[] }
  | { kind: 'not'; child: SearchQuery }
  | { kind: 'term'; field?: string; text: string; prefix?: boolean }
  | { kind: 'phrase'; field?: string; text: string }
  | {
      kind: 'range';
      field: string;
      from?: string;
      to?: string;
      inclusiveFrom: boolean;
      inclusiveTo: boolean;
    };

/** What a field holds: text is matched word by word; ranges need a date or a number. */
export type SearchFieldKind = 'text' | 'keyword' | 'date' | 'number';

/** The fields a query may name: JSON path → kind. */
export type SearchFields = Readonly<Record<string, SearchFieldKind>>;

/** How many fields an unknown-field message lists before "…". */
const LISTED_FIELDS = 8;

const WORD_RUN = /[\p{L}\p{N}]+/gu;

const DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;
const NUMBER = /^[+-]?\d+(\.\d+)?$/;

class Parser {
  private readonly tokens: Token[];
  private at = 0;
  private words = 0;

  constructor(
    private readonly text: string,
    private readonly fields: SearchFields,
  ) {
    this.tokens = tokenize(text);
  }

  parse(): SearchQuery {
    const query = this.or(undefined);
    const token = this.peek();
    if (token.type === 'rparen') {
      this.fail(token, 'unbalanced-parenthesis', 'Unbalanced parenthesis', 'no ( opens it');
    }
    if (token.type !== 'eof') this.unexpected(token, 'AND, OR or the end of the query');
    return query;
  }

  private peek(): Token {
    return this.tokens[this.at] as Token;
  }

  private take(): Token {
    return this.tokens[this.at++] as Token;
  }

  private fail(token: Token, reason: SearchQueryErrorReason, what: string, detail?: string): never {
    return fail(this.text, token.start, reason, what, detail);
  }

  private unexpected(token: Token, expected: string): never {
    return this.fail(
      token,
      'unexpected',
      token.type === 'eof' ? 'Unexpected end of the query' : `Unexpected ${describe(token)}`,
      `expected ${expected}`,
    );
  }

  private or(field: string | undefined): SearchQuery {
    const children = [this.and(field)];
    while (this.peek().type === 'or') {
      this.take();
      children.push(this.and(field));
    }
    return children.length === 1 ? (children[0] as SearchQuery) : { kind: 'or', children };
  }

  private and(field: string | undefined): SearchQuery {
    const children = [this.unary(field)];
    for (;;) {
      const type = this.peek().type;
      if (type === 'and') this.take();
      else if (!STARTS_OPERAND.has(type)) break;
      children.push(this.unary(field));
    }
    return children.length === 1 ? (children[0] as SearchQuery) : { kind: 'and', children };
  }

  private unary(field: string | undefined): SearchQuery {
    const token = this.peek();
    if (token.type === 'not' || token.type === 'minus') {
      this.take();
      return { kind: 'not', child: this.unary(field) };
    }
    if (token.type === 'plus') {
      this.take();
      return this.unary(field);
    }
    return this.primary(field);
  }

  private primary(field: string | undefined): SearchQuery {
    const token = this.take();
    switch (token.type) {
      case 'lparen':
        return this.group(token, field);
      case 'field': {
        if (field !== undefined) {
          this.fail(
            token,
            'unexpected',
            `Field ${token.name} inside the group of field ${field}`,
            'write one field per group',
          );
        }
        this.known(token);
        return this.fieldValue(token);
      }
      case 'word':
        return this.term(token, field);
      case 'phrase':
        this.count(token, token.text);
        return field === undefined
          ? { kind: 'phrase', text: token.text }
          : { kind: 'phrase', field, text: token.text };
      case 'open':
        if (field === undefined) {
          this.fail(
            token,
            'range',
            'A range needs a field',
            'write it as field:[from TO to], e.g. metadata.publication_date:[2019 TO 2021]',
          );
        }
        return this.range(token, field);
      case 'rparen':
        if (!this.inGroup()) {
          this.fail(token, 'unbalanced-parenthesis', 'Unbalanced parenthesis', 'no ( opens it');
        }
        return this.unexpected(token, 'a word, a phrase or (');
      default:
        return this.unexpected(token, 'a word, a phrase or (');
    }
  }

  /** Whether a ( is open before the current token, so a ) here is an empty group, not a stray. */
  private inGroup(): boolean {
    let depth = 0;
    for (let k = 0; k < this.at - 1; k++) {
      const type = (this.tokens[k] as Token).type;
      if (type === 'lparen') depth++;
      else if (type === 'rparen') depth--;
    }
    return depth > 0;
  }

  private group(open: Token, field: string | undefined): SearchQuery {
    const inner = this.or(field);
    const close = this.take();
    if (close.type === 'eof') {
      this.fail(open, 'unbalanced-parenthesis', 'Unbalanced parenthesis', 'no ) closes it');
    }
    if (close.type !== 'rparen') this.unexpected(close, 'AND, OR or )');
    return inner;
  }

  private known(token: Extract<Token, { type: 'field' }>): SearchFieldKind {
    const kind = this.fields[token.name];
    if (kind !== undefined && Object.hasOwn(this.fields, token.name)) return kind;
    const names = Object.keys(this.fields).sort();
    const listed = names.slice(0, LISTED_FIELDS).join(', ');
    const more = names.length > LISTED_FIELDS ? ` and ${names.length - LISTED_FIELDS} more` : '';
    return this.fail(
      token,
      'unknown-field',
      `Unknown field ${token.name}`,
      names.length === 0 ? 'no field may be named here' : `known fields are ${listed}${more}`,
    );
  }

  private fieldValue(token: Extract<Token, { type: 'field' }>): SearchQuery {
    const value = this.peek();
    switch (value.type) {
      case 'word':
      case 'phrase':
      case 'lparen':
      case 'open':
        return this.primary(token.name);
      default:
        return this.fail(
          value,
          'missing-value',
          `Expected a value after ${token.name}:`,
          `a word, a "phrase", a (group) or a [range], not ${describe(value)}`,
        );
    }
  }

  private term(token: Extract<Token, { type: 'word' }>, field: string | undefined): SearchQuery {
    const { text, wild } = token;
    const first = wild[0];
    let prefix = false;
    if (first !== undefined) {
      const where = token.start + this.offset(token, first);
      if (text[first] === '?') {
        fail(
          this.text,
          where,
          'wildcard',
          'Wildcard ? is not supported',
          'an index cannot answer it',
        );
      }
      if (first === 0) {
        fail(
          this.text,
          where,
          'wildcard',
          'Leading wildcard',
          'an index cannot answer it; a word may only end with *',
        );
      }
      if (first !== text.length - 1 || wild.length > 1) {
        fail(
          this.text,
          where,
          'wildcard',
          'Wildcard inside a word',
          'an index cannot answer it; a word may only end with *',
        );
      }
      prefix = true;
    }
    const value = prefix ? text.slice(0, -1) : text;
    this.count(token, value);
    return {
      kind: 'term',
      ...(field === undefined ? {} : { field }),
      text: value,
      ...(prefix ? { prefix: true } : {}),
    };
  }

  /** Where in the source the UTF-16 unit `index` of a word's value is (escapes take room). */
  private offset(token: Extract<Token, { type: 'word' }>, index: number): number {
    let source = token.start;
    for (let unit = 0; unit < index;) {
      if (this.text[source] === '\\') source++;
      const width = (this.text.codePointAt(source) as number) > 0xffff ? 2 : 1;
      source += width;
      unit += width;
    }
    return source - token.start;
  }

  private count(token: Token, value: string): void {
    this.words += value.match(WORD_RUN)?.length ?? 0;
    if (this.words > SEARCH_QUERY_MAX_WORDS) {
      this.fail(
        token,
        'too-many-words',
        'Too many words',
        `a query may hold at most ${SEARCH_QUERY_MAX_WORDS}`,
      );
    }
  }

  private range(open: Extract<Token, { type: 'open' }>, field: string): SearchQuery {
    const kind = this.fields[field];
    if (kind !== 'date' && kind !== 'number') {
      this.fail(
        open,
        'range',
        `Range on ${field}, a ${kind ?? 'text'} field`,
        'ranges work on date and number fields only',
      );
    }
    const from = this.bound(kind, 'the start of the range');
    const to = this.peek();
    if (!(to.type === 'word' && !to.escaped && to.text === 'TO')) {
      this.unexpected(to, 'TO between the ends of the range');
    }
    this.take();
    const end = this.bound(kind, 'the end of the range after TO');
    const close = this.take();
    if (close.type !== 'close') {
      if (close.type === 'eof') {
        this.fail(open, 'range', 'Unclosed range', 'expected ] or } to close it');
      }
      this.unexpected(close, '] or } to close the range');
    }
    return {
      kind: 'range',
      field,
      ...(from === undefined ? {} : { from }),
      ...(end === undefined ? {} : { to: end }),
      inclusiveFrom: open.inclusive,
      inclusiveTo: close.inclusive,
    };
  }

  /** One end of a range: a date or a number, or `*` for an open end. */
  private bound(kind: 'date' | 'number', expected: string): string | undefined {
    const token = this.take();
    let value: string;
    if (token.type === 'word') {
      if (!token.escaped && token.text === '*') return undefined;
      if (!token.escaped && token.text === 'TO') this.unexpected(token, expected);
      value = token.text;
    } else if (token.type === 'phrase') {
      value = token.text;
    } else {
      return this.unexpected(token, expected);
    }
    const valid = kind === 'date' ? DATE.test(value) : NUMBER.test(value);
    if (!valid) {
      this.fail(
        token,
        'range',
        `Not a ${kind} (${value})`,
        kind === 'date'
          ? 'expected YYYY, YYYY-MM or YYYY-MM-DD, or * for an open end'
          : 'expected a number, or * for an open end',
      );
    }
    this.count(token, value);
    return value;
  }
}

const STARTS_OPERAND = new Set<Token['type']>([
  'word',
  'phrase',
  'field',
  'lparen',
  'not',
  'minus',
  'plus',
  'open',
]);

/**
 * Parses `q` into a tree, or `null` for a query that asks for everything (blank, `*`, `*:*`).
 * Throws `SearchQueryError` (and nothing else) for any query it refuses.
 */
export function parseSearchQuery(q: string, fields: SearchFields): SearchQuery | null {
  const text = q.normalize('NFKC');
  if (text.length > SEARCH_QUERY_MAX_LENGTH) {
    fail(
      text,
      SEARCH_QUERY_MAX_LENGTH,
      'too-long',
      'Query too long',
      `a query may hold at most ${SEARCH_QUERY_MAX_LENGTH} characters`,
    );
  }
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === '*' || trimmed === '*:*') return null;
  return new Parser(text, fields).parse();
}
