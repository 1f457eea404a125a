import { htmlToText, languageTag } from '../../../lib/record-text.js';
import {
  dateParts,
  doiOf,
  landingUrl,
  type ExportContext,
  type ExportRecord,
} from './export-record.js';

type CslName = { family?: string; given?: string; literal?: string };

function cslName(c: ExportRecord['metadata']['creators'][number]): CslName {
  const p = c.person_or_org;
  if (p.type !== 'organizational' && (p.family_name?.trim() || p.given_name?.trim())) {
    return {
      ...(p.family_name?.trim() ? { family: p.family_name.trim() } : {}),
      ...(p.given_name?.trim() ? { given: p.given_name.trim() } : {}),
    };
  }
  return { literal: p.name?.trim() ?? '' };
}

/**
 * CSL-JSON (the input of citeproc and citation.js): one item, typed from the resource type's
 * `csl` property as InvenioRDM's vocabulary gives it, `article` when it names none.
 */
export function toCslJson(record: ExportRecord, ctx: ExportContext): Record<string, unknown> {
  const m = record.metadata;
  const type =
    (m.resource_type.id && ctx.vocab('resourcetypes', m.resource_type.id)?.props?.csl) || 'article';
  const issued = dateParts(m.publication_date);
  const doi = doiOf(record);
  const abstract = m.description ? htmlToText(m.description) : '';
  const language = languageTag(m.languages?.[0]);
  const keywords = (m.subjects ?? []).map((s) => s.subject?.trim()).filter(Boolean);
  const contributors = m.contributors ?? [];
  return {
    id: record.id,
    type,
    title: m.title,
    author: m.creators.map(cslName),
    ...(contributors.length ? { contributor: contributors.map(cslName) } : {}),
    ...(issued.length ? { issued: { 'date-parts': [issued] } } : {}),
    ...(abstract ? { abstract } : {}),
    ...(doi ? { DOI: doi } : {}),
    URL: doi ? `https://doi.org/${doi}` : landingUrl(record, ctx),
    publisher: m.publisher?.trim() || ctx.siteName,
    ...(m.version?.trim() ? { version: m.version.trim() } : {}),
    ...(language ? { language } : {}),
    ...(keywords.length ? { keyword: keywords.join(', ') } : {}),
  };
}
