import { Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { whenIdle } from '../lib/idle';
import { SanitisedHtml } from './SanitisedHtml';

/** Even on a page that never idles, the sanitiser comes within this time. */
const IDLE_TIMEOUT_MS = 2000;

type Display = (html: string) => string;

/**
 * `SafeHtml` for a page whose first load has no room for the sanitiser (DOMPurify, about 12 KB
 * gzipped; the deposit form): it is fetched once the browser is idle, and until then the text
 * is shown alone, unformatted, read from an inert parse (no script runs, nothing loads).
 */
export function DeferredSafeHtml({ html }: { html: string }) {
  const [display, setDisplay] = useState<Display>();
  useEffect(
    () =>
      whenIdle(() => {
        void import('../lib/sanitize-html').then((module) => setDisplay(() => module.displayHtml));
      }, IDLE_TIMEOUT_MS),
    [],
  );
  const clean = useMemo(() => display?.(html), [display, html]);
  const text = useMemo(() => (display ? '' : textOf(html)), [display, html]);
  if (clean !== undefined) return <SanitisedHtml html={clean} />;
  return <Text style={{ whiteSpace: 'pre-line' }}>{text}</Text>;
}

/** The text of `html`, a line per block (paragraph, list item, heading, row). */
function textOf(html: string): string {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  for (const block of body.querySelectorAll('p, li, h1, h2, h3, h4, tr, pre, blockquote, br')) {
    block.append('\n');
  }
  return (body.textContent ?? '').trim();
}
