import { htmlToText, languageTag, localized } from '../../../lib/record-text.js';
import {
  doiOf,
  identifierUrl,
  landingUrl,
  licenseUrls,
  openFiles,
  personName,
  type ExportContext,
  type ExportRecord,
} from './export-record.js';

type Person = ExportRecord['metadata']['creators'][number];

/** A creator or contributor as a schema.org Person or Organization, with ORCID or ROR as @id. */
export function agent(c: Person): Record<string, unknown> {
  const p = c.person_or_org;
  const isPerson = p.type !== 'organizational';
  const id = identifierUrl(p.identifiers, isPerson ? 'orcid' : 'ror');
  const affiliations = (c.affiliations ?? [])
    .filter((a) => a.name?.trim())
    .map((a) => ({
      '@type': 'Organization',
      ...(a.id ? { '@id': `https://ror.org/${a.id}` } : {}),
      name: a.name,
    }));
  return {
    '@type': isPerson ? 'Person' : 'Organization',
    ...(id ? { '@id': id } : {}),
    name: personName(p),
    ...(isPerson && p.given_name ? { givenName: p.given_name } : {}),
    ...(isPerson && p.family_name ? { familyName: p.family_name } : {}),
    ...(affiliations.length ? { affiliation: affiliations } : {}),
  };
}

/** The schema.org type of the record's resource type (its vocabulary entry's `schema.org`). */
export function schemaOrgType(record: ExportRecord, ctx: ExportContext): string {
  const id = record.metadata.resource_type.id;
  const type = id ? ctx.vocab('resourcetypes', id)?.props?.['schema.org'] : undefined;
  return type || 'https://schema.org/CreativeWork';
}

/**
 * Schema.org JSON-LD, as InvenioRDM's serializer writes it for search engines (Google Dataset
 * Search reads it from the landing page's head): the type from the resource type's `schema.org`
 * property, and files as DataDownload distributions only when every reader may download them.
 */
export function toSchemaOrg(record: ExportRecord, ctx: ExportContext): Record<string, unknown> {
  const m = record.metadata;
  const doi = doiOf(record);
  const url = landingUrl(record, ctx);
  const type = schemaOrgType(record, ctx);
  const description = m.description ? htmlToText(m.description) : '';
  const keywords = (m.subjects ?? []).map((s) => s.subject?.trim()).filter(Boolean);
  const licenses = licenseUrls(record);
  const languages = (m.languages ?? []).flatMap((l) => {
    const tag = languageTag(l);
    return tag
      ? [{ '@type': 'Language', alternateName: tag, name: localized(l.title) ?? tag }]
      : [];
  });
  const files = openFiles(record, ctx);
  const identifiers = [
    ...(doi ? [`https://doi.org/${doi}`] : []),
    ...(m.identifiers ?? []).map((i) => i.identifier).filter((i) => i.trim()),
  ];
  const funding = (m.funding ?? []).flatMap((f) =>
    f.funder?.name
      ? [
          {
            '@type': 'MonetaryGrant',
            ...(f.award?.number ? { identifier: f.award.number } : {}),
            ...(localized(f.award?.title) ? { name: localized(f.award?.title) } : {}),
            funder: { '@type': 'Organization', name: f.funder.name },
          },
        ]
      : [],
  );
  return {
    '@context': 'http://schema.org',
    '@id': doi ? `https://doi.org/${doi}` : url,
    '@type': type,
    ...(identifiers.length
      ? { identifier: identifiers.length === 1 ? identifiers[0] : identifiers }
      : {}),
    name: m.title,
    creator: m.creators.map(agent),
    ...(m.contributors?.length ? { contributor: m.contributors.map(agent) } : {}),
    ...(description ? { description } : {}),
    datePublished: m.publication_date,
    ...(record.updated ? { dateModified: record.updated } : {}),
    ...(keywords.length ? { keywords } : {}),
    ...(licenses.length ? { license: licenses.length === 1 ? licenses[0] : licenses } : {}),
    ...(languages.length ? { inLanguage: languages.length === 1 ? languages[0] : languages } : {}),
    ...(m.version?.trim() ? { version: m.version.trim() } : {}),
    url,
    publisher: { '@type': 'Organization', name: m.publisher?.trim() || ctx.siteName },
    ...(funding.length ? { funding } : {}),
    ...(files.length && type.endsWith('/Dataset')
      ? {
          distribution: files.map((f) => ({
            '@type': 'DataDownload',
            name: f.key,
            contentUrl: f.url,
            encodingFormat: f.mimetype,
            contentSize: String(f.size),
          })),
        }
      : {}),
  };
}
