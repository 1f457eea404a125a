import { collectVocabularyRefs, type RecordData } from '@cairn/shared';
import { readJson } from '../../database/schema.js';
import type { VocabularyEntry } from '../vocabularies/vocabularies.repository.js';
import type { IndexedLookup } from '../vocabularies/vocabularies.service.js';

/** An entry of the small vocabularies by type and id, as a snapshot of them answers. */
export type VocabularyOf = (type: string, id: string) => VocabularyEntry | undefined;

/**
 * A private copy of a JSON column: the presenter decorates it in place. SQLite hands out text,
 * parsed afresh here; pg hands out an object that the row still shares, so that one is cloned.
 */
export function ownedJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : structuredClone(value)) as T;
}

/** Vocabulary references gain their `title` (and licence props) on the way out, as InvenioRDM dumps them. */
export function withVocabularyTitles(
  data: RecordData,
  vocab: VocabularyOf,
  indexed: IndexedLookup = () => undefined,
): RecordData['metadata'] {
  const m = data.metadata as Record<string, unknown>;
  const title = (type: string, ref: unknown) => {
    const r = ref as { id?: string } | undefined;
    if (!r?.id) return;
    const e = vocab(type, r.id);
    if (e) (r as Record<string, unknown>).title = e.title;
  };
  const each = (key: string, fn: (item: Record<string, unknown>) => void) => {
    const list = m[key];
    if (Array.isArray(list))
      for (const item of list)
        if (item && typeof item === 'object') fn(item as Record<string, unknown>);
  };
  title('resourcetypes', m.resource_type);
  each('languages', (l) => title('languages', l));
  each('additional_titles', (t) => {
    title('titletypes', t.type);
    title('languages', t.lang);
  });
  each('additional_descriptions', (d) => {
    title('descriptiontypes', d.type);
    title('languages', d.lang);
  });
  each('dates', (d) => title('datetypes', d.type));
  const affiliationNames = (person: Record<string, unknown>) => {
    if (!Array.isArray(person.affiliations)) return;
    for (const affiliation of person.affiliations as Array<{ id?: string; name?: string }>) {
      const entry = affiliation.id ? indexed('affiliations', affiliation.id) : undefined;
      if (typeof entry?.name === 'string') affiliation.name = entry.name;
    }
  };
  each('creators', (c) => {
    title('creatorsroles', c.role);
    affiliationNames(c);
  });
  each('contributors', (c) => {
    title('contributorsroles', c.role);
    affiliationNames(c);
  });
  each('subjects', (s) => {
    const entry = typeof s.id === 'string' ? indexed('subjects', s.id) : undefined;
    if (!entry) return;
    s.subject = entry.subject;
    s.scheme = entry.scheme;
  });
  each('funding', (f) => {
    const funder = f.funder as { id?: string } | undefined;
    const funderEntry = funder?.id ? indexed('funders', funder.id) : undefined;
    if (funder && typeof funderEntry?.name === 'string') {
      (funder as Record<string, unknown>).name = funderEntry.name;
    }
    const award = f.award as { id?: string } | undefined;
    const awardEntry = award?.id ? indexed('awards', award.id) : undefined;
    if (award && awardEntry) {
      for (const key of ['title', 'number', 'acronym', 'program', 'identifiers'] as const) {
        if (awardEntry[key] !== undefined)
          (award as Record<string, unknown>)[key] = awardEntry[key];
      }
    }
  });
  each('related_identifiers', (r) => {
    title('relationtypes', r.relation_type);
    title('resourcetypes', r.resource_type);
  });
  each('rights', (r) => {
    if (typeof r.id !== 'string') return;
    const e = vocab('licenses', r.id);
    if (!e) return;
    r.title = e.title;
    if (e.description) r.description = e.description;
    if (e.icon) r.icon = e.icon;
    r.props = { url: e.props?.url ?? '', scheme: e.props?.scheme ?? 'spdx' };
  });
  return m;
}

/** What `indexedLookupFor` needs of a vocabularies service. */
export interface IndexedLookupSource {
  indexedLookup(refs: Iterable<{ type: string; id: string }>): Promise<IndexedLookup>;
}

// Only these fields refer to the large vocabularies; a record without them needs no query.
const INDEXED_FIELDS = /"(?:affiliations|subjects|funding)"/;

/**
 * The entries of the large vocabularies that the rows refer to, fetched in one query per type
 * before rendering (the presenters are synchronous); undefined when no row refers to any.
 */
export async function indexedLookupFor(
  rows: ReadonlyArray<{ data: unknown }>,
  source: IndexedLookupSource,
): Promise<IndexedLookup | undefined> {
  const refs: Array<{ type: string; id: string }> = [];
  for (const row of rows) {
    if (typeof row.data === 'string' && !INDEXED_FIELDS.test(row.data)) continue;
    refs.push(...collectVocabularyRefs(readJson<RecordData>(row.data)));
  }
  if (refs.length === 0) return undefined;
  return source.indexedLookup(refs);
}
