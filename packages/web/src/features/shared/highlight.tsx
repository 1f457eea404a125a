import type { ReactNode } from 'react';
import { fold } from '../../lib/fold';

/** What a search matched by: whole words and phrases, and the stems of trailing wildcards. */
export interface HighlightTerms {
  /** Words or phrases matched whole ("glacier", "ice sheet"). */
  words: string[];
  /** Word beginnings (`glaci*` is "glaci"). */
  prefixes: string[];
}

export const NO_HIGHLIGHT: HighlightTerms = { words: [], prefixes: [] };

/**
 * The text folded, with the position in `text` each folded character came from: folding may
 * change the length ("ﬁ" stays one, "İ" becomes two), so matches are found in the folded text and
 * cut from the original.
 */
function foldWithOrigins(text: string): { folded: string; origins: number[] } {
  let folded = '';
  const origins: number[] = [];
  let index = 0;
  for (const char of text) {
    const part = fold(char);
    for (let i = 0; i < part.length; i++) origins.push(index);
    folded += part;
    index += char.length;
  }
  origins.push(text.length);
  return { folded, origins };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Matches any term, each starting and (for whole words) ending at a word's edge; null for none. */
function termsPattern(terms: HighlightTerms): RegExp | null {
  const edge = '(?<![\\p{L}\\p{N}])';
  const words = terms.words
    .map((word) => fold(word).trim())
    .filter(Boolean)
    .map((word) => `${escapeRegExp(word).replace(/\s+/g, '\\s+')}(?![\\p{L}\\p{N}])`);
  const prefixes = terms.prefixes
    .map((prefix) => fold(prefix).trim())
    .filter(Boolean)
    .map((prefix) => `${escapeRegExp(prefix)}[\\p{L}\\p{N}]*`);
  const alternatives = [...words, ...prefixes]
    // The longest first, so that "ice sheet" wins over "ice" where both match.
    .sort((a, b) => b.length - a.length);
  if (alternatives.length === 0) return null;
  return new RegExp(`${edge}(?:${alternatives.join('|')})`, 'gu');
}

/** The spans of `text` that match `terms`, as [start, end) offsets into `text`. */
export function highlightRanges(text: string, terms: HighlightTerms): Array<[number, number]> {
  const pattern = termsPattern(terms);
  if (!pattern) return [];
  const { folded, origins } = foldWithOrigins(text);
  const ranges: Array<[number, number]> = [];
  for (const match of folded.matchAll(pattern)) {
    if (match[0] === '') continue;
    const start = origins[match.index] ?? text.length;
    const end = origins[match.index + match[0].length] ?? text.length;
    ranges.push([start, end]);
  }
  return ranges;
}

/** `text` with the parts matching `terms` in `<mark>`. */
export function Highlighted({ text, terms }: { text: string; terms: HighlightTerms }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of highlightRanges(text, terms)) {
    if (start > at) parts.push(text.slice(at, start));
    parts.push(<mark key={start}>{text.slice(start, end)}</mark>);
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}
