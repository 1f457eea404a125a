// XML helpers shared by the XML exports (Dublin Core, DataCite XML, DCAT-AP).

/** Whether XML 1.0 can carry the code point at all, even escaped (not controls, U+FFFE/F). */
function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    cp >= 0x10000
  );
}

export function xmlEscape(text: string): string {
  let kept = '';
  // for…of walks code points, so a lone surrogate arrives alone (and is dropped) and a pair whole.
  for (const ch of text) if (isXmlChar(ch.codePointAt(0)!)) kept += ch;
  return kept.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
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
  const inner = kept.map((c) => c.replace(/^/gm, indent)).join('\n');
  return `<${name}${xmlAttributes(attributes)}>\n${inner}\n</${name}>`;
}
