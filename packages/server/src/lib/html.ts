import sanitizeHtml from 'sanitize-html';
import { DESCRIPTION_HTML_TAGS } from '@cairn/shared';

/** User-written HTML (descriptions, curation policies, comments) reduced to safe formatting. */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [...DESCRIPTION_HTML_TAGS],
    allowedAttributes: { a: ['href', 'title'] },
    allowedSchemes: ['http', 'https', 'mailto'],
  });
}
