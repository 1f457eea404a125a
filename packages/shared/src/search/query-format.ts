/**
 * The search query's writer: a tree back as a query that parses to the same tree. Separate from
 * the parser (query.ts) because it runs the other way and shares nothing with it but the tree.
 */
import type { SearchQuery } from './query.js';

/** Characters that end or change a word wherever they stand. */
const ESCAPE_ANYWHERE = /[\s\\()[\]{}":*?^~]/u;
/** Characters that are an operator at the start of a word. */
const ESCAPE_FIRST = /^[-+!&|]/;
const BARE_BOUND = /^[\p{L}\p{N}][\p{L}\p{N}._-]*$/u;

function escapeWord(text: string): string {
  let out = '';
  for (const c of text) out += ESCAPE_ANYWHERE.test(c) ? `\\${c}` : c;
  return ESCAPE_FIRST.test(out) || text === 'AND' || text === 'OR' || text === 'NOT'
    ? `\\${out}`
    : out;
}

function quote(text: string): string {
  return `"${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

function formatBound(value: string | undefined): string {
  if (value === undefined) return '*';
  return BARE_BOUND.test(value) && !['TO', 'AND', 'OR', 'NOT'].includes(value)
    ? value
    : quote(value);
}

function operand(query: SearchQuery): string {
  const text = formatSearchQuery(query);
  return query.kind === 'and' || query.kind === 'or' ? `(${text})` : text;
}

/** Writes a tree as a query that parses back to the same tree (for logs and tests). */
export function formatSearchQuery(query: SearchQuery): string {
  switch (query.kind) {
    case 'and':
      return query.children.map(operand).join(' AND ');
    case 'or':
      return query.children.map(operand).join(' OR ');
    case 'not':
      return `NOT ${operand(query.child)}`;
    case 'term':
      return `${query.field === undefined ? '' : `${query.field}:`}${escapeWord(query.text)}${query.prefix ? '*' : ''}`;
    case 'phrase':
      return `${query.field === undefined ? '' : `${query.field}:`}${quote(query.text)}`;
    case 'range':
      return `${query.field}:${query.inclusiveFrom ? '[' : '{'}${formatBound(query.from)} TO ${formatBound(query.to)}${query.inclusiveTo ? ']' : '}'}`;
  }
}
