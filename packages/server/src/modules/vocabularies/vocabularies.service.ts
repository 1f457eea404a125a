import { VocabularySearchQuery } from '@cairn/shared';
import { z } from 'zod';
import { AppError, pidDoesNotExist } from '../../errors.js';
import { zodErrorItems } from '../../lib/zod-errors.js';
import type { VocabularyItemsService } from './indexed/items.service.js';
import { isIndexedType, type IndexedItem, type IndexedType } from './indexed/kinds.js';
import { entryId, localized, props, tags, text } from './entry-schema.js';
import type { SearchParams } from '../../lib/search.js';
import { suggestParams } from './suggest-params.js';
import { parsedQuery } from '../../lib/zod-errors.js';
import type { VocabulariesRepository, VocabularyEntry } from './vocabularies.repository.js';
import { vocabularyFixtures } from './fixtures/index.js';
import { normaliseSearchText, searchTokens } from './search-text.js';

export type { VocabularyEntry } from './vocabularies.repository.js';

/** Vocabularies whose ids Cairn checks on save; the others (subjects, affiliations…) arrive with issue 5. */
export const CHECKED_TYPES = new Set([
  'resourcetypes',
  'titletypes',
  'descriptiontypes',
  'datetypes',
  'relationtypes',
  'creatorsroles',
  'contributorsroles',
  'licenses',
  'languages',
  'removalreasons',
]);

const CACHE_MS = 60_000;

/** What an admin sends to create or replace an entry of a small vocabulary. */
export const EntrySchema = z
  .object({
    id: entryId(),
    title: localized,
    description: localized.optional(),
    icon: text().optional(),
    props,
    tags,
    type: z.string().optional(),
  })
  .strict();

/** One page of a vocabulary search, with the parameters its links are built from. */
export interface VocabularyHits {
  params: SearchParams;
  entries: VocabularyEntry[];
  total: number;
}

/** Locales for the title an entry is sorted by: the reader's, then the site's default. */
export interface VocabularySearchLocale {
  locale: string;
  fallbackLocale: string;
}

/** An entry with its text normalised once per cache period, so a query is a scan of strings. */
interface IndexedEntry {
  entry: VocabularyEntry;
  /** The normalised id and every title, for exact and starts-with matches. */
  fields: string[];
  /** ` field field … ` — a word prefix is ` token`, a substring is `token`. */
  text: string;
}

interface TypeIndex {
  entries: IndexedEntry[];
  /** Entries ordered by display title, per locale, built on first use. */
  byTitle: Map<string, IndexedEntry[]>;
}

function indexEntry(entry: VocabularyEntry): IndexedEntry {
  const fields = [
    ...new Set([entry.id, ...Object.values(entry.title)].map(normaliseSearchText)),
  ].filter((f) => f !== '');
  return { entry, fields, text: ` ${fields.join(' ')} ` };
}

/** The title shown to a reader of `locale`. */
export function localizedText(
  text: Record<string, string> | undefined,
  locale: string,
  fallbackLocale: string,
): string | undefined {
  if (!text) return undefined;
  return text[locale] ?? text[fallbackLocale] ?? Object.values(text)[0];
}

const EXACT = 0;
const STARTS_WITH = 1;
const WORD_PREFIX = 2;
const CONTAINS = 3;
const NO_MATCH = -1;

/**
 * How well an entry matches: the whole query is its id or a title; a title or the id starts with
 * it; every word starts a word of the entry; every word occurs somewhere in it.
 */
function rank(ix: IndexedEntry, query: string, tokens: readonly string[]): number {
  if (ix.fields.includes(query)) return EXACT;
  let prefix = true;
  for (const token of tokens) {
    if (ix.text.includes(` ${token}`)) continue;
    if (!ix.text.includes(token)) return NO_MATCH;
    prefix = false;
  }
  if (!prefix) return CONTAINS;
  return ix.fields.some((f) => f.startsWith(query)) ? STARTS_WITH : WORD_PREFIX;
}

/**
 * Looks vocabulary entries up by id. Entries are cached briefly per type: they change only by an
 * admin's hand, and every saved draft with 2,000 creators would otherwise cost a query per role.
 */
export class VocabulariesService {
  private readonly cache = new Map<string, { at: number; byId: Map<string, VocabularyEntry> }>();
  private readonly indexes = new WeakMap<Map<string, VocabularyEntry>, TypeIndex>();
  private snapshotCache?: { at: number; lookup: Promise<VocabularyLookup> };
  /** Rises whenever the snapshot is rebuilt, so rendered bodies can name the titles they used. */
  generation = 0;

  constructor(
    private readonly repo: VocabulariesRepository,
    /** The large vocabularies, for reference checks. */
    private readonly items: Pick<VocabularyItemsService, 'existing'>,
  ) {}

  /** Loads the shipped vocabularies into an empty table (first start). */
  async loadFixtures(): Promise<number> {
    if ((await this.repo.countAll()) > 0) return 0;
    const entries = vocabularyFixtures().map((f) => ({ ...f, tags: f.tags ?? [] }));
    await this.repo.insertMany(entries);
    return entries.length;
  }

  async byId(type: string): Promise<Map<string, VocabularyEntry>> {
    const hit = this.cache.get(type);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.byId;
    const byId = new Map((await this.repo.listType(type)).map((e) => [e.id, e]));
    this.cache.set(type, { at: Date.now(), byId });
    return byId;
  }

  /**
   * A synchronous lookup over every checked vocabulary, for presenters; one shared snapshot per
   * cache period, so reading a draft costs no vocabulary work at all.
   */
  snapshot(): Promise<VocabularyLookup> {
    const hit = this.snapshotCache;
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.lookup;
    const lookup = (async () => {
      const maps = new Map<string, Map<string, VocabularyEntry>>();
      await Promise.all([...CHECKED_TYPES].map(async (t) => maps.set(t, await this.byId(t))));
      return (type: string, id: string) => maps.get(type)?.get(id);
    })();
    this.snapshotCache = { at: Date.now(), lookup };
    this.generation++;
    lookup.catch(() => {
      this.snapshotCache = undefined;
    });
    return lookup;
  }

  async get(type: string, id: string): Promise<VocabularyEntry | undefined> {
    return (await this.byId(type)).get(id);
  }

  async list(type: string): Promise<VocabularyEntry[]> {
    return [...(await this.byId(type)).values()];
  }

  /** Forgets cached entries after an admin's change, so the next read sees it. */
  private invalidate(type: string): void {
    this.cache.delete(type);
    this.snapshotCache = undefined;
  }

  private validEntry(type: string, input: unknown): VocabularyEntry {
    if (!CHECKED_TYPES.has(type)) throw pidDoesNotExist();
    const parsed = EntrySchema.safeParse(input);
    if (!parsed.success) {
      throw new AppError('VALIDATION_FAILED', undefined, zodErrorItems(parsed.error));
    }
    const { type: _ignored, ...entry } = parsed.data;
    return { ...entry, type, tags: entry.tags ?? [] };
  }

  /** An admin adds an entry; 400 when its id is taken. */
  async create(type: string, input: unknown): Promise<VocabularyEntry> {
    const entry = this.validEntry(type, input);
    if ((await this.repo.findMany(type, [entry.id])).length > 0) {
      throw new AppError(
        'PID_ALREADY_EXISTS',
        `A PID already exists for type ${type} and id ${entry.id}.`,
      );
    }
    await this.repo.put(entry);
    this.invalidate(type);
    return entry;
  }

  /** An admin replaces an entry; the path names it. */
  async update(type: string, id: string, input: unknown): Promise<VocabularyEntry> {
    if (!CHECKED_TYPES.has(type) || (await this.repo.findMany(type, [id])).length === 0) {
      throw pidDoesNotExist();
    }
    const body = input && typeof input === 'object' ? { ...input, id } : input;
    const entry = this.validEntry(type, body);
    await this.repo.put(entry);
    this.invalidate(type);
    return entry;
  }

  /** An admin deletes an entry; records that use it keep their copy of its id. */
  async delete(type: string, id: string): Promise<void> {
    if (!CHECKED_TYPES.has(type) || !(await this.repo.delete(type, id))) throw pidDoesNotExist();
    this.invalidate(type);
  }

  /** One entry of a served vocabulary; throws PID_DOES_NOT_EXIST for an unknown type or id. */
  async read(type: string, id: string): Promise<VocabularyEntry> {
    if (!CHECKED_TYPES.has(type)) throw pidDoesNotExist();
    const entry = (await this.byId(type)).get(id);
    if (!entry) throw pidDoesNotExist();
    return entry;
  }

  /**
   * InvenioRDM's vocabulary search over the cached entries: `q` or `suggest` (not both), `tags`
   * (any of), `sort`, `page`, `size`. Matching ignores case and accents; exact matches come first,
   * then prefixes, then substrings, each ordered by title. One pass over the entries; the
   * normalised text and the title order are built once per cache period. Throws PID_DOES_NOT_EXIST
   * for an unknown type and VALIDATION_FAILED / INVALID_QUERY for bad parameters.
   */
  async search(
    type: string,
    query: Record<string, unknown>,
    locales: VocabularySearchLocale,
  ): Promise<VocabularyHits> {
    if (!CHECKED_TYPES.has(type)) throw pidDoesNotExist();
    const { params, typed } = suggestParams(parsedQuery(VocabularySearchQuery, query), {
      alphabetical: 'title',
      filters: ['tags'],
    });

    const ordered = this.ordered(await this.index(type), locales);
    const tags = params.filters.tags;
    const text = normaliseSearchText(typed);
    const tokens = searchTokens(text);
    const tiers: IndexedEntry[][] = [[], [], [], []];
    for (const ix of ordered) {
      if (tags && !ix.entry.tags.some((t) => tags.includes(t))) continue;
      const tier = text === '' ? WORD_PREFIX : rank(ix, text, tokens);
      if (tier !== NO_MATCH) tiers[params.sort === 'bestmatch' ? tier : WORD_PREFIX]!.push(ix);
    }
    const matches = tiers.flat();
    const start = (params.page - 1) * params.size;
    return {
      params,
      entries: matches.slice(start, start + params.size).map((ix) => ix.entry),
      total: matches.length,
    };
  }

  private async index(type: string): Promise<TypeIndex> {
    const byId = await this.byId(type);
    let index = this.indexes.get(byId);
    if (!index) {
      index = { entries: [...byId.values()].map(indexEntry), byTitle: new Map() };
      this.indexes.set(byId, index);
    }
    return index;
  }

  private ordered(index: TypeIndex, { locale, fallbackLocale }: VocabularySearchLocale) {
    const key = `${locale}:${fallbackLocale}`;
    let ordered = index.byTitle.get(key);
    if (!ordered) {
      const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
      const title = (e: VocabularyEntry) => localizedText(e.title, locale, fallbackLocale) ?? e.id;
      ordered = index.entries
        .map((ix) => ({ ix, title: title(ix.entry) }))
        .sort(
          (a, b) => collator.compare(a.title, b.title) || (a.ix.entry.id < b.ix.entry.id ? -1 : 1),
        )
        .map(({ ix }) => ix);
      index.byTitle.set(key, ordered);
    }
    return ordered;
  }

  /**
   * Throws 400 "Invalid value <id>." for the first reference to an unknown entry, as InvenioRDM's
   * relation check does (the whole save fails; nothing is stored). The large vocabularies are
   * asked in one query per type.
   */
  /**
   * The large-vocabulary entries `refs` name, fetched in one query per type, as a synchronous
   * lookup for presenters: records store `{id}` and show the entry's name (InvenioRDM dumps
   * affiliations, subjects, funders and awards dereferenced).
   */
  async indexedLookup(refs: Iterable<{ type: string; id: string }>): Promise<IndexedLookup> {
    const wanted = new Map<IndexedType, string[]>();
    for (const ref of refs) {
      if (isIndexedType(ref.type)) wanted.set(ref.type, [...(wanted.get(ref.type) ?? []), ref.id]);
    }
    const found = new Map<string, IndexedItem>();
    for (const [type, ids] of wanted) {
      for (const [id, item] of await this.items.existing(type, ids)) {
        found.set(`${type}\n${id}`, item.data);
      }
    }
    return (type, id) => found.get(`${type}\n${id}`);
  }

  async assertExist(refs: Array<{ type: string; id: string }>): Promise<void> {
    const indexed = new Map<IndexedType, string[]>();
    for (const ref of refs) {
      if (isIndexedType(ref.type)) {
        indexed.set(ref.type, [...(indexed.get(ref.type) ?? []), ref.id]);
        continue;
      }
      if (!CHECKED_TYPES.has(ref.type)) continue;
      if (!(await this.byId(ref.type)).has(ref.id)) throw invalidValue(ref.id);
    }
    for (const [type, ids] of indexed) {
      const found = await this.items.existing(type, ids);
      const missing = ids.find((id) => !found.has(id));
      if (missing !== undefined) throw invalidValue(missing);
    }
  }
}

function invalidValue(id: string): AppError {
  return new AppError('INVALID_VOCABULARY_VALUE', `Invalid value ${id}.`);
}

/** A synchronous lookup over prefetched entries of the large vocabularies, for presenters. */
export type IndexedLookup = (type: IndexedType, id: string) => IndexedItem | undefined;

/** A synchronous lookup over the checked vocabularies, for presenters. */
export type VocabularyLookup = (type: string, id: string) => VocabularyEntry | undefined;
