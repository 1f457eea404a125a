import type { CreatorFormValues } from '@cairn/shared';

/**
 * The identifier schemes a row shows as an icon that links out: those whose identifiers each have
 * a public page.
 */
export const LINKED_SCHEMES = ['orcid', 'ror', 'gnd'] as const;
export type LinkedScheme = (typeof LINKED_SCHEMES)[number];

const SCHEME_URLS: Readonly<Record<LinkedScheme, (id: string) => string>> = {
  orcid: (id) => `https://orcid.org/${id}`,
  ror: (id) => `https://ror.org/${id}`,
  gnd: (id) => `https://d-nb.info/gnd/${id}`,
};

/** One identifier icon of a row: its scheme, its value and where it leads. */
export interface IdentifierLink {
  scheme: LinkedScheme;
  identifier: string;
  href: string;
}

/**
 * The name a person reads in the list: "Family, Given" for a person, the name of an
 * organisation. A draft may hold a half-typed creator, so every part may be missing.
 */
export function creatorName(creator: CreatorFormValues | undefined): string {
  const person = creator?.person_or_org;
  if (!person) return '';
  if (person.type === 'organizational') return person.name ?? '';
  return [person.family_name, person.given_name].filter(Boolean).join(', ');
}

/** The affiliations' names in order; free-text ones are names too. */
export function affiliationNames(creator: CreatorFormValues | undefined): string[] {
  return (creator?.affiliations ?? []).map((a) => a.name || a.id || '').filter(Boolean);
}

/** ORCID, ROR and GND identifiers as links (others are shown in the editor only). */
export function identifierLinks(creator: CreatorFormValues | undefined): IdentifierLink[] {
  const links: IdentifierLink[] = [];
  for (const entry of creator?.person_or_org?.identifiers ?? []) {
    const scheme = entry.scheme as LinkedScheme;
    if (!(LINKED_SCHEMES as readonly string[]).includes(scheme) || !entry.identifier) continue;
    // Stored ids are normalised (GND as `gnd:…`), but an imported one may carry a resolver URL.
    const bare = entry.identifier.replace(/^https?:\/\/[^/]+\/(?:gnd\/)?|^gnd:/i, '');
    links.push({ scheme, identifier: bare, href: SCHEME_URLS[scheme](encodeURI(bare)) });
  }
  return links;
}

/**
 * The text the inline filter matches: name and affiliations, case- and accent-insensitive
 * ("Müller" is found by "muller"), so a name is found however the person types it.
 */
export function filterText(creator: CreatorFormValues | undefined): string {
  return foldForSearch([creatorName(creator), ...affiliationNames(creator)].join(' '));
}

/** Lower case without diacritics, for matching what people type against names. */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();
}
