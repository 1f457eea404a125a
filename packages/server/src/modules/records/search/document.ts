import { readJson } from '../../../database/schema.js';
import { computeAccessStatus, type Access } from '@cairn/shared';
import { fileTypesOf, readSummary } from '../../files/files.summary.js';
import { RenderCache } from '../../../lib/render-cache.js';

/**
 * What the records search keeps of a published record, computed from its JSON whenever the record
 * is written (in the same transaction, so a search sees a publish or an edit at once):
 *
 * - four weighted texts for the full-text index: the title (with additional titles) weighs most,
 *   then the description, then the people, then the rest (subjects, keywords, publisher, version,
 *   identifiers);
 * - the terms the facets count and filter on, each a (facet, value) row of `record_terms`.
 *
 * The texts are folded the same way on both engines before they are indexed (and so are the words
 * of a query): accents dropped, split into runs of letters and digits. PostgreSQL's text search
 * has no accent folding without the `unaccent` extension, and its parser reads "10.5281/zenodo"
 * as a path where SQLite's reads three words; folding first makes the two engines find the same
 * records.
 */
export interface SearchDocument {
  title: string;
  creators: string;
  description: string;
  rest: string;
  terms: Array<{ facet: TermFacet; value: string }>;
}

/** Facets kept as rows of `record_terms`; access status, year and community have columns. */
export type TermFacet = 'resource_type' | 'resource_subtype' | 'file_type' | 'language' | 'subject';

/** How much text of one record is indexed: a description can be megabytes of HTML. */
const MAX_FIELD_CHARS = 100_000;

const COMBINING_MARKS = /\p{M}+/gu;
const NOT_WORD = /[^\p{L}\p{N}]+/u;

/** The words of `text` as the index keeps them: NFKC, accents dropped, runs of letters/digits. */
export function searchWordsOf(text: string): string[] {
  return text
    .normalize('NFKC')
    .normalize('NFD')
    .replace(COMBINING_MARKS, '')
    .normalize('NFC')
    .split(NOT_WORD)
    .filter((w) => w.length > 0);
}

/**
 * The latest foldings, by the text folded (the result depends on nothing else). Folding is most
 * of what a save spends on its search entries (three normalisations of every creator's name and
 * affiliation: 20 ms a save with 2,000 creators), and a save folds the draft's texts twice, as
 * they were and as they are, to write only what changed; most of them are texts the draft's
 * previous save folded. Small (2 MB of folded text, as much again of keys: the texts of a few
 * large drafts being edited at once), and per process, as nothing in it can be stale.
 */
const FOLDED = new RenderCache(2 * 2 ** 20);

function folded(parts: unknown[]): string {
  const text = parts
    .filter((p): p is string => typeof p === 'string' && p.length > 0)
    .join(' ')
    .slice(0, MAX_FIELD_CHARS);
  const known = FOLDED.get(text);
  if (known !== undefined) return known;
  const words = searchWordsOf(text).join(' ');
  FOLDED.set(text, words);
  return words;
}

const list = (v: unknown): Array<Record<string, unknown>> =>
  Array.isArray(v)
    ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object')
    : [];

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

function people(entries: Array<Record<string, unknown>>): unknown[] {
  return entries.flatMap((c) => {
    const p = (c.person_or_org ?? {}) as Record<string, unknown>;
    return [
      p.name,
      p.given_name,
      p.family_name,
      ...list(c.affiliations).map((a) => a.name),
      ...list(p.identifiers).map((i) => i.identifier),
    ];
  });
}

/** The search document of a record's JSON and files summary (see the top of this file). */
export function searchDocument(row: {
  id: string;
  data: unknown;
  filesSummary: unknown;
}): SearchDocument {
  const data = readJson<{ metadata?: Record<string, unknown>; pids?: Record<string, unknown> }>(
    row.data,
  );
  const m = data.metadata ?? {};
  const terms: SearchDocument['terms'] = [];
  const add = (facet: TermFacet, value: string | undefined) => {
    if (value && !terms.some((t) => t.facet === facet && t.value === value))
      terms.push({ facet, value });
  };

  const type = str((m.resource_type as { id?: unknown } | undefined)?.id);
  if (type) {
    // InvenioRDM's subtypes are "<type>-<subtype>" (publication-article): the facet shows the
    // type with its subtypes inside, and filtering on a type finds its subtypes too.
    const top = type.split('-')[0];
    add('resource_type', top);
    if (top !== type) add('resource_subtype', type);
  }
  for (const l of list(m.languages)) add('language', str(l.id));
  for (const s of list(m.subjects)) add('subject', str(s.subject) ?? str(s.id));
  for (const type of fileTypesOf(readSummary(row.filesSummary))) add('file_type', type);

  const pids = Object.values(data.pids ?? {}).map(
    (p) => (p as { identifier?: unknown }).identifier,
  );
  return {
    title: folded([m.title, ...list(m.additional_titles).map((t) => t.title)]),
    creators: folded(people([...list(m.creators), ...list(m.contributors)])),
    description: folded([
      str(m.description)?.replace(/<[^>]*>/g, ' '),
      ...list(m.additional_descriptions).map((d) => str(d.description)?.replace(/<[^>]*>/g, ' ')),
    ]),
    rest: folded([
      row.id,
      ...list(m.subjects).map((s) => s.subject),
      m.publisher,
      m.version,
      ...list(m.identifiers).map((i) => i.identifier),
      ...list(m.funding).map((f) => (f.funder as { name?: unknown } | undefined)?.name),
      ...pids,
    ]),
    terms,
  };
}

/**
 * Facets only a draft's terms hold: a published record keeps its access status and publication
 * date as columns of its row, which a draft has not.
 */
export type DraftTermFacet = TermFacet | 'access_status' | 'publication_date';

/**
 * The search document of a draft: a record's, and the access status and publication date as
 * terms, so the same field queries find drafts. A draft may still lack both; it then holds none.
 */
export function draftSearchDocument(row: {
  id: string;
  data: unknown;
  filesSummary: unknown;
}): Omit<SearchDocument, 'terms'> & { terms: Array<{ facet: DraftTermFacet; value: string }> } {
  const doc = searchDocument(row);
  const data = readJson<{
    metadata?: { publication_date?: unknown };
    access?: Partial<Access>;
    files?: { enabled?: unknown };
  }>(row.data);
  const terms: Array<{ facet: DraftTermFacet; value: string }> = [...doc.terms];
  const date = str(data.metadata?.publication_date);
  if (date) terms.push({ facet: 'publication_date', value: date });
  const access = data.access;
  if (access?.record && access.files) {
    const status = computeAccessStatus(
      { ...access, embargo: access.embargo ?? { active: false } } as Access,
      data.files?.enabled !== false,
    );
    terms.push({ facet: 'access_status', value: status });
  }
  return { ...doc, terms };
}
