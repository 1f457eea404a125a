import { htmlToText, localized } from '../../../lib/record-text.js';
import {
  doiOf,
  landingUrl,
  personName,
  type ExportContext,
  type ExportRecord,
} from './export-record.js';
import { XML_DECLARATION, xmlEscape } from './xml.js';

/** OpenAIRE's access rights vocabulary, which OAI-PMH harvesters read from dc:rights. */
const ACCESS_RIGHTS: Readonly<Record<string, string>> = {
  open: 'info:eu-repo/semantics/openAccess',
  embargoed: 'info:eu-repo/semantics/embargoedAccess',
  restricted: 'info:eu-repo/semantics/restrictedAccess',
  'metadata-only': 'info:eu-repo/semantics/closedAccess',
};

const OAI_DC_OPEN =
  '<oai_dc:dc xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai_dc/ http://www.openarchives.org/OAI/2.0/oai_dc.xsd">';

/**
 * Simple Dublin Core in the oai_dc container, as InvenioRDM's Dublin Core XML serializer, without
 * an XML declaration: the form an OAI-PMH response embeds in each record's `<metadata>`.
 */
export function dublinCoreElement(record: ExportRecord, ctx: ExportContext): string {
  const m = record.metadata;
  const out: Array<[string, string]> = [];
  const add = (element: string, value: string | undefined) => {
    if (value?.trim()) out.push([element, value.trim()]);
  };
  const doi = doiOf(record);
  const conceptDoi = record.parent?.pids?.doi?.identifier;
  for (const c of m.creators) add('creator', personName(c.person_or_org));
  for (const c of m.contributors ?? []) add('contributor', personName(c.person_or_org));
  for (const place of placesOf(m.locations)) add('coverage', place);
  add('date', m.publication_date);
  const embargoUntil = record.access?.embargo?.active ? record.access.embargo.until : undefined;
  if (embargoUntil) add('date', `info:eu-repo/date/embargoEnd/${embargoUntil}`);
  for (const d of m.dates ?? []) add('date', d.date);
  if (m.description) add('description', htmlToText(m.description));
  for (const d of m.additional_descriptions ?? []) add('description', htmlToText(d.description));
  for (const f of m.formats ?? []) add('format', f);
  if (doi) add('identifier', `https://doi.org/${doi}`);
  add('identifier', landingUrl(record, ctx));
  for (const i of m.identifiers ?? []) add('identifier', i.identifier);
  for (const l of m.languages ?? []) add('language', l.id);
  add('publisher', m.publisher?.trim() || ctx.siteName);
  if (conceptDoi && conceptDoi !== doi) add('relation', `doi:${conceptDoi}`);
  for (const r of m.related_identifiers ?? [])
    add('relation', r.scheme ? `${r.scheme}:${r.identifier}` : r.identifier);
  add('rights', ACCESS_RIGHTS[record.access?.status ?? '']);
  for (const r of m.rights ?? []) {
    add('rights', localized(r.title) ?? r.id);
    add('rights', r.props?.url || r.link);
  }
  for (const s of m.subjects ?? []) add('subject', s.subject);
  add('title', m.title);
  for (const t of m.additional_titles ?? []) add('title', t.title);
  const resourceType = m.resource_type.id
    ? ctx.vocab('resourcetypes', m.resource_type.id)
    : undefined;
  add('type', resourceType?.props?.eurepo);
  add('type', localized(resourceType?.title ?? m.resource_type.title));
  const elements = out.map(([e, v]) => `  <dc:${e}>${xmlEscape(v)}</dc:${e}>`).join('\n');
  return `${OAI_DC_OPEN}\n${elements}\n</oai_dc:dc>`;
}

/** The place names of a record's locations (`metadata.locations.features[].place`). */
function placesOf(locations: unknown): string[] {
  const features = (locations as { features?: unknown } | undefined)?.features;
  if (!Array.isArray(features)) return [];
  return features
    .map((f) => (f as { place?: unknown }).place)
    .filter((p): p is string => typeof p === 'string');
}

/** The Dublin Core export: the oai_dc element as a document of its own. */
export function toDublinCore(record: ExportRecord, ctx: ExportContext): string {
  return `${XML_DECLARATION}${dublinCoreElement(record, ctx)}\n`;
}
