import { DESCRIPTION_HTML_TAGS } from '@cairn/shared';

const ALLOWED_TAGS = new Set(DESCRIPTION_HTML_TAGS);
/** Elements dropped with everything inside them, not unwrapped. */
const DROPPED_WITH_CONTENT = new Set([
  'script',
  'style',
  'template',
  'iframe',
  'object',
  'noscript',
]);
const SAFE_HREF = /^(https?:|mailto:)/i;

function clean(node: Node, doc: Document): Node[] {
  if (node.nodeType === Node.TEXT_NODE) return [doc.createTextNode(node.textContent ?? '')];
  if (node.nodeType !== Node.ELEMENT_NODE) return [];
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  if (DROPPED_WITH_CONTENT.has(tag)) return [];
  const children = [...element.childNodes].flatMap((child) => clean(child, doc));
  if (!ALLOWED_TAGS.has(tag)) return children;
  const copy = doc.createElement(tag);
  if (tag === 'a') {
    const href = element.getAttribute('href')?.trim();
    if (href && SAFE_HREF.test(href)) {
      copy.setAttribute('href', href);
      copy.setAttribute('rel', 'noopener noreferrer nofollow');
    }
    const title = element.getAttribute('title');
    if (title) copy.setAttribute('title', title);
  }
  copy.append(...children);
  return [copy];
}

/**
 * Description HTML reduced to an allow-list of tags and safe links. The server sanitises on
 * save already; this second pass in the browser means a record stored before that rule, or
 * imported another way, can still never run script in the landing page. The markup is parsed
 * into an inert document (no script runs, no image loads) and rebuilt from allowed parts only.
 */
export function sanitizeHtml(html: string): string {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  const out = document.implementation.createHTMLDocument('');
  const container = out.createElement('div');
  container.append(...[...parsed.body.childNodes].flatMap((child) => clean(child, out)));
  return container.innerHTML;
}
