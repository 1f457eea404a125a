import {
  dataCiteResource,
  DATACITE_NAMESPACE,
  DATACITE_SCHEMA_LOCATION,
} from '../records/exports/datacite-xml.js';
import { dublinCoreElement } from '../records/exports/dublin-core.js';
import type { ExportContext, ExportRecord } from '../records/exports/export-record.js';
import { xmlEscape } from '../records/exports/xml.js';

/** A metadata format the endpoint disseminates, as ListMetadataFormats describes it. */
export interface MetadataFormat {
  prefix: string;
  schema: string;
  namespace: string;
  /** The record as the root element of the format, without an XML declaration. */
  render: (record: ExportRecord, ctx: ExportContext) => string;
}

const OAI_DATACITE_NAMESPACE = 'http://schema.datacite.org/oai/oai-1.1/';
const OAI_DATACITE_SCHEMA = 'http://schema.datacite.org/oai/oai-1.1/oai.xsd';
/** The kernel version `dataCiteResource` writes, as oai_datacite names it. */
const DATACITE_SCHEMA_VERSION = /kernel-(\d+\.\d+)\//.exec(DATACITE_SCHEMA_LOCATION)![1]!;

/**
 * Every published record is available in every format, so one list serves all identifiers.
 * `datacite` is the DataCite XML export itself; `oai_datacite` wraps it as DataCite's own OAI-PMH
 * provider does, with the repository's DataCite symbol (its DataCite account, else its name).
 */
export function metadataFormats(datacentreSymbol: string): MetadataFormat[] {
  return [
    {
      prefix: 'oai_dc',
      schema: 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd',
      namespace: 'http://www.openarchives.org/OAI/2.0/oai_dc/',
      render: dublinCoreElement,
    },
    {
      prefix: 'datacite',
      schema: DATACITE_SCHEMA_LOCATION,
      namespace: DATACITE_NAMESPACE,
      render: dataCiteResource,
    },
    {
      prefix: 'oai_datacite',
      schema: OAI_DATACITE_SCHEMA,
      namespace: OAI_DATACITE_NAMESPACE,
      render: (record, ctx) =>
        `<oai_datacite xmlns="${OAI_DATACITE_NAMESPACE}" xsi:schemaLocation="${OAI_DATACITE_NAMESPACE} ${OAI_DATACITE_SCHEMA}">` +
        `<schemaVersion>${DATACITE_SCHEMA_VERSION}</schemaVersion>` +
        `<datacentreSymbol>${xmlEscape(datacentreSymbol)}</datacentreSymbol>` +
        `<payload>${dataCiteResource(record, ctx)}</payload></oai_datacite>`,
    },
  ];
}
