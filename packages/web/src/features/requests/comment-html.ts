const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Plain text as the HTML comments are stored in (`format: 'html'`): blank lines start paragraphs,
 * single line breaks stay breaks, and nothing typed can become markup.
 */
export function textToCommentHtml(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => {
      const escaped = paragraph.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
      return `<p>${escaped.split('\n').join('<br>')}</p>`;
    })
    .join('');
}

/** A stored comment back as text to edit: paragraphs become blank lines, breaks line breaks. */
export function commentHtmlToText(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const br of Array.from(doc.body.querySelectorAll('br'))) br.replaceWith('\n');
  const blocks = Array.from(doc.body.querySelectorAll('p'));
  if (blocks.length === 0) return (doc.body.textContent ?? '').trim();
  return blocks.map((p) => (p.textContent ?? '').trim()).join('\n\n');
}
