import {
  toDataCiteAttributes,
  type DataCiteAttributes,
} from '../../pids/datacite/datacite-serializer.js';
import { doiOf, landingUrl, type ExportContext, type ExportRecord } from './export-record.js';

/** A DOI's attributes as DataCite's REST API shows them, with the DOI and its landing page. */
export type DataCiteJson = DataCiteAttributes & { doi?: string; url: string };

/**
 * DataCite JSON: the attributes Cairn registers with DataCite for this record (the same
 * serializer the DOI registration uses), with the DOI and landing page DataCite stores beside them.
 */
export function toDataCiteJson(record: ExportRecord, ctx: ExportContext): DataCiteJson {
  const doi = doiOf(record);
  return {
    ...(doi ? { doi } : {}),
    url: landingUrl(record, ctx),
    ...toDataCiteAttributes(record, { publisherFallback: ctx.siteName, siteUrl: ctx.siteUrl }),
  };
}
