import { Cite, plugins } from '@citation-js/core';
import '@citation-js/plugin-csl';
import { AppError } from '../../../errors.js';
import { toCslJson } from './csl.js';
import { CHICAGO_STYLE, IEEE_STYLE } from './csl-styles.js';
import type { ExportContext, ExportRecord } from './export-record.js';

/** `Accept: text/x-bibliography`: a formatted citation, answered as plain text. */
export const BIBLIOGRAPHY_TYPE = 'text/x-bibliography';

/**
 * The `style` names InvenioRDM's clients send (CSL style ids, as its citation dropdown lists
 * them), each to the CSL template that renders it here. Harvard is the default, as it is
 * InvenioRDM's when `style` is left out.
 */
const STYLES = new Map([
  ['apa', 'apa'],
  ['harvard1', 'harvard1'],
  ['harvard-cite-them-right', 'harvard1'],
  ['vancouver', 'vancouver'],
  ['ieee', 'cairn-ieee'],
  ['chicago-author-date', 'cairn-chicago'],
]);
const DEFAULT_CITATION_STYLE = 'harvard1';

const CSL = plugins.config.get('@csl');
CSL.templates.add('cairn-ieee', IEEE_STYLE);
CSL.templates.add('cairn-chicago', CHICAGO_STYLE);

/**
 * The record's bibliography entry in `style`, as plain text, with the terms of `locale` where
 * the citation processor has them (en-US, de-DE, fr-FR, es-ES, nl-NL) and the style's own
 * otherwise, as InvenioRDM falls back. Formatted here rather than in the browser: the citation
 * processor and its styles are half a megabyte of script that every landing page would otherwise
 * load and run, and the processor keeps each style compiled between requests.
 */
export function toBibliography(
  record: ExportRecord,
  ctx: ExportContext,
  style: string | undefined,
  locale: string | undefined,
): string {
  return formatBibliography(toCslJson(record, ctx), style, locale);
}

/**
 * The citation processor's locale for `locale` (`de-DE`, `de_DE`, or a bare `de` as a page's
 * language names it), undefined where it has none.
 */
function citationLocale(locale: string): string | undefined {
  const { locales } = CSL;
  const tag = locale.replace('_', '-');
  if (locales.has(tag)) return tag;
  if (tag.includes('-')) return undefined;
  return locales.list().find((known) => known.toLowerCase().startsWith(`${tag.toLowerCase()}-`));
}

/** A CSL-JSON item's bibliography entry (see {@link toBibliography}). */
export function formatBibliography(
  cslJson: unknown,
  style: string | undefined,
  locale: string | undefined,
): string {
  // A map, not an object: `constructor` or `__proto__` must name no style.
  const template = STYLES.get((style ?? DEFAULT_CITATION_STYLE).toLowerCase());
  // InvenioRDM's own message and status for a style it does not know.
  if (!template) throw new AppError('CITATION_STYLE_NOT_FOUND');
  const lang = locale === undefined ? undefined : citationLocale(locale);
  const text = new Cite(cslJson).format('bibliography', {
    format: 'text',
    template,
    ...(lang ? { lang } : {}),
  });
  // Vancouver pads its numbers with two spaces; one line of single spaces reads and copies cleanly.
  return text.replace(/\s+/g, ' ').trim();
}
