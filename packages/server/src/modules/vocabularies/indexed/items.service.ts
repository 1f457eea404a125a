import { SEARCH_MAX_WINDOW } from '@cairn/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../database/schema.js';
import { AppError, pidDoesNotExist } from '../../../errors.js';
import type { SearchParams } from '../../../lib/search.js';
import { suggestParams, type SuggestQuery } from '../suggest-params.js';
import { nowIso } from '../../../database/database.js';
import {
  compactIdentifier,
  identifierQuery,
  normaliseSearchText,
  searchTokens,
} from '../search-text.js';
import { MAX_LABEL_TERM, prepareItem, resolveReferences, validateItem } from './prepare.js';
import { INDEXED_KINDS, type IndexedItem, type IndexedKind, type IndexedType } from './kinds.js';
import type {
  ItemFilters,
  StoredItem,
  TermMatch,
  TermRange,
  VocabularyItemsRepository,
} from './items.repository.js';
import type { BulkImport, PreparedItem } from './items.writes.js';

type Trx = Kysely<Database>;
export type { StoredItem };

/** One page of a search, with the parameters its links are built from. */
export interface ItemHits {
  params: SearchParams;
  items: StoredItem[];
  total: number;
}

// Words beyond these add nothing to a suggestion but cost a LIKE each.
const MAX_QUERY_WORDS = 8;
// Past the last code point, so `prefix + END` bounds every term that starts with `prefix`.
const END = '\u{10FFFF}';
const FACETS_CACHE_MS = 60_000;
// Term rows a query word's range is measured up to (see planWords).
const COMMON_WORD_ROWS = 20_000;
// Term rows of the rarest word up to which a query with a common initial tests the items' text
// (see planWords): about 13 ms of seeks over 1,000,000 names.
const RARE_WORD_ROWS = 12_000;

export interface ItemsServiceOptions {
  /** Term rows a query word's range is measured up to (see planWords); tests lower it. */
  commonWordRows?: number;
  /** Term rows of the rarest word up to which its items' text is tested (see planWords). */
  rareWordRows?: number;
}

/**
 * Names, affiliations, funders, awards and subjects: searched in SQL with the same ranking as
 * the small vocabularies (exact, then starts-with, then every word a word prefix), identifiers
 * typed whole found directly, and admin writes.
 */
export class VocabularyItemsService {
  private readonly facetsCache = new Map<string, { at: number; values: Promise<string[]> }>();
  private readonly commonWordRows: number;
  private readonly rareWordRows: number;

  constructor(
    private readonly repo: VocabularyItemsRepository,
    options: ItemsServiceOptions = {},
  ) {
    this.commonWordRows = options.commonWordRows ?? COMMON_WORD_ROWS;
    this.rareWordRows = options.rareWordRows ?? RARE_WORD_ROWS;
  }

  kind(type: string): IndexedKind {
    const kind = (INDEXED_KINDS as Record<string, IndexedKind | undefined>)[type];
    if (!kind) throw pidDoesNotExist();
    return kind;
  }

  async read(type: IndexedType, id: string): Promise<StoredItem> {
    const item = await this.repo.get(type, id);
    if (!item) throw pidDoesNotExist();
    return item;
  }

  async isEmpty(type: IndexedType): Promise<boolean> {
    return (await this.repo.countBrowse(type, {}, 1)) === 0;
  }

  /** Items among `ids` that exist, by id, for reference checks. */
  async existing(
    type: IndexedType,
    ids: readonly string[],
    db?: Trx,
  ): Promise<Map<string, StoredItem>> {
    const unique = [...new Set(ids)];
    const found = new Map<string, StoredItem>();
    for (let i = 0; i < unique.length; i += 500) {
      for (const item of await this.repo.getMany(type, unique.slice(i, i + 500), db)) {
        found.set(item.id, item);
      }
    }
    return found;
  }

  /**
   * For each of `wanted`, the item its identifier names exactly (an ORCID iD, a ROR id or URL, a
   * Funder DOI), else the one whose whole label it gives, as a suggestion's first tier would find
   * them; undefined where neither names exactly one item. Metadata imports match names and
   * organisations so, a whole author list in a few queries.
   */
  async findExact(
    type: IndexedType,
    wanted: ReadonlyArray<{ identifier?: string; label?: string }>,
  ): Promise<Array<IndexedItem | undefined>> {
    const termsOf = (w: { identifier?: string; label?: string }) => {
      const identifier = w.identifier ? compactIdentifier(w.identifier) : '';
      const label = w.label ? normaliseSearchText(w.label).slice(0, MAX_LABEL_TERM) : '';
      return [identifier && `#${identifier}`, label && `=${label}`].filter(Boolean);
    };
    const terms = wanted.map(termsOf);
    const owners = new Map<string, Set<number>>();
    for (const { term, pk } of await this.repo.termOwners(type, terms.flat())) {
      owners.set(term, (owners.get(term) ?? new Set()).add(pk));
    }
    // An identifier or label two items share names neither.
    const chosen = terms.map((ts) => {
      for (const term of ts) {
        const pks = owners.get(term);
        if (pks?.size === 1) return [...pks][0];
      }
      return undefined;
    });
    const items = await this.repo.byPks(chosen.filter((pk): pk is number => pk !== undefined));
    const byPk = new Map(items.map((item) => [item.pk, item.data]));
    return chosen.map((pk) => (pk === undefined ? undefined : byPk.get(pk)));
  }

  /** Validates an admin's or an importer's item; throws VALIDATION_FAILED with every problem. */
  validate(type: IndexedType, input: unknown): IndexedItem {
    this.kind(type);
    return validateItem(type, input);
  }

  /** Creates an item; 400 when the id is taken (InvenioRDM's PIDAlreadyExists). */
  async create(type: IndexedType, input: unknown): Promise<StoredItem> {
    const item = await this.resolvedOne(type, this.validate(type, input));
    if (await this.repo.get(type, item.id)) {
      throw new AppError(
        'PID_ALREADY_EXISTS',
        `A PID already exists for type ${type} and id ${item.id}.`,
      );
    }
    await this.write(type, [item]);
    return this.read(type, item.id);
  }

  /** Replaces an item; the id in the body, if any, must be the one in the path. */
  async update(type: IndexedType, id: string, input: unknown): Promise<StoredItem> {
    await this.read(type, id);
    const body = input && typeof input === 'object' ? { ...input, id } : input;
    const item = await this.resolvedOne(type, this.validate(type, body));
    await this.write(type, [item]);
    return this.read(type, id);
  }

  async delete(type: IndexedType, id: string): Promise<void> {
    if (!(await this.repo.writes.delete(type, id))) throw pidDoesNotExist();
    this.facetsCache.delete(type);
  }

  /** Stores validated, resolved items in a transaction of their own. */
  async write(type: IndexedType, items: readonly IndexedItem[]) {
    const kind = this.kind(type);
    const prepared = items.map((item) => prepareItem(kind, item));
    this.facetsCache.delete(type);
    return this.repo.writes.transaction((t) =>
      this.repo.writes.upsert(t, type, prepared, nowIso()),
    );
  }

  /** Stores an import's prepared items in its transaction. */
  async writePrepared(
    type: IndexedType,
    items: readonly PreparedItem[],
    trx: Trx,
    bulk: BulkImport,
  ) {
    this.facetsCache.delete(type);
    return this.repo.writes.upsert(trx, type, items, nowIso(), bulk);
  }

  private async resolvedOne(type: IndexedType, item: IndexedItem): Promise<IndexedItem> {
    const [resolved] = await this.resolve(type, [item]);
    if ('problems' in resolved!)
      throw new AppError('VALIDATION_FAILED', undefined, resolved.problems);
    return resolved!.item;
  }

  /** Resolves the references of validated items (see resolveReferences). */
  resolve(type: IndexedType, items: readonly IndexedItem[], db?: Trx) {
    return resolveReferences(type, items, (refType, ids) => this.repo.names(refType, ids, db));
  }

  /** Every item's name of a vocabulary of at most `max` items (else undefined), by id. */
  allNames(type: IndexedType, max: number, db?: Trx): Promise<Map<string, string> | undefined> {
    return this.repo.allNames(type, max, db);
  }

  /** The names of the items among `ids` that exist, for an import resolving references. */
  referenceNames(
    type: IndexedType,
    ids: readonly string[],
    db?: Trx,
  ): Promise<Map<string, string>> {
    return this.repo.names(type, ids, db);
  }

  /** One transaction for a whole import (see the repository's bulkTransaction). */
  bulkTransaction<T>(
    type: IndexedType,
    work: (trx: Trx, bulk: BulkImport) => Promise<T>,
  ): Promise<T> {
    return this.repo.writes.bulkTransaction(type, work);
  }

  private facets(type: IndexedType): Promise<string[]> {
    const hit = this.facetsCache.get(type);
    if (hit && Date.now() - hit.at < FACETS_CACHE_MS) return hit.values;
    const values = this.repo.facets(type);
    this.facetsCache.set(type, { at: Date.now(), values });
    values.catch(() => this.facetsCache.delete(type));
    return values;
  }

  /**
   * InvenioRDM's search over a large vocabulary: `q` or `suggest`, `tags`, the type's facet filter,
   * `sort` (bestmatch or alphabetical), `page`, `size`. Ranked in tiers: an identifier or a whole
   * label typed exactly, then labels starting with the query, then items where every word starts a
   * word; within a tier by term, then insertion. `total` counts up to SEARCH_MAX_WINDOW matches,
   * like OpenSearch's default hit tracking.
   */
  async search(type: IndexedType, query: SuggestQuery): Promise<ItemHits> {
    const kind = this.kind(type);
    const parsed = suggestParams(query, {
      alphabetical: kind.sortName,
      filters: ['tags', ...(kind.facetParam ? [kind.facetParam] : [])],
    });
    const { params } = parsed;
    let typed = parsed.typed;
    const facet = kind.facetParam ? params.filters[kind.facetParam] : undefined;
    const filters: ItemFilters = {
      ...(facet ? { facet } : {}),
      ...(params.filters.tags ? { tags: params.filters.tags } : {}),
    };
    // Subjects: "MeSH:calc" suggests from one scheme, as InvenioRDM's subjects field does.
    if (type === 'subjects') {
      const colon = typed.indexOf(':');
      if (colon > 0) {
        const scheme = typed.slice(0, colon).trim().toLowerCase();
        const match = (await this.facets(type)).find((s) => s.toLowerCase() === scheme);
        if (match) {
          filters.facet = [match];
          typed = typed.slice(colon + 1).trim();
        }
      }
    }

    const start = (params.page - 1) * params.size;
    const text = normaliseSearchText(typed);
    const identifier = identifierQuery(typed);
    if (text === '' && identifier === undefined) {
      if (typed !== '') return { params, items: [], total: 0 };
      const [items, total] = await Promise.all([
        this.repo.browse(type, filters, params.size, start),
        this.repo.countBrowse(type, filters, SEARCH_MAX_WINDOW),
      ]);
      return { params, items, total };
    }

    const tokens = searchTokens(text).slice(0, MAX_QUERY_WORDS);
    const plan = await this.planWords(type, tokens, filters);
    const wordMatch = plan?.match;
    const wordFilters: ItemFilters = plan?.filters ?? filters;
    const need = start + params.size;

    if (params.sort !== 'bestmatch') {
      const [pks, total] = wordMatch
        ? await Promise.all([
            this.repo.sortedTermMatches(type, wordMatch, wordFilters, params.size, start),
            this.repo.countTerms(type, wordMatch, wordFilters, SEARCH_MAX_WINDOW),
          ])
        : [[], 0];
      return { params, items: await this.repo.byPks(pks), total };
    }

    const label = text !== '' ? `=${text.slice(0, MAX_LABEL_TERM)}` : undefined;
    const exactTerms = [...(label ? [label] : []), ...(identifier ? [`#${identifier}`] : [])];
    const exact = await this.distinctMatches(type, { equals: exactTerms }, filters, need);
    const startsWith = label
      ? await this.distinctMatches(type, { from: label, to: label + END }, filters, need)
      : [];
    // Several words: reading the others' ranges into sets is most of the work, which a page and
    // then a count would each do; one query takes every match up to the window instead.
    const several = (wordFilters.ranges?.length ?? 0) > 0 || (wordFilters.words?.length ?? 0) > 0;
    const words = wordMatch
      ? await this.distinctMatches(type, wordMatch, wordFilters, several ? SEARCH_MAX_WINDOW : need)
      : [];
    const ranked = [...new Set([...exact, ...startsWith, ...words])];
    const pks = ranked.slice(start, need);
    let total = Math.min(SEARCH_MAX_WINDOW, ranked.length);
    if (wordMatch && !several && words.length >= need) {
      // More word matches than this page needs: count them. Whole labels are words too; only
      // an identifier typed whole can match an item no word does.
      const identifierOnly = identifier
        ? await this.identifierOnly(type, identifier, tokens, filters)
        : 0;
      total = Math.min(
        SEARCH_MAX_WINDOW,
        (await this.repo.countTerms(type, wordMatch, wordFilters, SEARCH_MAX_WINDOW)) +
          identifierOnly,
      );
    }
    return { params, items: await this.repo.byPks(pks), total };
  }

  /**
   * How to find the items where every word of a query starts a word. Usually the term range of
   * one word is read in term order (the order of the tier) and those of the others are read once
   * into sets it is tested against, which costs several times more per row than reading in
   * order; so the most common word drives. Word lengths tell that poorly ("anna" has fewer items
   * than "mül", "jan" three times more than "eva"): the ranges are measured first, up to
   * COMMON_WORD_ROWS rows each, the shortest word driving among those that reach it.
   *
   * A one-letter word that reaches it ("anna m", typed on the way to "anna müller") would drive
   * through a range of hundreds of thousands of rows (a third of a million names start with m)
   * for what the other word's few thousand items settle: then the rarest word drives and each of
   * its items' text is tested for the other words, a seek per item in a narrow index of the
   * items' words (about 1 µs, against 0.07 µs per row read in order), when that word has at most
   * RARE_WORD_ROWS rows. Undefined without words, or when a word starts none.
   */
  private async planWords(
    type: IndexedType,
    tokens: readonly string[],
    filters: ItemFilters,
  ): Promise<{ match: TermRange; filters: ItemFilters } | undefined> {
    const rangeOf = (word: string): TermRange => ({ from: word, to: word + END });
    if (tokens.length <= 1) return tokens[0] ? { match: rangeOf(tokens[0]), filters } : undefined;
    const ranges = tokens.map(rangeOf);
    const sizes = await this.repo.rangeSizes(type, ranges, this.commonWordRows);
    if (sizes.includes(0)) return undefined;
    const words = tokens.map((word, i) => ({ word, range: ranges[i]!, rows: sizes[i]! }));
    const rarest = [...words].sort((a, b) => a.rows - b.rows)[0]!;
    const initialReachesCap = words.some(
      (w) => w.word.length === 1 && w.rows >= this.commonWordRows,
    );
    if (initialReachesCap && rarest.rows <= this.rareWordRows) {
      const others = words.filter((w) => w !== rarest).map((w) => w.word);
      return { match: rarest.range, filters: { ...filters, words: others } };
    }
    const [driving, ...sets] = words.sort(
      (a, b) => b.rows - a.rows || a.word.length - b.word.length,
    );
    return { match: driving!.range, filters: { ...filters, ranges: sets.map((w) => w.range) } };
  }

  /**
   * How many items an identifier typed whole finds that its words do not (an identifier is
   * nearly always one item's): the words tested on those items' text, as the words tier does.
   */
  private async identifierOnly(
    type: IndexedType,
    identifier: string,
    tokens: readonly string[],
    filters: ItemFilters,
  ): Promise<number> {
    const pks = await this.distinctMatches(
      type,
      { equals: [`#${identifier}`] },
      filters,
      SEARCH_MAX_WINDOW,
    );
    const texts = await this.repo.searchTexts(pks);
    return pks.filter((pk) => !tokens.every((t) => texts.get(pk)?.includes(` ${t}`))).length;
  }

  /** The first `need` distinct items a term match gives, in term order. */
  private async distinctMatches(
    type: IndexedType,
    match: TermMatch,
    filters: ItemFilters,
    need: number,
  ): Promise<number[]> {
    if ('equals' in match && match.equals.length === 0) return [];
    const seen = new Set<number>();
    let offset = 0;
    // An item appears once per matching term; a little over-fetch usually finishes in one query.
    const chunk = Math.max(need * 2, 20);
    for (;;) {
      const rows = await this.repo.matchTerms(type, match, filters, chunk, offset);
      for (const pk of rows) {
        seen.add(pk);
        if (seen.size >= need) return [...seen];
      }
      if (rows.length < chunk) return [...seen];
      offset += chunk;
    }
  }
}
