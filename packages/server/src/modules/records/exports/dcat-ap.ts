import { htmlToText } from '../../../lib/record-text.js';
import { resourceTypeOf } from '../../pids/datacite/datacite-serializer.js';
import {
  doiOf,
  identifierUrl,
  landingUrl,
  openFiles,
  personName,
  type ExportContext,
  type ExportFile,
  type ExportRecord,
} from './export-record.js';
import { XML_DECLARATION, xmlAttributes, xmlElement, xmlWrapper } from './xml.js';

const NS = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  dcat: 'http://www.w3.org/ns/dcat#',
  dct: 'http://purl.org/dc/terms/',
  foaf: 'http://xmlns.com/foaf/0.1/',
  adms: 'http://www.w3.org/ns/adms#',
  skos: 'http://www.w3.org/2004/02/skos/core#',
  org: 'http://www.w3.org/ns/org#',
  owl: 'http://www.w3.org/2002/07/owl#',
};
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const EU = 'http://publications.europa.eu/resource/authority';

/** An RDF property pointing at a resource: `<p rdf:resource="uri"/>`. */
function link(property: string, uri: string | undefined): string {
  return uri ? `<${property}${xmlAttributes({ 'rdf:resource': uri })}/>` : '';
}

/** A typed literal, for the dates and sizes DCAT-AP gives datatypes. */
function typed(property: string, value: string | undefined, datatype: string): string {
  return xmlElement(property, value, { 'rdf:datatype': XSD + datatype });
}

/** The XSD datatype of an EDTF date: a day, a month or a year; an interval gives its start. */
function dateLiteral(property: string, edtf: string | undefined): string {
  const first = (edtf ?? '').split('/')[0] ?? '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(first)) return typed(property, first, 'date');
  if (/^\d{4}-\d{2}$/.test(first)) return typed(property, first, 'gYearMonth');
  if (/^\d{4}$/.test(first)) return typed(property, first, 'gYear');
  return xmlElement(property, edtf);
}

/** EU access-right authority, from the record's access status. */
const ACCESS_RIGHTS: Readonly<Record<string, string>> = {
  open: 'PUBLIC',
  embargoed: 'RESTRICTED',
  restricted: 'RESTRICTED',
  'metadata-only': 'NON_PUBLIC',
};

/** DCMI Type vocabulary (what DCAT-AP recommends for dct:type), from DataCite's general type. */
const DCMI_TYPES: Readonly<Record<string, string>> = {
  Audiovisual: 'MovingImage',
  Collection: 'Collection',
  Dataset: 'Dataset',
  Event: 'Event',
  Image: 'StillImage',
  InteractiveResource: 'InteractiveResource',
  PhysicalObject: 'PhysicalObject',
  Service: 'Service',
  Software: 'Software',
  Sound: 'Sound',
  Text: 'Text',
  Book: 'Text',
  BookChapter: 'Text',
  ConferencePaper: 'Text',
  DataPaper: 'Text',
  Dissertation: 'Text',
  JournalArticle: 'Text',
  Preprint: 'Text',
  Report: 'Text',
};

/** EU file-type authority codes of common media types, for dct:format. */
const FILE_TYPES: Readonly<Record<string, string>> = {
  'text/csv': 'CSV',
  'text/plain': 'TXT',
  'text/html': 'HTML',
  'text/tab-separated-values': 'TSV',
  'application/pdf': 'PDF',
  'application/json': 'JSON',
  'application/ld+json': 'JSON_LD',
  'application/xml': 'XML',
  'text/xml': 'XML',
  'application/zip': 'ZIP',
  'application/gzip': 'GZIP',
  'application/x-tar': 'TAR',
  'application/x-netcdf': 'NETCDF',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/tiff': 'TIFF',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'XLSX',
  'application/vnd.ms-excel': 'XLS',
};

type Agent = ExportRecord['metadata']['creators'][number];

/** A creator or contributor, with its ORCID (or an organisation's ROR id) as its URI. */
function agent(property: string, c: Agent): string {
  const p = c.person_or_org;
  const isPerson = p.type !== 'organizational';
  const uri = identifierUrl(p.identifiers, isPerson ? 'orcid' : 'ror');
  const memberOf = (c.affiliations ?? [])
    .filter((a) => a.name?.trim())
    .map((a) =>
      xmlWrapper('org:memberOf', [
        xmlWrapper('foaf:Organization', [xmlElement('foaf:name', a.name)], {
          'rdf:about': a.id ? `https://ror.org/${a.id}` : undefined,
        }),
      ]),
    );
  const node = xmlWrapper(
    isPerson ? 'foaf:Person' : 'foaf:Organization',
    [
      xmlElement('foaf:name', personName(p)),
      isPerson ? xmlElement('foaf:givenName', p.given_name) : '',
      isPerson ? xmlElement('foaf:familyName', p.family_name) : '',
      ...(isPerson ? memberOf : []),
    ],
    { 'rdf:about': uri },
  );
  return xmlWrapper(property, [node]);
}

/**
 * An identifier as a node of its own (a blank node). Named by the DOI's URL it would be the very
 * resource the dataset is, and RDF would make the dataset an adms:Identifier too.
 */
function identifierNode(notation: string, scheme: string): string {
  return xmlWrapper('adms:identifier', [
    xmlWrapper('adms:Identifier', [
      xmlElement('skos:notation', notation),
      xmlElement('adms:schemeAgency', scheme),
    ]),
  ]);
}

function distribution(file: ExportFile, landing: string, licenses: string[]): string {
  const mediaType = file.mimetype.split(';')[0]!.trim().toLowerCase();
  const fileType = FILE_TYPES[mediaType];
  return xmlWrapper('dcat:distribution', [
    xmlWrapper('dcat:Distribution', [
      xmlElement('dct:title', file.key),
      link('dcat:accessURL', landing),
      link('dcat:downloadURL', file.url),
      typed('dcat:byteSize', String(file.size), 'nonNegativeInteger'),
      link('dcat:mediaType', `https://www.iana.org/assignments/media-types/${mediaType}`),
      link('dct:format', fileType ? `${EU}/file-type/${fileType}` : undefined),
      ...licenses.map((l) => link('dct:license', l)),
    ]),
  ]);
}

/**
 * DCAT-AP in RDF/XML, for European data portals: the record as a dcat:Dataset (named by its DOI,
 * else its landing page), with one distribution per file every reader may download, as
 * InvenioRDM's DCAT-AP export. Vocabularies are the EU authority tables DCAT-AP recommends
 * (languages, access rights, file types) and DCMI types.
 */
export function toDcatAp(record: ExportRecord, ctx: ExportContext): string {
  const m = record.metadata;
  const doi = doiOf(record);
  const landing = landingUrl(record, ctx);
  const doiUrl = doi ? `https://doi.org/${doi}` : undefined;
  const description = m.description ? htmlToText(m.description) : '';
  const licenses = (m.rights ?? [])
    .map((r) => r.props?.url || r.link)
    .filter((u): u is string => Boolean(u));
  const dcmiType = DCMI_TYPES[resourceTypeOf(m.resource_type).resourceTypeGeneral];
  const accessRights = ACCESS_RIGHTS[record.access?.status ?? ''];
  const dataset = xmlWrapper(
    'dcat:Dataset',
    [
      xmlElement('dct:title', m.title),
      xmlElement('dct:description', description),
      xmlElement('dct:identifier', doiUrl ?? landing),
      dateLiteral('dct:issued', m.publication_date),
      record.updated ? typed('dct:modified', record.updated, 'dateTime') : '',
      ...m.creators.map((c) => agent('dct:creator', c)),
      ...(m.contributors ?? []).map((c) => agent('dct:contributor', c)),
      xmlWrapper('dct:publisher', [
        xmlWrapper('foaf:Agent', [xmlElement('foaf:name', m.publisher?.trim() || ctx.siteName)]),
      ]),
      ...(m.subjects ?? []).map((s) => xmlElement('dcat:keyword', s.subject)),
      // The EU language table is keyed by ISO 639-3, the codes Cairn's languages have.
      ...(m.languages ?? [])
        .filter((l) => l.id && /^[a-z]{3}$/.test(l.id))
        .map((l) => link('dct:language', `${EU}/language/${l.id!.toUpperCase()}`)),
      ...licenses.map((l) => link('dct:license', l)),
      link('dct:accessRights', accessRights ? `${EU}/access-right/${accessRights}` : undefined),
      link('dcat:landingPage', landing),
      link('dct:type', dcmiType ? `http://purl.org/dc/dcmitype/${dcmiType}` : undefined),
      xmlElement('owl:versionInfo', m.version?.trim()),
      doi ? identifierNode(doi, 'DOI') : '',
      ...(m.identifiers ?? [])
        .filter((i) => i.identifier.trim() && i.identifier !== doi)
        .map((i) => identifierNode(i.identifier, i.scheme ?? 'other')),
      ...openFiles(record, ctx).map((f) => distribution(f, landing, licenses)),
    ],
    { 'rdf:about': doiUrl ?? landing },
  );
  const namespaces = Object.fromEntries(Object.entries(NS).map(([p, uri]) => [`xmlns:${p}`, uri]));
  return `${XML_DECLARATION}${xmlWrapper('rdf:RDF', [dataset], namespaces)}\n`;
}
