import { Cite, plugins } from '@citation-js/core';
import '@citation-js/plugin-csl';
import { CHICAGO_STYLE, IEEE_STYLE } from './styles';

/** Citation styles offered on the landing page: label → CSL template name. */
export const CITATION_TEMPLATES = {
  apa: 'apa',
  harvard: 'harvard1',
  chicago: 'cairn-chicago',
  ieee: 'cairn-ieee',
} as const;
export type CitationStyle = keyof typeof CITATION_TEMPLATES;

let registered = false;

function registerStyles(): void {
  if (registered) return;
  const templates = plugins.config.get('@csl').templates;
  templates.add('cairn-ieee', IEEE_STYLE);
  templates.add('cairn-chicago', CHICAGO_STYLE);
  registered = true;
}

/**
 * A formatted bibliography entry, as plain text: the CSL-JSON the server exports, through
 * citeproc. Loaded on demand (citeproc is a large script) so it never delays the page's first
 * paint.
 */
export function formatCitation(cslJson: unknown, style: CitationStyle): string {
  registerStyles();
  return new Cite(cslJson)
    .format('bibliography', { format: 'text', template: CITATION_TEMPLATES[style], lang: 'en-US' })
    .trim();
}
