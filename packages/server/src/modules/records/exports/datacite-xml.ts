import type {
  DataCiteAffiliation,
  DataCiteCreator,
  DataCiteNameIdentifier,
} from '../../pids/datacite/datacite-serializer.js';
import { toDataCiteJson, type DataCiteJson } from './datacite-json.js';
import type { ExportContext, ExportRecord } from './export-record.js';
import { XML_DECLARATION, xmlAttributes, xmlElement, xmlWrapper } from './xml.js';

export const DATACITE_NAMESPACE = 'http://datacite.org/schema/kernel-4';
/** The kernel version whose controlled lists the DataCite serializer maps to. */
export const DATACITE_SCHEMA_LOCATION = 'http://schema.datacite.org/meta/kernel-4.6/metadata.xsd';

function nameIdentifier(id: DataCiteNameIdentifier): string {
  return xmlElement('nameIdentifier', id.nameIdentifier, {
    nameIdentifierScheme: id.nameIdentifierScheme,
    schemeURI: id.schemeUri,
  });
}

function affiliation(a: DataCiteAffiliation): string {
  return xmlElement('affiliation', a.name, {
    affiliationIdentifier: a.affiliationIdentifier,
    affiliationIdentifierScheme: a.affiliationIdentifierScheme,
    schemeURI: a.schemeUri,
  });
}

/** A creator or contributor: the schema fixes the order of the name's parts. */
function agent(
  element: 'creator' | 'contributor',
  c: DataCiteCreator,
  attributes: Record<string, string | undefined> = {},
): string {
  return xmlWrapper(
    element,
    [
      xmlElement(`${element}Name`, c.name, { nameType: c.nameType }),
      xmlElement('givenName', c.givenName),
      xmlElement('familyName', c.familyName),
      ...(c.nameIdentifiers ?? []).map(nameIdentifier),
      ...(c.affiliation ?? []).map(affiliation),
    ],
    attributes,
  );
}

/**
 * The resource's own identifier. The kernel requires one; a record without a DOI is named by its
 * landing page with identifierType URL, as OpenAIRE's guidelines for repositories allow.
 * InvenioRDM's DataCite XML leaves the element out then, which the kernel's schema rejects.
 */
function identifier(json: DataCiteJson): { value: string; type: string } {
  return json.doi ? { value: json.doi, type: 'DOI' } : { value: json.url, type: 'URL' };
}

/**
 * The `<resource>` element of DataCite Metadata Schema 4.6 for a record, without an XML
 * declaration: what OAI-PMH's `<metadata>` embeds for the `datacite` and `oai_datacite` formats.
 * It is written from DataCite JSON (the attributes DOI registration sends), so that the JSON, the
 * XML and what DataCite holds never disagree.
 */
export function dataCiteResource(record: ExportRecord, ctx: ExportContext): string {
  const json = toDataCiteJson(record, ctx);
  const id = identifier(json);
  const types = json.types;
  const resourceTypeAttributes = xmlAttributes({ resourceTypeGeneral: types.resourceTypeGeneral });
  const children = [
    xmlElement('identifier', id.value, { identifierType: id.type }),
    xmlWrapper(
      'creators',
      json.creators.map((c) => agent('creator', c)),
    ),
    xmlWrapper(
      'titles',
      json.titles.map((t) =>
        xmlElement('title', t.title, { titleType: t.titleType, 'xml:lang': t.lang }),
      ),
    ),
    xmlElement('publisher', json.publisher),
    xmlElement('publicationYear', json.publicationYear),
    types.resourceType?.trim()
      ? xmlElement('resourceType', types.resourceType, {
          resourceTypeGeneral: types.resourceTypeGeneral,
        })
      : `<resourceType${resourceTypeAttributes}/>`,
    xmlWrapper(
      'subjects',
      (json.subjects ?? []).map((s) =>
        xmlElement('subject', s.subject, { subjectScheme: s.subjectScheme, valueURI: s.valueUri }),
      ),
    ),
    xmlWrapper(
      'contributors',
      (json.contributors ?? []).map((c) =>
        agent('contributor', c, { contributorType: c.contributorType }),
      ),
    ),
    xmlWrapper(
      'dates',
      (json.dates ?? []).map((d) =>
        xmlElement('date', d.date, { dateType: d.dateType, dateInformation: d.dateInformation }),
      ),
    ),
    xmlElement('language', json.language),
    xmlWrapper(
      'alternateIdentifiers',
      (json.alternateIdentifiers ?? [])
        // Without a DOI the landing page is the identifier itself; naming it twice says nothing.
        .filter((a) => a.alternateIdentifier !== id.value)
        .map((a) =>
          xmlElement('alternateIdentifier', a.alternateIdentifier, {
            alternateIdentifierType: a.alternateIdentifierType,
          }),
        ),
    ),
    xmlWrapper(
      'relatedIdentifiers',
      (json.relatedIdentifiers ?? []).map((r) =>
        xmlElement('relatedIdentifier', r.relatedIdentifier, {
          relatedIdentifierType: r.relatedIdentifierType,
          relationType: r.relationType,
          resourceTypeGeneral: r.resourceTypeGeneral,
        }),
      ),
    ),
    xmlWrapper(
      'sizes',
      (json.sizes ?? []).map((s) => xmlElement('size', s)),
    ),
    xmlWrapper(
      'formats',
      (json.formats ?? []).map((f) => xmlElement('format', f)),
    ),
    xmlElement('version', json.version),
    xmlWrapper(
      'rightsList',
      (json.rightsList ?? []).map((r) =>
        xmlElement('rights', r.rights, {
          rightsURI: r.rightsUri,
          rightsIdentifier: r.rightsIdentifier,
          rightsIdentifierScheme: r.rightsIdentifierScheme,
          schemeURI: r.schemeUri,
        }),
      ),
    ),
    xmlWrapper(
      'descriptions',
      (json.descriptions ?? []).map((d) =>
        xmlElement('description', d.description, {
          descriptionType: d.descriptionType,
          'xml:lang': d.lang,
        }),
      ),
    ),
    xmlWrapper(
      'geoLocations',
      (json.geoLocations ?? []).map((g) =>
        xmlWrapper('geoLocation', [
          xmlElement('geoLocationPlace', g.geoLocationPlace),
          g.geoLocationPoint
            ? xmlWrapper('geoLocationPoint', [
                xmlElement('pointLongitude', String(g.geoLocationPoint.pointLongitude)),
                xmlElement('pointLatitude', String(g.geoLocationPoint.pointLatitude)),
              ])
            : '',
        ]),
      ),
    ),
    xmlWrapper(
      'fundingReferences',
      (json.fundingReferences ?? []).map((f) =>
        xmlWrapper('fundingReference', [
          xmlElement('funderName', f.funderName),
          xmlElement('funderIdentifier', f.funderIdentifier, {
            funderIdentifierType: f.funderIdentifierType,
          }),
          // An award known by its page alone still has the page, on an empty awardNumber.
          f.awardNumber || !f.awardUri
            ? xmlElement('awardNumber', f.awardNumber, { awardURI: f.awardUri })
            : `<awardNumber${xmlAttributes({ awardURI: f.awardUri })}/>`,
          xmlElement('awardTitle', f.awardTitle),
        ]),
      ),
    ),
  ];
  return xmlWrapper('resource', children, {
    xmlns: DATACITE_NAMESPACE,
    'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
    'xsi:schemaLocation': `${DATACITE_NAMESPACE} ${DATACITE_SCHEMA_LOCATION}`,
  });
}

/** DataCite XML (Metadata Schema 4.6) as a standalone document. */
export function toDataCiteXml(record: ExportRecord, ctx: ExportContext): string {
  return `${XML_DECLARATION}${dataCiteResource(record, ctx)}\n`;
}
