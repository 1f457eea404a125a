import { iso6393To1 } from 'iso-639-3/iso6393-to-1.js';

// Record values as plain text, for the formats that carry text (DataCite, schema.org, CSL,
// Dublin Core) and the page head.

/** BCP 47 language tags, as DataCite, schema.org and CSL want them: ISO 639-1 where one exists, else the ISO 639-3 code. */
export function languageTag(
  ref: { id?: string; props?: Record<string, string> } | undefined,
): string | undefined {
  if (!ref?.id) return undefined;
  return ref.props?.alpha_2 || iso6393To1[ref.id] || ref.id;
}

/** The English text of a multilingual value, else the first that is not blank. */
export function localized(text: Record<string, string> | undefined): string | undefined {
  if (!text) return undefined;
  return text.en ?? Object.values(text).find((v) => v.trim() !== '');
}

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/**
 * Plain text from the sanitised HTML descriptions records carry. DataCite shows descriptions as
 * text, so tags would appear literally; block ends become line breaks to keep paragraphs apart.
 */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|blockquote|pre|tr)\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity: string, body: string) => {
      if (body[0] === '#') {
        const code =
          body[1] === 'x' || body[1] === 'X'
            ? parseInt(body.slice(2), 16)
            : parseInt(body.slice(1), 10);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
      }
      return ENTITIES[body.toLowerCase()] ?? entity;
    })
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
