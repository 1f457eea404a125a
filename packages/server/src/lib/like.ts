/**
 * Text matched literally inside a LIKE pattern written with `escape '\'`: the wildcards `%`
 * and `_` and the escape character itself are escaped.
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE pattern (with `escape '\'`) that matches text containing `word` anywhere. */
export function containsPattern(word: string): string {
  return `%${escapeLike(word)}%`;
}
