/**
 * Text matched literally inside a LIKE pattern written with `escape '\'`: the wildcards `%`
 * and `_` and the escape character itself are escaped.
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
