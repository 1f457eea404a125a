import { useMemo } from 'react';
import { displayHtml } from '../lib/sanitize-html';
import { SanitisedHtml } from './SanitisedHtml';

/** Rich text a depositor wrote (descriptions), shown through the allow-list sanitiser only. */
export function SafeHtml({ html }: { html: string }) {
  const clean = useMemo(() => displayHtml(html), [html]);
  return <SanitisedHtml html={clean} />;
}
