/**
 * What a description (and a community's curation policy, a request comment) may hold. The
 * server sanitises to these rules on save (sanitize-html) and the browser again before it renders
 * one (DOMPurify): both are configured from here, and a shared test corpus holds them to the
 * same result.
 */

/** The HTML elements a description may contain. */
export const DESCRIPTION_HTML_TAGS: readonly string[] = Object.freeze([
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  'sub',
  'sup',
  'ul',
  'ol',
  'li',
  'a',
  'code',
  'pre',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'span',
  'div',
  'hr',
  's',
]);

/** The attributes each element may keep; every other attribute is dropped. */
export const DESCRIPTION_HTML_ATTRIBUTES: Readonly<Record<string, readonly string[]>> =
  Object.freeze({ a: Object.freeze(['href', 'title']) });

/** URL schemes a link may use; a link without a scheme (relative) is kept too. */
export const DESCRIPTION_HTML_SCHEMES: readonly string[] = Object.freeze([
  'http',
  'https',
  'mailto',
]);

/**
 * Elements dropped together with everything inside them, where other elements outside the
 * allow-list are unwrapped and their text kept: their content is code, styles, another markup
 * language (SVG, MathML) or a fallback, never text the depositor meant to show. The union of
 * what sanitize-html and DOMPurify each drop this way by default.
 */
export const DESCRIPTION_HTML_DROPPED_WITH_CONTENT: readonly string[] = Object.freeze([
  'script',
  'style',
  'template',
  'iframe',
  'noscript',
  'noembed',
  'noframes',
  'xmp',
  'plaintext',
  'textarea',
  'option',
  'selectedcontent',
  'title',
  'head',
  'svg',
  'math',
  'mi',
  'mn',
  'mo',
  'ms',
  'mtext',
  'annotation-xml',
  'foreignobject',
  'desc',
  'audio',
  'video',
  'colgroup',
]);
