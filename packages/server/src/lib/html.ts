import sanitizeHtml from 'sanitize-html';
import {
  DESCRIPTION_HTML_ATTRIBUTES,
  DESCRIPTION_HTML_DROPPED_WITH_CONTENT,
  DESCRIPTION_HTML_SCHEMES,
  DESCRIPTION_HTML_TAGS,
} from '@cairn/shared';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...DESCRIPTION_HTML_TAGS],
  allowedAttributes: Object.fromEntries(
    Object.entries(DESCRIPTION_HTML_ATTRIBUTES).map(([tag, names]) => [tag, [...names]]),
  ),
  allowedSchemes: [...DESCRIPTION_HTML_SCHEMES],
  nonTextTags: [...DESCRIPTION_HTML_DROPPED_WITH_CONTENT],
};

/**
 * User-written HTML (descriptions, curation policies, comments) reduced to safe formatting, by
 * the rules the browser's sanitiser applies too (`@cairn/shared`'s description-html).
 */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/** Text made safe to place in HTML, as an element's content or a quoted attribute's value. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
