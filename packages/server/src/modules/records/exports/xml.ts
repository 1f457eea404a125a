// XML helpers shared by the XML exports (Dublin Core, DataCite XML, DCAT-AP).

/**
 * What XML 1.0 cannot carry at all, even escaped: controls other than tab and line breaks,
 * U+FFFE/U+FFFF, and (with the `u` flag, a lone surrogate is one code point) unpaired surrogates.
 * Two regular expressions, not a loop over code points: a harvest escapes every field of every
 * record it sends.
 */
const NOT_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlEscape(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Escaped with line breaks and tabs as character references too: the same text to a parser, but on
 * one line, so that {@link xmlWrapper} can indent elements without touching their text, and an
 * attribute keeps its line breaks (a parser turns literal ones into spaces).
 */
function xmlOneLine(text: string): string {
  return xmlEscape(text).replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The declaration every standalone XML export starts with. */
export const XML_DECLARATION = `<?xml version='1.0' encoding='utf-8'?>\n`;

/** Attributes as ` name="value"`, escaped, leaving out those without a value. */
export function xmlAttributes(attributes: Record<string, string | undefined>): string {
  return Object.entries(attributes)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
    .map(([name, value]) => ` ${name}="${xmlOneLine(value)}"`)
    .join('');
}

/** `<name attrs>text</name>`, escaped; nothing for a blank text. */
export function xmlElement(
  name: string,
  text: string | undefined,
  attributes: Record<string, string | undefined> = {},
): string {
  if (text === undefined || !text.trim()) return '';
  return `<${name}${xmlAttributes(attributes)}>${xmlOneLine(text)}</${name}>`;
}

/**
 * Child elements indented under `<name attrs>`: nothing when there are no children, so that an
 * optional wrapper is left out rather than written empty.
 */
export function xmlWrapper(
  name: string,
  children: readonly string[],
  attributes: Record<string, string | undefined> = {},
  indent = '  ',
): string {
  const kept = children.filter((c) => c !== '');
  if (!kept.length) return '';
  // Split at line feeds only: a multiline /^/ would also indent after U+2028 and U+2029, which
  // XML keeps as text, and so change a title that holds one.
  const inner = kept
    .map((c) =>
      c
        .split('\n')
        .map((line) => indent + line)
        .join('\n'),
    )
    .join('\n');
  return `<${name}${xmlAttributes(attributes)}>\n${inner}\n</${name}>`;
}
