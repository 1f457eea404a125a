import { htmlToText } from '../../../lib/record-text.js';
import { resourceTypeOf } from '../../pids/datacite/datacite-serializer.js';
import {
  codeRepository,
  doiOf,
  landingUrl,
  spdxId,
  type ExportContext,
  type ExportRecord,
} from './export-record.js';
import { agent, toSchemaOrg } from './schemaorg.js';

/** Resource types CodeMeta describes as source code. */
const SOFTWARE = new Set(['Software', 'ComputationalNotebook', 'Workflow']);

/**
 * CodeMeta 3.0 JSON-LD, which software archives and registries (Software Heritage among them)
 * read. Software is a SoftwareSourceCode; any other record keeps its schema.org type, as
 * InvenioRDM's CodeMeta export does, since CodeMeta's context is schema.org's and calling a
 * dataset source code would mislead what reads it.
 */
export function toCodeMeta(record: ExportRecord, ctx: ExportContext): Record<string, unknown> {
  const m = record.metadata;
  const doi = doiOf(record);
  const general = resourceTypeOf(m.resource_type).resourceTypeGeneral;
  const schemaOrgType = String(toSchemaOrg(record, ctx)['@type']).replace(
    'https://schema.org/',
    '',
  );
  const licenses = (m.rights ?? []).flatMap((r) => {
    const id = spdxId(r);
    const url = id ? `https://spdx.org/licenses/${id}` : r.props?.url || r.link;
    return url ? [url] : [];
  });
  const keywords = (m.subjects ?? []).map((s) => s.subject?.trim()).filter(Boolean);
  const description = m.description ? htmlToText(m.description) : '';
  const repository = codeRepository(record);
  const url = landingUrl(record, ctx);
  return {
    '@context': 'https://w3id.org/codemeta/3.0',
    '@type': SOFTWARE.has(general) ? 'SoftwareSourceCode' : schemaOrgType,
    '@id': doi ? `https://doi.org/${doi}` : url,
    ...(doi ? { identifier: `https://doi.org/${doi}` } : {}),
    name: m.title,
    ...(description ? { description } : {}),
    ...(m.version?.trim() ? { version: m.version.trim() } : {}),
    author: m.creators.map(agent),
    ...(m.contributors?.length ? { contributor: m.contributors.map(agent) } : {}),
    ...(licenses.length ? { license: licenses.length === 1 ? licenses[0] : licenses } : {}),
    ...(keywords.length ? { keywords } : {}),
    ...(repository ? { codeRepository: repository } : {}),
    ...(record.created ? { dateCreated: record.created.slice(0, 10) } : {}),
    datePublished: m.publication_date,
    ...(record.updated ? { dateModified: record.updated.slice(0, 10) } : {}),
    publisher: { '@type': 'Organization', name: m.publisher?.trim() || ctx.siteName },
    url,
  };
}
