import type { HighlightTerms } from '../highlight';

const OPERATORS = new Set(['AND', 'OR', 'NOT', '&&', '||', 'TO']);

/** Phrases (an unclosed one runs to the end), parentheses, and runs of anything else. */
const TOKENS = /[-+!]?"[^"]*"?|[()]|[^\s()"]+/g;

/**
 * The plain words of a query in InvenioRDM's syntax, to mark in the results: bare words and
 * phrases, and the stems of trailing wildcards (`glaci*`). Left out are what a reader did not ask
 * to see: field terms (`metadata.title:glacier` matched a field the result may not show), ranges,
 * operators, excluded terms (`-ice`, `NOT ice`) and words with wildcards inside.
 */
export function highlightTermsOf(query: string): HighlightTerms {
  const words: string[] = [];
  const prefixes: string[] = [];
  let negateNext = false;
  // Within a field's value: a range `[2019 TO 2021]` or a group `title:(ice OR snow)`.
  let closer: string | null = null;
  let depth = 0;

  for (const [token] of query.matchAll(TOKENS)) {
    if (closer === ')') {
      // The field's value: one token (`title: "ice sheet"`) or a group to its closing parenthesis.
      depth += token === '(' ? 1 : token === ')' ? -1 : 0;
      if (depth <= 0) closer = null;
      continue;
    }
    if (closer) {
      if (/[\]}]$/.test(token)) closer = null;
      continue;
    }
    if (token === '(' || token === ')') continue;
    if (OPERATORS.has(token)) {
      negateNext = token === 'NOT';
      continue;
    }
    const negated = negateNext || token.startsWith('-') || token.startsWith('!');
    negateNext = false;
    const term = token.replace(/^[-+!]/, '');

    const field = /^[\w.]+:(.*)$/u.exec(term);
    if (field) {
      const value = field[1] ?? '';
      if (value === '') {
        // `title:(ice OR snow)` or `title:"ice sheet"`: the value follows as tokens of its own.
        closer = ')';
        depth = 0;
      } else if (/^[[{]/.test(value) && !/[\]}]$/.test(value)) {
        closer = ']';
      }
      continue;
    }
    if (negated) continue;

    if (term.startsWith('"')) {
      const phrase = term.replace(/^"|"$/g, '').trim();
      if (phrase) words.push(phrase);
      continue;
    }
    // Fuzziness and boosts (`glacier~1`, `glacier^2`) do not change which word was meant.
    const word = term.replace(/[~^][\d.]*$/, '');
    if (/^[^*?]+\*$/u.test(word)) prefixes.push(word.slice(0, -1));
    else if (!/[*?]/.test(word) && /[\p{L}\p{N}]/u.test(word)) words.push(word);
  }
  return { words, prefixes };
}
