import { escapeHtml } from '../../lib/html.js';
import { htmlToText } from '../../lib/record-text.js';
import { EXPORT_FORMATS } from '../records/exports/export-formats.js';
import {
  doiOf,
  landingUrl,
  openFiles,
  personName,
  type ExportContext,
  type ExportRecord,
} from '../records/exports/export-record.js';
import { toSchemaOrg } from '../records/exports/schemaorg.js';

export { escapeHtml };

/** JSON inside <script> must not be able to close the tag. */
export function scriptJson(value: unknown): string {
  // One pass: a draft with 10,000 creators is megabytes of JSON.
  return JSON.stringify(value).replace(/[<\u2028\u2029]/g, (c) => SCRIPT_ESCAPES[c] ?? c);
}

const SCRIPT_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

function meta(name: string, content: string | undefined): string[] {
  return content?.trim() ? [`<meta name="${name}" content="${escapeHtml(content.trim())}">`] : [];
}

/**
 * What crawlers read in a landing page's head before any script runs: Google Scholar's
 * `citation_*` tags (Highwire Press names), a description, the canonical URL, links to the
 * exports, and the schema.org JSON-LD Google Dataset Search reads. PDFs are named only when
 * every reader may download them, as in the exports.
 */
export function recordHead(record: ExportRecord, ctx: ExportContext): string[] {
  const m = record.metadata;
  const url = landingUrl(record, ctx);
  const doi = doiOf(record);
  const pdf = openFiles(record, ctx).find((f) => f.mimetype === 'application/pdf');
  const description = m.description ? htmlToText(m.description) : '';
  return [
    `<link rel="canonical" href="${escapeHtml(url)}">`,
    ...meta('description', description.slice(0, 300)),
    ...meta('citation_title', m.title),
    ...m.creators.flatMap((c) => meta('citation_author', personName(c.person_or_org))),
    // Google Scholar wants slashes: 2024/05/01, 2024/05, 2024.
    ...meta('citation_publication_date', m.publication_date.split('/')[0]?.replace(/-/g, '/')),
    ...meta('citation_doi', doi),
    ...meta('citation_publisher', m.publisher),
    ...meta('citation_abstract_html_url', url),
    ...meta(
      'citation_keywords',
      (m.subjects ?? [])
        .map((s) => s.subject?.trim())
        .filter(Boolean)
        .join('; '),
    ),
    ...meta('citation_language', m.languages?.[0]?.id),
    ...meta('citation_pdf_url', pdf?.url),
    ...EXPORT_FORMATS.map(
      (f) =>
        `<link rel="alternate" type="${f.mediaType}" title="${escapeHtml(f.label)}" href="${escapeHtml(`${url}/export/${f.name}`)}">`,
    ),
    `<script type="application/ld+json">${scriptJson(toSchemaOrg(record, ctx))}</script>`,
  ];
}
