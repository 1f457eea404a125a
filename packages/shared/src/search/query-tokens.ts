/**
 * The search query's tokenizer: the NFKC-normalised text cut into words, field names, phrases,
 * operators and brackets, each with where it starts. Separate from the parser (query.ts) because
 * it decides what a character is (escapes, `&&`, a field's colon, wildcards), and the parser only
 * which tokens may follow which.
 */
import { fail } from './query-error.js';

export type Token =
  | { type: 'word'; start: number; text: string; wild: number[]; escaped: boolean }
  | { type: 'field'; start: number; name: string }
  | { type: 'phrase'; start: number; text: string }
  | { type: 'and' | 'or' | 'not' | 'minus' | 'plus' | 'lparen' | 'rparen' | 'eof'; start: number }
  | { type: 'open'; start: number; inclusive: boolean }
  | { type: 'close'; start: number; inclusive: boolean };

/** Characters that end a word unless escaped. */
const STOP = new Set(['(', ')', '[', ']', '{', '}', '"', ':', '^', '~', '\\']);
const SPACE = /\s/u;
const FIELD_NAME = /^[\p{L}\p{N}_][\p{L}\p{N}_.]*$/u;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (SPACE.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === '(' || c === ')') {
      tokens.push({ type: c === '(' ? 'lparen' : 'rparen', start });
      i++;
    } else if (c === '[' || c === '{') {
      tokens.push({ type: 'open', start, inclusive: c === '[' });
      i++;
    } else if (c === ']' || c === '}') {
      tokens.push({ type: 'close', start, inclusive: c === ']' });
      i++;
    } else if (c === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length)
          fail(text, start, 'unbalanced-quote', 'Unbalanced quote', 'no " closes it');
        const d = text[i] as string;
        if (d === '"') break;
        if (d === '\\') {
          i++;
          if (i >= text.length) continue;
        }
        const cp = text.codePointAt(i) as number;
        value += String.fromCodePoint(cp);
        i += cp > 0xffff ? 2 : 1;
      }
      i++;
      if (value === '')
        fail(text, start, 'missing-value', 'Empty phrase', 'write words between the quotes');
      tokens.push({ type: 'phrase', start, text: value });
    } else if ((c === '&' && next === '&') || (c === '|' && next === '|')) {
      tokens.push({ type: c === '&' ? 'and' : 'or', start });
      i += 2;
    } else if (c === '-' || c === '+' || c === '!') {
      if (next === undefined || SPACE.test(next)) {
        fail(
          text,
          start,
          'unexpected',
          `Unexpected ${c}`,
          'put it right before the word it applies to, or quote it',
        );
      }
      tokens.push({ type: c === '+' ? 'plus' : c === '!' ? 'not' : 'minus', start });
      i++;
    } else if (c === ':') {
      fail(
        text,
        start,
        'unexpected',
        'Unexpected ":"',
        'a field name holds letters, digits, _ and . only; quote the text or put \\ before the colon',
      );
    } else if (c === '^' || c === '~') {
      fail(text, start, 'unsupported', `Unsupported operator ${c}`, 'quote it or put \\ before it');
    } else {
      let value = '';
      let escaped = false;
      const wild: number[] = [];
      while (i < text.length) {
        const d = text[i] as string;
        if (SPACE.test(d)) break;
        if (d === '\\') {
          if (i + 1 >= text.length)
            fail(text, i, 'unexpected', 'Nothing to escape after \\', 'remove it or write \\\\');
          escaped = true;
          i++;
        } else if (STOP.has(d)) {
          break;
        } else if (d === '*' || d === '?') {
          wild.push(value.length);
        }
        const cp = text.codePointAt(i) as number;
        value += String.fromCodePoint(cp);
        i += cp > 0xffff ? 2 : 1;
      }
      if (text[i] === ':' && !escaped && wild.length === 0 && FIELD_NAME.test(value)) {
        tokens.push({ type: 'field', start, name: value });
        i++;
      } else if (!escaped && (value === 'AND' || value === 'OR' || value === 'NOT')) {
        tokens.push({ type: value === 'AND' ? 'and' : value === 'OR' ? 'or' : 'not', start });
      } else {
        tokens.push({ type: 'word', start, text: value, wild, escaped });
      }
    }
  }
  tokens.push({ type: 'eof', start: text.length });
  return tokens;
}

export function describe(token: Token): string {
  switch (token.type) {
    case 'eof':
      return 'the end of the query';
    case 'word':
      return token.text;
    case 'field':
      return `${token.name}:`;
    case 'phrase':
      return 'a phrase';
    case 'and':
      return 'AND';
    case 'or':
      return 'OR';
    case 'not':
      return 'NOT';
    case 'minus':
      return '-';
    case 'plus':
      return '+';
    case 'lparen':
      return '(';
    case 'rparen':
      return ')';
    case 'open':
      return token.inclusive ? '[' : '{';
    case 'close':
      return token.inclusive ? ']' : '}';
  }
}
