import { dublinCoreElement } from '../records/exports/dublin-core.js';
import type { ExportContext, ExportRecord } from '../records/exports/export-record.js';

/** A metadata format the endpoint disseminates, as ListMetadataFormats describes it. */
export interface MetadataFormat {
  prefix: string;
  schema: string;
  namespace: string;
  /** The record as the root element of the format, without an XML declaration. */
  render: (record: ExportRecord, ctx: ExportContext) => string;
}

/** Every published record is available in every format, so one list serves all identifiers. */
export const METADATA_FORMATS: readonly MetadataFormat[] = [
  {
    prefix: 'oai_dc',
    schema: 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd',
    namespace: 'http://www.openarchives.org/OAI/2.0/oai_dc/',
    render: dublinCoreElement,
  },
];

export function metadataFormat(prefix: string): MetadataFormat | undefined {
  return METADATA_FORMATS.find((f) => f.prefix === prefix);
}
