import { toBibtex } from './bibtex.js';
import { toCff } from './cff.js';
import { toCodeMeta } from './codemeta.js';
import { toCslJson } from './csl.js';
import { toDataCiteJson } from './datacite-json.js';
import { toDataCiteXml } from './datacite-xml.js';
import { toDcatAp } from './dcat-ap.js';
import { toDublinCore } from './dublin-core.js';
import type { ExportContext, ExportRecord } from './export-record.js';
import { toSchemaOrg } from './schemaorg.js';

/** One export format: its media type for `Accept`, its name in `/records/{id}/export/{name}`. */
export interface ExportFormat {
  name: string;
  label: string;
  mediaType: string;
  extension: string;
  /**
   * False for a format without a media type of its own, offered as a download only: answering
   * `Accept` with a type that names no format would give any other YAML asker a citation file.
   */
  negotiable?: false;
  render: (record: ExportRecord, ctx: ExportContext) => string;
}

const json =
  (fn: (record: ExportRecord, ctx: ExportContext) => unknown) =>
  (record: ExportRecord, ctx: ExportContext) =>
    JSON.stringify(fn(record, ctx), null, 2);

/**
 * The export formats beyond the record JSON itself, with InvenioRDM's media types (what `Accept`
 * asks for on a record) and the names its landing page uses in export links, in the order and
 * with the labels of `EXPORT_FORMAT_LINKS`, the landing page's list.
 */
export const EXPORT_FORMATS: readonly ExportFormat[] = [
  {
    name: 'datacite-json',
    label: 'DataCite JSON',
    mediaType: 'application/vnd.datacite.datacite+json',
    extension: 'json',
    render: json(toDataCiteJson),
  },
  {
    name: 'datacite-xml',
    label: 'DataCite XML',
    mediaType: 'application/vnd.datacite.datacite+xml',
    extension: 'xml',
    render: toDataCiteXml,
  },
  {
    name: 'json-ld',
    label: 'JSON-LD (schema.org)',
    mediaType: 'application/ld+json',
    extension: 'jsonld',
    render: json(toSchemaOrg),
  },
  {
    name: 'csl',
    label: 'CSL',
    mediaType: 'application/vnd.citationstyles.csl+json',
    extension: 'json',
    render: json(toCslJson),
  },
  {
    name: 'bibtex',
    label: 'BibTeX',
    mediaType: 'application/x-bibtex',
    extension: 'bib',
    render: toBibtex,
  },
  {
    name: 'dublincore',
    label: 'Dublin Core XML',
    mediaType: 'application/x-dc+xml',
    extension: 'xml',
    render: toDublinCore,
  },
  {
    name: 'dcat-ap',
    label: 'DCAT-AP',
    mediaType: 'application/dcat+xml',
    extension: 'xml',
    render: toDcatAp,
  },
  {
    name: 'codemeta',
    label: 'CodeMeta',
    mediaType: 'application/vnd.codemeta.ld+json',
    extension: 'json',
    render: json(toCodeMeta),
  },
  {
    name: 'cff',
    label: 'Citation File Format',
    // RFC 9512's registered type for YAML; application/x-yaml is the alias it retires.
    mediaType: 'application/yaml',
    extension: 'cff',
    negotiable: false,
    render: toCff,
  },
];

/** The formats `Accept` on GET /api/records/{id} selects. */
export const NEGOTIABLE_FORMATS = EXPORT_FORMATS.filter((f) => f.negotiable !== false);

export const EXPORT_MEDIA_TYPES = NEGOTIABLE_FORMATS.map((f) => f.mediaType);

export function exportFormatByType(mediaType: string): ExportFormat | undefined {
  return NEGOTIABLE_FORMATS.find((f) => f.mediaType === mediaType);
}

export function exportFormatByName(name: string): ExportFormat | undefined {
  return EXPORT_FORMATS.find((f) => f.name === name);
}
