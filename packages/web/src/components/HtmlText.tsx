import { Text } from '@mantine/core';
import { useMemo } from 'react';

/**
 * The text of user-written HTML alone, a line per block (paragraph, list item, heading, row),
 * read from an inert parse: no script runs, nothing loads, no markup reaches the page. For a
 * page whose first load has no room for the sanitiser (DOMPurify, about 12 KB gzipped): the
 * deposit form's description until its editor comes.
 */
export function HtmlText({ html }: { html: string }) {
  const text = useMemo(() => textOf(html), [html]);
  return <Text style={{ whiteSpace: 'pre-line' }}>{text}</Text>;
}

function textOf(html: string): string {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  for (const block of body.querySelectorAll('p, li, h1, h2, h3, h4, tr, pre, blockquote, br')) {
    block.append('\n');
  }
  return (body.textContent ?? '').trim();
}
