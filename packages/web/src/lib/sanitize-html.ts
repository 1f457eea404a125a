import DOMPurify, { type Config } from 'dompurify';
import {
  DESCRIPTION_HTML_ATTRIBUTES,
  DESCRIPTION_HTML_DROPPED_WITH_CONTENT,
  DESCRIPTION_HTML_SCHEMES,
  DESCRIPTION_HTML_TAGS,
} from '@cairn/shared';

/**
 * A URL is kept when its scheme is allowed or when it has none (a relative link), read as
 * sanitize-html reads a scheme on the server: a letter, then letters, digits, `+`, `-` or `.`.
 */
const ALLOWED_URI = new RegExp(
  `^(?:(?:${DESCRIPTION_HTML_SCHEMES.join('|')}):|(?![a-z][a-z0-9+.-]*:))`,
  'i',
);

/** DOMPurify set to the rules the server's sanitize-html applies on save. */
const CONFIG: Config = {
  ALLOWED_TAGS: [...DESCRIPTION_HTML_TAGS],
  ALLOWED_ATTR: [],
  // Per element, as the server allows them: `title` on a link, not on a paragraph.
  ADD_ATTR: (name, tag) => DESCRIPTION_HTML_ATTRIBUTES[tag]?.includes(name) ?? false,
  ALLOWED_URI_REGEXP: ALLOWED_URI,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  FORBID_CONTENTS: [...DESCRIPTION_HTML_DROPPED_WITH_CONTENT],
};

/**
 * Description HTML reduced to the allow-list the server keeps on save. The server sanitises
 * already; this second pass in the browser means a record stored before a rule, or imported
 * another way, can still never run script in the page.
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, CONFIG);
}

// A purifier of its own, so that its hook never touches what `sanitizeHtml` returns.
const forDisplay = DOMPurify(window);
forDisplay.addHook('afterSanitizeAttributes', (node) => {
  // Links someone else wrote: no ranking credit for them, no handle on this page.
  if (node.tagName === 'A' && node.hasAttribute('href'))
    node.setAttribute('rel', 'noopener noreferrer nofollow');
});

/** `sanitizeHtml`, and links marked as written by a depositor: what a page shows. */
export function displayHtml(html: string): string {
  return forDisplay.sanitize(html, CONFIG);
}
