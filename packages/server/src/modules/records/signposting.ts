import { EXPORT_FORMATS } from './exports/export-formats.js';
import {
  doiOf,
  identifierUrl,
  landingUrl,
  licenseUrls,
  openFiles,
  type ExportContext,
  type ExportRecord,
} from './exports/export-record.js';
import { schemaOrgType } from './exports/schemaorg.js';

/** RFC 9264's JSON and text forms of a linkset. */
export const LINKSET_JSON_TYPE = 'application/linkset+json';
export const LINKSET_TYPE = 'application/linkset';
export const LINKSET_TYPES = [LINKSET_JSON_TYPE, LINKSET_TYPE] as const;

/** A link's target and its attributes (RFC 9264 section 4.2.4). */
export interface TargetLink {
  href: string;
  type?: string;
  /** An extension attribute, so an array in the JSON form (RFC 9264 section 4.2.4.3). */
  profile?: string[];
}

/** One link context object of a linkset: its anchor and its links by relation type. */
export type LinkContext = { anchor: string } & { [rel: string]: string | TargetLink[] };

/** The record's signposting: links of its landing page, and the resources they point at. */
interface Signposts {
  landing: string;
  /** The record in the API: every metadata format, chosen by `Accept` (as InvenioRDM does). */
  metadata: string;
  links: Array<[rel: string, targets: TargetLink[]]>;
  items: TargetLink[];
  authors: TargetLink[];
}

/**
 * Characters a URI may not hold as they are (RFC 3986): such characters in a DOI, a file name or
 * a licence link someone typed would break the `<…>` of a Link header.
 */
function uriReference(text: string): string {
  return text.replace(/[^\w\-.~!$&'()*+,;=:@/?#%[\]]/gu, (c) => encodeURIComponent(c));
}

/** A DOI as a doi.org URL: its `#`, `?` and `%` belong to the DOI, not to the URL. */
function doiUrl(doi: string): string {
  return `https://doi.org/${uriReference(doi.replace(/[%#?]/g, (c) => encodeURIComponent(c)))}`;
}

/** A media type with parameters (`application/ld+json;profile="…"`) as a typed link. */
export function typedLink(href: string, mediaType: string): TargetLink {
  const [type = mediaType, ...params] = mediaType.split(';');
  const profile = params
    .map((p) => /^\s*profile\s*=\s*"?([^"]*)"?\s*$/.exec(p)?.[1])
    .filter((p): p is string => Boolean(p));
  return { href, type: type.trim(), ...(profile.length ? { profile } : {}) };
}

/**
 * What FAIR Signposting says of a published record (signposting.org/FAIR): its persistent
 * identifier, its types, its metadata (the API URL with each media type it answers `Accept`
 * with, as InvenioRDM points at it), its files every reader may download (as the exports name
 * them), its licences and its authors' ORCIDs.
 */
function signposts(record: ExportRecord, ctx: ExportContext): Signposts {
  const landing = landingUrl(record, ctx);
  const metadata = `${ctx.siteUrl.replace(/\/+$/, '')}/api/records/${record.id}`;
  const doi = doiOf(record);
  // Only formats a client can ask for by `Accept`: a format without a media type is a download.
  const mediaTypes = [
    'application/json',
    ...EXPORT_FORMATS.map((f) => f.mediaType).filter((t): t is string => Boolean(t)),
  ];
  const authors = record.metadata.creators.flatMap((c) => {
    const orcid =
      c.person_or_org.type === 'organizational'
        ? undefined
        : identifierUrl(c.person_or_org.identifiers, 'orcid');
    return orcid ? [{ href: uriReference(orcid) }] : [];
  });
  return {
    landing,
    metadata,
    links: [
      ['cite-as', [{ href: doi ? doiUrl(doi) : landing }]],
      ['describedby', mediaTypes.map((t) => typedLink(metadata, t))],
      [
        'type',
        [{ href: schemaOrgType(record, ctx) }, { href: 'https://schema.org/AboutPage' }].map(
          (l) => ({ href: uriReference(l.href) }),
        ),
      ],
      ['license', licenseUrls(record).map((href) => ({ href: uriReference(href) }))],
    ],
    items: openFiles(record, ctx).map((f) => ({ href: f.url, type: f.mimetype })),
    authors,
  };
}

function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** One RFC 8288 link-value. */
function linkValue(rel: string, link: TargetLink, anchor?: string): string {
  return [
    `<${link.href}>`,
    `rel=${quoted(rel)}`,
    ...(anchor === undefined ? [] : [`anchor=${quoted(anchor)}`]),
    ...(link.type ? [`type=${quoted(link.type)}`] : []),
    ...(link.profile ?? []).map((p) => `profile=${quoted(p)}`),
  ].join(' ; ');
}

/**
 * The landing page's `Link` header (FAIR Signposting level 1), with the linkset (level 2) in
 * both forms. Items and authors stop at `maxLinks` each: proxies refuse response headers beyond
 * a few kilobytes (nginx's default buffer is 4 or 8 KB), and the linkset lists them all.
 */
export function signpostingHeader(
  record: ExportRecord,
  ctx: ExportContext,
  maxLinks: number,
): string {
  const s = signposts(record, ctx);
  const links: Array<[string, TargetLink[]]> = [
    ...s.links,
    ['item', s.items.slice(0, maxLinks)],
    ['author', s.authors.slice(0, maxLinks)],
    ['linkset', LINKSET_TYPES.map((type) => ({ href: s.metadata, type }))],
  ];
  return links.flatMap(([rel, targets]) => targets.map((t) => linkValue(rel, t))).join(', ');
}

/**
 * The Link header of a resource the landing page points at: the page it belongs to (`describes`
 * from the record's metadata: the API's answers and the export downloads; `collection` from a
 * file's content), and the linkset, as FAIR Signposting asks of them.
 */
export function backLinkHeader(
  rel: 'describes' | 'collection',
  siteUrl: string,
  id: string,
): string {
  const base = siteUrl.replace(/\/+$/, '');
  return [
    linkValue(rel, { href: `${base}/records/${id}`, type: 'text/html' }),
    ...LINKSET_TYPES.map((type) =>
      linkValue('linkset', { href: `${base}/api/records/${id}`, type }),
    ),
  ].join(', ');
}

/**
 * The record's linkset (FAIR Signposting level 2, RFC 9264's JSON form): the landing page with
 * every link, then each file pointing back at it as its `collection` and the metadata as what
 * `describes` it. The API answers every metadata format at one URL, so one context stands for
 * all of them, as InvenioRDM's does.
 */
export function linkset(record: ExportRecord, ctx: ExportContext): { linkset: LinkContext[] } {
  const s = signposts(record, ctx);
  const landingContext: LinkContext = { anchor: s.landing };
  for (const [rel, targets] of [...s.links, ['item', s.items], ['author', s.authors]] as const) {
    if (targets.length > 0) landingContext[rel] = targets;
  }
  const back = [{ href: s.landing, type: 'text/html' }];
  return {
    linkset: [
      landingContext,
      ...s.items.map((item) => ({ anchor: item.href, collection: back })),
      { anchor: s.metadata, describes: back },
    ],
  };
}

/** The linkset in RFC 9264's text form: one link-value a line, each with its anchor. */
export function linksetText(set: { linkset: LinkContext[] }): string {
  return set.linkset
    .flatMap(({ anchor, ...rels }) =>
      Object.entries(rels).flatMap(([rel, targets]) =>
        (targets as TargetLink[]).map((t) => linkValue(rel, t, anchor)),
      ),
    )
    .join(',\n');
}
