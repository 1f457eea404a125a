/**
 * The words of user-written HTML on one line, read from an inert parse: no script runs, nothing
 * loads, no markup reaches the page. Blocks are kept apart by a space, so that "<p>Ice</p><p>Sheet"
 * does not read "IceSheet".
 */
export function plainTextOf(html: string): string {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  for (const block of body.querySelectorAll(
    'p, li, h1, h2, h3, h4, h5, h6, td, th, pre, blockquote, br, div',
  )) {
    block.append(' ');
  }
  return (body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The start of `text`, at most `max` characters, cut at a word's end and marked with "…". */
export function excerptOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1);
  const lastSpace = cut.lastIndexOf(' ');
  // A single word longer than the excerpt is cut inside it rather than dropped.
  const end = lastSpace > max / 2 ? lastSpace : max;
  return `${cut.slice(0, end).replace(/[\s,;:.–-]+$/u, '')}…`;
}
