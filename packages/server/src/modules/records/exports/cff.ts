// CITATION.cff is YAML, written here by hand: the yaml package is in node_modules only as a
// dependency of a dependency, and the output needs no more than block mappings and sequences of
// strings. Every string is written double-quoted, the one YAML style that can carry any text:
// no word (yes, no, null, 1e3) is read as anything but a string, colons, '#' and leading
// dashes mean nothing inside it, and escapes carry line breaks and characters YAML may not hold
// literally.
import { htmlToText } from '../../../lib/record-text.js';
import { resourceTypeOf } from '../../pids/datacite/datacite-serializer.js';
import {
  codeRepository,
  doiOf,
  identifierUrl,
  landingUrl,
  spdxId,
  type ExportContext,
  type ExportRecord,
} from './export-record.js';

/** Whether YAML 1.2 may hold the code point literally (its c-printable set, less line separators). */
function isYamlPrintable(cp: number): boolean {
  return (
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xd7ff && cp !== 0x2028 && cp !== 0x2029) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff) ||
    cp >= 0x10000
  );
}

/** A YAML double-quoted scalar of the text; lone surrogates, which no encoding holds, dropped. */
export function yamlString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (isYamlPrintable(cp)) out += ch;
    else out += `\\u${cp.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

type Value = string | Value[] | { [key: string]: Value | undefined };

/** A block mapping, indented, with keys in the order given; undefined and empty lists left out. */
function yamlMapping(entries: Record<string, Value | undefined>, indent = ''): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(entries)) {
    if (value === undefined || (Array.isArray(value) && !value.length)) continue;
    if (typeof value === 'string') lines.push(`${indent}${key}: ${yamlString(value)}`);
    else if (Array.isArray(value)) {
      lines.push(`${indent}${key}:`);
      for (const item of value) {
        if (typeof item === 'string') lines.push(`${indent}  - ${yamlString(item)}`);
        else if (!Array.isArray(item)) {
          const [first, ...rest] = yamlMapping(item, `${indent}    `);
          if (first) lines.push(`${indent}  - ${first.trimStart()}`, ...rest);
        }
      }
    } else {
      lines.push(`${indent}${key}:`, ...yamlMapping(value, `${indent}  `));
    }
  }
  return lines;
}

type Creator = ExportRecord['metadata']['creators'][number];

/** A CFF person (family and given names, ORCID as a URL) or entity (an organisation's name). */
function author(c: Creator): Record<string, Value | undefined> {
  const p = c.person_or_org;
  const affiliation = c.affiliations?.find((a) => a.name?.trim())?.name?.trim();
  const family = p.family_name?.trim();
  const given = p.given_name?.trim();
  // CFF persons have no single name: a person known only by one is written as an entity.
  if (p.type === 'organizational' || (!family && !given)) return { name: p.name?.trim() || '' };
  return {
    'family-names': family,
    'given-names': given,
    orcid: identifierUrl(p.identifiers, 'orcid'),
    affiliation,
  };
}

/** CFF's identifier types; any other scheme is "other". */
function identifierType(scheme: string | undefined): string {
  const s = scheme?.toLowerCase();
  return s === 'doi' || s === 'url' || s === 'swh' ? s : 'other';
}

/**
 * CITATION.cff (Citation File Format 1.2.0), the file GitHub and Zenodo read to show "Cite this
 * repository". Its `type` is `software` for software and `dataset` for everything else, the only
 * two the format has.
 */
export function toCff(record: ExportRecord, ctx: ExportContext): string {
  const m = record.metadata;
  const doi = doiOf(record);
  const url = landingUrl(record, ctx);
  const isSoftware = resourceTypeOf(m.resource_type).resourceTypeGeneral === 'Software';
  const licenses = (m.rights ?? []).map(spdxId).filter((id): id is string => id !== undefined);
  const licenseUrl = licenses.length
    ? undefined
    : (m.rights ?? []).map((r) => r.props?.url || r.link).find(Boolean);
  const abstract = m.description ? htmlToText(m.description) : '';
  const identifiers = [
    ...(doi ? [{ type: 'doi', value: doi, description: 'The version DOI' }] : []),
    ...(record.parent?.pids?.doi?.identifier && record.parent.pids.doi.identifier !== doi
      ? [
          {
            type: 'doi',
            value: record.parent.pids.doi.identifier,
            description: 'The concept DOI, for all versions',
          },
        ]
      : []),
    { type: 'url', value: url, description: 'The landing page' },
    ...(m.identifiers ?? [])
      .filter((i) => i.identifier.trim() && i.identifier !== doi)
      .map((i) => ({ type: identifierType(i.scheme), value: i.identifier.trim() })),
  ];
  const released = /^\d{4}-\d{2}-\d{2}$/.test(m.publication_date) ? m.publication_date : undefined;
  const kind = isSoftware ? 'software' : 'dataset';
  const lines = yamlMapping({
    'cff-version': '1.2.0',
    message: `If you use this ${kind}, please cite it using the metadata from this file.`,
    type: kind,
    title: m.title,
    authors: m.creators.map(author),
    doi,
    identifiers,
    version: m.version?.trim() || undefined,
    'date-released': released,
    license: licenses.length > 1 ? licenses : licenses[0],
    'license-url': licenseUrl,
    abstract: abstract || undefined,
    keywords: (m.subjects ?? []).map((s) => s.subject?.trim() ?? '').filter(Boolean),
    url,
    'repository-code': codeRepository(record),
  });
  return `${lines.join('\n')}\n`;
}
