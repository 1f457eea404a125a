import type { SearchFields, SearchQuery } from '@cairn/shared';
import { sql, type RawBuilder } from 'kysely';
import type { Engine } from '../../../database/database.js';
import { searchWordsOf, type DraftTermFacet, type TermFacet } from './document.js';
import { RECORDS_INDEX, type SearchTable } from './index-writer.js';

/**
 * Compiles a parsed query (`parseSearchQuery`) into a condition on `records` for one engine (or on
 * `drafts`, whose index has the same shape: see `SearchTable`). Each
 * leaf of the tree becomes one indexed predicate and the tree's AND / OR / NOT become SQL's, so a
 * query mixing text, facets and dates is one WHERE clause. Values always travel as bound
 * parameters; the only text put together here is each engine's full-text expression, built from
 * words that hold letters and digits only (`searchWordsOf`), inside a parameter too.
 *
 * Text leaves search the full-text index: SQLite's FTS5 table `records_search`, whose rowid is the
 * record's, and PostgreSQL's weighted `records.search_vector`. A field names one part of it
 * (`{title}` in FTS5, the weight letter in a tsquery). The text leaves that are not negated also
 * make the relevance query (`rank`).
 */

type TextColumn = 'title' | 'creators' | 'description' | 'rest';

type Target =
  | { kind: 'text'; column: TextColumn }
  | { kind: 'terms'; facets: TermFacet[] }
  | { kind: 'column'; column: 'id' | 'access_status' }
  | { kind: 'community' }
  | { kind: 'doi' }
  | { kind: 'date'; column: 'publication_date' | 'created_at' };

/**
 * Where each table keeps what a 'column' or 'date' field searches: a column of its own, or (for
 * what a draft has no column for) a facet of its terms.
 */
const COLUMNS: Record<
  SearchTable['table'],
  Record<
    'id' | 'access_status' | 'publication_date' | 'created_at',
    string | { facet: DraftTermFacet }
  >
> = {
  records: {
    id: 'records.id',
    access_status: 'records.access_status',
    publication_date: 'records.publication_date',
    created_at: 'records.created_at',
  },
  drafts: {
    id: 'drafts.id',
    access_status: { facet: 'access_status' },
    publication_date: { facet: 'publication_date' },
    created_at: 'drafts.created_at',
  },
};

/** The fields a records query may name (InvenioRDM's JSON paths), and what each searches. */
const TARGETS: Record<string, Target> = {
  id: { kind: 'column', column: 'id' },
  created: { kind: 'date', column: 'created_at' },
  'metadata.title': { kind: 'text', column: 'title' },
  'metadata.additional_titles.title': { kind: 'text', column: 'title' },
  'metadata.description': { kind: 'text', column: 'description' },
  'metadata.additional_descriptions.description': { kind: 'text', column: 'description' },
  'metadata.creators.person_or_org.name': { kind: 'text', column: 'creators' },
  'metadata.creators.person_or_org.family_name': { kind: 'text', column: 'creators' },
  'metadata.creators.person_or_org.given_name': { kind: 'text', column: 'creators' },
  'metadata.creators.person_or_org.identifiers.identifier': { kind: 'text', column: 'creators' },
  'metadata.creators.affiliations.name': { kind: 'text', column: 'creators' },
  'metadata.contributors.person_or_org.name': { kind: 'text', column: 'creators' },
  'metadata.publisher': { kind: 'text', column: 'rest' },
  'metadata.version': { kind: 'text', column: 'rest' },
  'metadata.identifiers.identifier': { kind: 'text', column: 'rest' },
  'metadata.funding.funder.name': { kind: 'text', column: 'rest' },
  'metadata.subjects.subject': { kind: 'terms', facets: ['subject'] },
  'metadata.resource_type.id': { kind: 'terms', facets: ['resource_type', 'resource_subtype'] },
  'metadata.languages.id': { kind: 'terms', facets: ['language'] },
  'metadata.publication_date': { kind: 'date', column: 'publication_date' },
  'files.entries.ext': { kind: 'terms', facets: ['file_type'] },
  'access.status': { kind: 'column', column: 'access_status' },
  'parent.communities.ids': { kind: 'community' },
  'parent.communities.entries.id': { kind: 'community' },
  'pids.doi.identifier': { kind: 'doi' },
};

/** The fields the parser accepts for a records query, with the kind each holds. */
export const RECORD_SEARCH_FIELDS: SearchFields = Object.fromEntries(
  Object.entries(TARGETS).map(([path, target]) => [
    path,
    target.kind === 'text' ? 'text' : target.kind === 'date' ? 'date' : 'keyword',
  ]),
);

/** SQLite FTS5 column order of `records_search`, and each column's weight in bm25 and tsquery. */
export const TEXT_COLUMNS: readonly TextColumn[] = ['title', 'creators', 'description', 'rest'];
const PG_WEIGHT: Record<TextColumn, string> = {
  title: 'A',
  description: 'B',
  creators: 'C',
  rest: 'D',
};

/** The parts of PostgreSQL's vector with a GIN index of their own, as `ts_filter` names them. */
const PG_PART_INDEXED: Partial<Record<TextColumn, string>> = { title: '{a}', creators: '{c}' };

type Text = Extract<SearchQuery, { kind: 'term' | 'phrase' }>;

export interface CompiledQuery {
  where: RawBuilder<boolean>;
  /**
   * The engine's full-text expression whose score orders by best match: every text leaf that is
   * not negated, OR-ed. Undefined when nothing positive is text.
   */
  rank: string | undefined;
  /**
   * For a query of two or more plain words, the same words as a phrase: records that hold them
   * in a row rank first.
   */
  phrase: string | undefined;
}

const FALSE = sql<boolean>`1 = 0`;

/** A character past every one a date holds, so `x < '2021~'` takes every date in 2021. */
const AFTER_DATE = '~';

export class RecordQueryCompiler {
  constructor(
    private readonly engine: Engine,
    private readonly index: SearchTable = RECORDS_INDEX,
  ) {}

  /** The searched table's column, e.g. `records.parent_id`. */
  private column(name: string): RawBuilder<unknown> {
    return sql.ref(`${this.index.table}.${name}`);
  }

  compile(query: SearchQuery): CompiledQuery {
    const positive: Text[] = [];
    const where = this.node(query, false, positive);
    const plain =
      query.kind === 'and' &&
      query.children.every((c) => c.kind === 'term' && c.field === undefined && !c.prefix);
    return {
      where,
      rank: positive.length > 0 ? this.textExpression(positive, 'or') : undefined,
      phrase: plain
        ? this.textLeaf({
            kind: 'phrase',
            text: query.children.map((c) => (c as Text).text).join(' '),
          })
        : undefined,
    };
  }

  private node(q: SearchQuery, negated: boolean, positive: Text[]): RawBuilder<boolean> {
    switch (q.kind) {
      case 'and':
      case 'or': {
        const parts = q.children.map((c) => this.node(c, negated, positive));
        return sql<boolean>`(${sql.join(parts, sql.raw(q.kind === 'and' ? ' and ' : ' or '))})`;
      }
      case 'not':
        return sql<boolean>`not ${this.node(q.child, !negated, positive)}`;
      case 'range':
        return this.range(q);
      case 'term':
      case 'phrase': {
        const target = q.field === undefined ? undefined : TARGETS[q.field];
        if (target === undefined || target.kind === 'text') {
          const expression = this.textExpression([q], 'or');
          if (expression === undefined) return FALSE;
          if (!negated) positive.push(q);
          return this.matches(expression, target?.column);
        }
        return this.keyword(target, q);
      }
    }
  }

  /**
   * The rows whose full-text index matches `expression` (FTS5 or tsquery text). On PostgreSQL a
   * query of a record's title or people alone goes to that part's own index (migration 0018): the
   * whole vector's index would find the word in every part and leave the weight to a recheck.
   * Drafts, each person's few, have no such indexes.
   */
  matches(expression: string, column?: TextColumn): RawBuilder<boolean> {
    const fts = sql.table(this.index.fts);
    if (this.engine === 'sqlite')
      return sql<boolean>`${this.column('rowid')} in (select rowid from ${fts} where ${fts} match ${expression})`;
    const part =
      column === undefined || this.index.table !== 'records' ? undefined : PG_PART_INDEXED[column];
    const vector =
      part === undefined
        ? this.column('search_vector')
        : sql`ts_filter(${this.column('search_vector')}, ${sql.lit(part)})`;
    return sql<boolean>`${vector} @@ to_tsquery('english', ${expression})`;
  }

  /**
   * One engine's full-text expression for some terms and phrases joined by `op`; undefined when
   * none of them holds a word (a term of punctuation only matches nothing).
   */
  private textExpression(texts: Text[], op: 'or' | 'and'): string | undefined {
    const parts = texts.map((t) => this.textLeaf(t)).filter((p): p is string => p !== undefined);
    if (parts.length === 0) return undefined;
    if (this.engine === 'sqlite') return parts.join(op === 'or' ? ' OR ' : ' AND ');
    return parts.join(op === 'or' ? ' | ' : ' & ');
  }

  private textLeaf(t: Text): string | undefined {
    const words = searchWordsOf(t.text);
    if (words.length === 0) return undefined;
    const target = t.field === undefined ? undefined : TARGETS[t.field];
    const column = target?.kind === 'text' ? target.column : undefined;
    const prefix = t.kind === 'term' && t.prefix === true;
    if (this.engine === 'sqlite') {
      // A term of several words ("10.5281/zenodo") is found as those words in a row, as a
      // search engine's analyser splits it.
      const phrase = `"${words.join(' ')}"${prefix ? ' *' : ''}`;
      return column === undefined ? phrase : `{${column}} : ${phrase}`;
    }
    const weight = column === undefined ? '' : PG_WEIGHT[column];
    const lexemes = words.map(
      (w, i) => `'${w}'${prefix && i === words.length - 1 ? ':*' : weight ? ':' : ''}${weight}`,
    );
    return lexemes.length === 1 ? lexemes[0]! : `(${lexemes.join(' <-> ')})`;
  }

  private keyword(target: Exclude<Target, { kind: 'text' }>, q: Text): RawBuilder<boolean> {
    const value = q.text;
    const prefix = q.kind === 'term' && q.prefix === true;
    const equals = (column: RawBuilder<unknown>) =>
      prefix
        ? sql<boolean>`(${column} >= ${value} and ${column} < ${`${value}\u{10FFFF}`})`
        : sql<boolean>`${column} = ${value}`;
    switch (target.kind) {
      case 'terms':
        return this.inTerms(target.facets, equals(sql.ref('value')));
      case 'column': {
        const column = COLUMNS[this.index.table][target.column];
        return typeof column === 'string'
          ? equals(sql.ref(column))
          : this.inTerms([column.facet], equals(sql.ref('value')));
      }
      case 'community':
        return sql<boolean>`${this.column('parent_id')} in (select parent_id from record_communities where ${equals(
          sql.ref('community_id'),
        )})`;
      case 'doi':
        return sql<boolean>`${this.column('id')} in (select record_id from pids where scheme = 'doi' and identifier = ${value.toLowerCase()})`;
      case 'date':
        // A date is matched on its written prefix: 2021 takes every date in 2021.
        return this.dates(target.column, value, true, value, true);
    }
  }

  /** The rows with a term of one of `facets` whose value meets `condition`. */
  private inTerms(facets: readonly string[], condition: RawBuilder<boolean>): RawBuilder<boolean> {
    return sql<boolean>`${this.column('id')} in (select ${sql.ref(this.index.termsKey)} from ${sql.table(
      this.index.terms,
    )} where facet in (${sql.join(facets)}) and ${condition})`;
  }

  private range(q: Extract<SearchQuery, { kind: 'range' }>): RawBuilder<boolean> {
    const target = TARGETS[q.field];
    if (target?.kind !== 'date') return FALSE;
    return this.dates(target.column, q.from, q.inclusiveFrom, q.to, q.inclusiveTo);
  }

  /** `dateBetween` on the table's column, or on the values of its terms of that facet. */
  private dates(
    name: 'publication_date' | 'created_at',
    from: string | undefined,
    inclusiveFrom: boolean,
    to: string | undefined,
    inclusiveTo: boolean,
  ): RawBuilder<boolean> {
    const column = COLUMNS[this.index.table][name];
    return typeof column === 'string'
      ? this.dateBetween(column, from, inclusiveFrom, to, inclusiveTo)
      : this.inTerms(
          [column.facet],
          this.dateBetween('value', from, inclusiveFrom, to, inclusiveTo),
        );
  }

  /**
   * Dates are compared as text (ISO 8601 sorts as it reads). A partial bound covers its whole
   * period: `[2019 TO 2021]` ends with the last day of 2021, `{2019 TO` starts after 2019.
   */
  private dateBetween(
    column: string,
    from: string | undefined,
    inclusiveFrom: boolean,
    to: string | undefined,
    inclusiveTo: boolean,
  ): RawBuilder<boolean> {
    const parts: RawBuilder<boolean>[] = [];
    const c = sql.ref(column);
    if (from !== undefined)
      parts.push(
        inclusiveFrom ? sql<boolean>`${c} >= ${from}` : sql<boolean>`${c} >= ${from + AFTER_DATE}`,
      );
    if (to !== undefined)
      parts.push(
        inclusiveTo ? sql<boolean>`${c} < ${to + AFTER_DATE}` : sql<boolean>`${c} < ${to}`,
      );
    if (parts.length === 0) return sql<boolean>`${c} <> ''`;
    return sql<boolean>`(${sql.join(parts, sql.raw(' and '))})`;
  }
}
