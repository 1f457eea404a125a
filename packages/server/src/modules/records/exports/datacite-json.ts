import { toDataCiteAttributes } from '../../pids/datacite/datacite-serializer.js';
import { doiOf, landingUrl, type ExportContext, type ExportRecord } from './export-record.js';

/**
 * DataCite JSON: the attributes Cairn registers with DataCite for this record (the same
 * serializer the DOI registration uses), with the DOI and landing page DataCite stores beside them.
 */
export function toDataCiteJson(record: ExportRecord, ctx: ExportContext): Record<string, unknown> {
  const doi = doiOf(record);
  return {
    ...(doi ? { doi } : {}),
    url: landingUrl(record, ctx),
    ...toDataCiteAttributes(record, { publisherFallback: ctx.siteName, siteUrl: ctx.siteUrl }),
  };
}
