import { z } from 'zod';
import { isValidIdentifier, normalizeIdentifier } from '@cairn/shared';
import { compactIdentifier, normaliseSearchText } from '../search-text.js';
import { entryId, localized, props, tags, text } from '../entry-schema.js';

/**
 * The large vocabularies, each described once: the shape an admin or an importer gives, how an
 * item is indexed for suggestions, and its sort. Everything else (storage, ranking, routes,
 * imports) is shared by all five.
 */
export const INDEXED_TYPES = ['names', 'affiliations', 'funders', 'awards', 'subjects'] as const;
export type IndexedType = (typeof INDEXED_TYPES)[number];

export function isIndexedType(type: string): type is IndexedType {
  return (INDEXED_TYPES as readonly string[]).includes(type);
}

const optionalText = (max?: number) => text(max).optional();
const identifiers = z
  .array(z.object({ scheme: text(50), identifier: text(500) }).strict())
  .max(50, 'Longer than maximum length 50.')
  .optional();
const ItemId = entryId();

const OrganisationSchema = z
  .object({
    id: ItemId,
    name: text(),
    acronym: optionalText(100),
    aliases: z.array(text()).max(200).optional(),
    title: localized.optional(),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'Not a valid ISO 3166-1 alpha-2 country code.')
      .optional(),
    country_name: optionalText(200),
    location_name: optionalText(200),
    status: z.enum(['active', 'inactive', 'withdrawn']).optional(),
    types: z.array(text(100)).max(20).optional(),
    identifiers,
    props,
    tags,
  })
  .strict();

const AffiliationRef = z
  .object({ id: ItemId.optional(), name: optionalText() })
  .strict()
  .refine((a) => a.id !== undefined || a.name !== undefined, 'An id or a name is required.');

const NameSchema = z
  .object({
    id: ItemId.optional(),
    given_name: optionalText(),
    family_name: optionalText(),
    name: optionalText(),
    identifiers,
    affiliations: z.array(AffiliationRef).max(100).optional(),
    props,
    tags,
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.family_name && !v.name) {
      ctx.addIssue({
        code: 'custom',
        path: ['family_name'],
        message: 'Family name cannot be blank.',
      });
    }
    for (const [i, entry] of (v.identifiers ?? []).entries()) {
      if (entry.scheme === 'orcid' && !isValidIdentifier('orcid', entry.identifier)) {
        ctx.addIssue({
          code: 'custom',
          path: ['identifiers', i, 'identifier'],
          message: 'Invalid ORCID identifier.',
        });
      }
    }
    if (v.id === undefined && !v.identifiers?.some((e) => e.scheme === 'orcid')) {
      ctx.addIssue({ code: 'custom', path: ['id'], message: 'An id or an ORCID iD is required.' });
    }
  });

const AwardSchema = z
  .object({
    id: ItemId.optional(),
    number: text(200),
    title: localized.optional(),
    acronym: optionalText(200),
    program: optionalText(200),
    funder: z.object({ id: ItemId, name: optionalText() }).strict(),
    identifiers,
    props,
    tags,
  })
  .strict();

const SubjectSchema = z
  .object({
    id: ItemId.or(z.url({ error: 'Not a valid URL.' })),
    subject: text(),
    scheme: text(100),
    title: localized.optional(),
    synonyms: z.array(text()).max(100).optional(),
    props,
    tags,
  })
  .strict();

export type OrganisationItem = z.infer<typeof OrganisationSchema>;
export type NameItem = z.infer<typeof NameSchema> & { id: string; name: string };
export type AwardItem = z.infer<typeof AwardSchema> & { id: string };
export type SubjectItem = z.infer<typeof SubjectSchema>;
export type IndexedItem = Record<string, unknown> & { id: string };

/** How one item is found: its browse key, labels typed whole, words, identifiers, facet. */
export interface ItemIndex {
  sortKey: string;
  labels: string[];
  words: string[];
  identifiers: string[];
  facet: string | null;
  tags: string[];
}

export interface IndexedKind {
  type: IndexedType;
  /** The API root, `/api/{type}`. */
  root: string;
  schema: z.ZodType<Record<string, unknown>>;
  /** The alphabetical sort's name in InvenioRDM (affiliations `name`, subjects `subject`). */
  sortName: string;
  /** The query parameter filtering on the facet, if the type has one. */
  facetParam?: string;
  /** Completes a valid input into the stored item (computed id and name). */
  complete(input: Record<string, unknown>): IndexedItem;
  index(item: IndexedItem): ItemIndex;
}

function identifierTerms(entries: Array<{ scheme: string; identifier: string }> | undefined) {
  return (entries ?? []).map((e) => compactIdentifier(e.identifier));
}

/** The distinct non-empty normalised forms of the values given. */
function norm(values: Array<string | undefined>): string[] {
  const out = new Set<string>();
  for (const value of values) {
    const normalised = value ? normaliseSearchText(value) : '';
    if (normalised !== '') out.add(normalised);
  }
  return [...out];
}

const organisation = (type: 'affiliations' | 'funders'): IndexedKind => ({
  type,
  root: `/api/${type}`,
  schema: OrganisationSchema,
  sortName: 'name',
  complete: (input) => input as IndexedItem,
  index(raw) {
    const item = raw as OrganisationItem;
    const labels = norm([
      item.name,
      item.acronym,
      ...(item.aliases ?? []),
      ...Object.values(item.title ?? {}),
    ]);
    return {
      sortKey: normaliseSearchText(item.name),
      labels,
      words: [...labels, ...norm([item.location_name, item.country_name])],
      identifiers: [compactIdentifier(item.id), ...identifierTerms(item.identifiers)],
      facet: item.country ?? null,
      tags: item.tags ?? [],
    };
  },
});

const names: IndexedKind = {
  type: 'names',
  root: '/api/names',
  schema: NameSchema,
  sortName: 'name',
  complete(input) {
    const v = input as z.infer<typeof NameSchema>;
    const identifiers = v.identifiers?.map((e) =>
      e.scheme === 'orcid'
        ? { scheme: 'orcid', identifier: normalizeIdentifier('orcid', e.identifier) }
        : e,
    );
    const name = v.name ?? [v.family_name, v.given_name].filter((p) => p !== undefined).join(', ');
    return {
      ...v,
      // The schema requires an id or an ORCID iD.
      id: v.id ?? identifiers!.find((e) => e.scheme === 'orcid')!.identifier,
      name,
      ...(identifiers ? { identifiers } : {}),
    };
  },
  index(raw) {
    const item = raw as NameItem;
    const given = item.given_name;
    const family = item.family_name;
    const labels = norm([
      item.name,
      given && family ? `${given} ${family}` : undefined,
      given && family ? `${family} ${given}` : undefined,
    ]);
    return {
      sortKey: normaliseSearchText(item.name),
      labels,
      words: [...labels, ...norm((item.affiliations ?? []).map((a) => a.name))],
      identifiers: [compactIdentifier(item.id), ...identifierTerms(item.identifiers)],
      facet: null,
      tags: item.tags ?? [],
    };
  },
};

const awards: IndexedKind = {
  type: 'awards',
  root: '/api/awards',
  schema: AwardSchema,
  sortName: 'title',
  facetParam: 'funders',
  complete(input) {
    const v = input as z.infer<typeof AwardSchema>;
    return { ...v, id: v.id ?? `${v.funder.id}::${v.number}` };
  },
  index(raw) {
    const item = raw as AwardItem;
    const titles = Object.values(item.title ?? {});
    const labels = norm([item.number, item.acronym, ...titles]);
    return {
      sortKey: normaliseSearchText(titles[0] ?? item.acronym ?? item.number),
      labels,
      words: [...labels, ...norm([item.program, item.funder.name])],
      identifiers: [compactIdentifier(item.number), ...identifierTerms(item.identifiers)],
      facet: item.funder.id,
      tags: item.tags ?? [],
    };
  },
};

const subjects: IndexedKind = {
  type: 'subjects',
  root: '/api/subjects',
  schema: SubjectSchema,
  sortName: 'subject',
  complete: (input) => input as IndexedItem,
  index(raw) {
    const item = raw as SubjectItem;
    const labels = norm([
      item.subject,
      ...(item.synonyms ?? []),
      ...Object.values(item.title ?? {}),
    ]);
    return {
      sortKey: normaliseSearchText(item.subject),
      labels,
      words: labels,
      identifiers: [compactIdentifier(item.id)],
      facet: item.scheme,
      tags: item.tags ?? [],
    };
  },
};

export const INDEXED_KINDS: Readonly<Record<IndexedType, IndexedKind>> = {
  names,
  affiliations: organisation('affiliations'),
  funders: organisation('funders'),
  awards,
  subjects,
};
