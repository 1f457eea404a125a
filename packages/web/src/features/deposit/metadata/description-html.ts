import { sanitizeHtml } from '../../../lib/sanitize-html';

/**
 * The editor's HTML as it is stored: only the tags the server keeps, links with safe targets,
 * no editor attributes (classes, `target`). Empty paragraphs alone count as no description.
 */
export function toDescriptionHtml(html: string): string {
  const clean = sanitizeHtml(html);
  return /^(<p>(<br>)?<\/p>)*$/.test(clean) ? '' : clean;
}
