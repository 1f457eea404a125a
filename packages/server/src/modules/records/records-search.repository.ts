import type { RecordFacet, SearchQuery } from '@cairn/shared';
import type { ExpressionBuilder, Transaction } from 'kysely';
import type { Db, Engine } from '../../database/database.js';
import { sql } from '../../database/database.js';
import type { Database } from '../../database/schema.js';
import type { RecordRow } from './records.repository.js';
import { RecordQueryCompiler } from './search/compile.js';

const counted = (r: { key: string; n: number | string | bigint }) => ({
  key: r.key,
  count: Number(r.n),
});

type Executor = Db | Transaction<Database>;

export interface RecordSearch {
  /** The parsed `q`; null searches everything. */
  query: SearchQuery | null;
  sort: string;
  offset: number;
  limit: number;
  allVersions: boolean;
  /** Facet filters: several values of one facet are OR-ed, different facets AND-ed. */
  filters: Partial<Record<RecordFacet, string[]>>;
  /**
   * undefined = no restriction (admin); otherwise public records plus those this user owns or may
   * view as a member of one of the record's communities (InvenioRDM's `can_view`).
   */
  viewerId: number | null | undefined;
  /** Only records in this community (`GET /api/communities/{id}/records`). */
  communityId?: string;
}

/** Facet value → number of records, for each facet a records search counts. */
export type FacetCounts = Record<
  RecordFacet | 'resource_subtype',
  Array<{ key: string; count: number; label?: string }>
>;

/**
 * The search queries over published records, in each engine's full-text index; the rows they
 * find are read through RecordsRepository.
 */
export class RecordsSearchRepository {
  private readonly compiler: RecordQueryCompiler;

  constructor(
    private readonly db: Db,
    readonly engine: Engine,
  ) {
    this.compiler = new RecordQueryCompiler(engine);
  }

  private get x(): Executor {
    return this.db;
  }

  /**
   * The records a search finds, one page of them in its order, and its facets. As InvenioRDM
   * counts them, the facets are counted over what the query finds before the facet filters are
   * applied (its post-filter), so ticking a value does not make the others disappear.
   */
  async searchRecords(
    s: RecordSearch,
  ): Promise<{ rows: RecordRow[]; total: number; facets: FacetCounts }> {
    const compiled = s.query === null ? undefined : this.compiler.compile(s.query);
    let base = this.x.selectFrom('records').where('records.deletedAt', 'is', null);
    if (!s.allVersions) {
      // With words to find, SQLite must start from the full-text matches: offered the
      // latest-versions index it walks every latest record instead. A unary + on the column keeps
      // that index out of its choice; without words the index is the right start.
      base = base.where(
        this.engine === 'sqlite' && compiled?.rank !== undefined
          ? sql<boolean>`+records.is_latest = 1`
          : sql<boolean>`records.is_latest = 1`,
      );
    }
    if (s.communityId !== undefined)
      base = base.where('records.parentId', 'in', this.parentsIn(s.communityId));
    if (s.viewerId !== undefined) {
      const viewer = s.viewerId;
      base = base.where((eb) =>
        viewer === null
          ? eb('records.accessRecord', '=', 'public')
          : eb.or([
              eb('records.accessRecord', '=', 'public'),
              eb('records.parentId', 'in', this.parentsViewableBy(viewer)),
            ]),
      );
    }
    if (compiled) base = base.where(compiled.where);
    let hits = base;
    for (const [facet, values] of Object.entries(s.filters) as Array<[RecordFacet, string[]]>) {
      if (values.length > 0) hits = hits.where(this.facetFilter(facet, values));
    }

    let ordered = hits.selectAll('records');
    if (s.sort === 'bestmatch' && compiled?.phrase !== undefined)
      ordered = ordered.orderBy(this.compiler.matches(compiled.phrase), 'desc');
    if (s.sort === 'bestmatch' && compiled?.rank !== undefined) {
      if (this.engine === 'sqlite') {
        // Scored once for every match in one pass over the index, then joined by rowid: a score
        // looked up row by row reads the word's whole entry in the index for each row.
        ordered = ordered
          .leftJoin(
            sql<{
              rid: number;
              score: number;
            }>`(select rowid as rid, bm25(records_search, 10.0, 2.0, 4.0, 1.0) as score from records_search where records_search match ${compiled.rank})`.as(
              'ranked',
            ),
            (join) => join.on(sql<boolean>`ranked.rid = records.rowid`),
          )
          // A record found by a filter rather than a word (an OR with a field) has no score: last.
          .orderBy(sql`coalesce(ranked.score, 0)`, 'asc');
      } else {
        // Title over description over people over the rest (weights D, C, B, A).
        ordered = ordered.orderBy(
          sql`ts_rank('{0.1, 0.2, 0.4, 1.0}', records.search_vector, to_tsquery('english', ${compiled.rank}))`,
          'desc',
        );
      }
    }
    switch (s.sort) {
      case 'oldest':
        ordered = ordered.orderBy('records.publishedAt', 'asc');
        break;
      case 'version':
        ordered = ordered.orderBy('records.versionIndex', 'desc');
        break;
      default:
        // Newest first, also to break ties of best match.
        ordered = ordered.orderBy('records.publishedAt', 'desc');
    }
    const baseIds = base.select('records.id');
    const [rows, count, terms, access, years, communities] = await Promise.all([
      ordered.orderBy('records.id').offset(s.offset).limit(s.limit).execute(),
      hits.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      this.x
        .selectFrom('recordTerms')
        .select(['facet', 'value as key', (eb) => eb.fn.countAll<number>().as('n')])
        .where('recordId', 'in', baseIds)
        .groupBy(['facet', 'value'])
        .execute(),
      base
        .select(['records.accessStatus as key', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('records.accessStatus')
        .execute(),
      base
        .select([
          sql<string>`substr(records.publication_date, 1, 4)`.as('key'),
          (eb) => eb.fn.countAll<number>().as('n'),
        ])
        .groupBy(sql`substr(records.publication_date, 1, 4)`)
        .execute(),
      base
        .innerJoin('recordCommunities as rc', 'rc.parentId', 'records.parentId')
        .innerJoin('communities as c', 'c.id', 'rc.communityId')
        .select([
          'rc.communityId as key',
          'c.title as label',
          (eb) => eb.fn.countAll<number>().as('n'),
        ])
        .groupBy(['rc.communityId', 'c.title'])
        .execute(),
    ]);
    const facets: FacetCounts = {
      resource_type: [],
      resource_subtype: [],
      access_status: access.map(counted),
      file_type: [],
      language: [],
      subject: [],
      community: communities.map((c) => ({ ...counted(c), label: c.label })),
      publication_date: years.filter((y) => /^\d{4}$/.test(y.key)).map(counted),
    };
    for (const t of terms) facets[t.facet as keyof FacetCounts]?.push(counted(t));
    return { rows, total: Number(count.n), facets };
  }

  /** Records with any of `values` of one facet; a resource type takes its subtypes in. */
  private facetFilter(facet: RecordFacet, values: string[]) {
    return (eb: ExpressionBuilder<Database, 'records'>) => {
      switch (facet) {
        case 'access_status':
          return eb('records.accessStatus', 'in', values);
        case 'publication_date':
          return eb(sql<string>`substr(records.publication_date, 1, 4)`, 'in', values);
        case 'community':
          return eb(
            'records.parentId',
            'in',
            this.x
              .selectFrom('recordCommunities')
              .select('recordCommunities.parentId')
              .where('recordCommunities.communityId', 'in', values),
          );
        default: {
          const facets = facet === 'resource_type' ? [facet, 'resource_subtype'] : [facet];
          return eb(
            'records.id',
            'in',
            this.x
              .selectFrom('recordTerms')
              .select('recordTerms.recordId')
              .where('recordTerms.facet', 'in', facets)
              .where('recordTerms.value', 'in', values),
          );
        }
      }
    };
  }

  /** Parents in one community. */
  private parentsIn(communityId: string) {
    return this.x
      .selectFrom('recordCommunities')
      .select('recordCommunities.parentId')
      .where('recordCommunities.communityId', '=', communityId);
  }

  /**
   * Parents whose restricted records `userId` may still view: its own, and those in a community
   * it is a member of (any role). Uncorrelated, so each side is evaluated once per query.
   */
  private parentsViewableBy(userId: number) {
    return this.x
      .selectFrom('parents')
      .select('parents.id')
      .where('parents.ownerId', '=', userId)
      .union(
        this.x
          .selectFrom('recordCommunities as rc')
          .select('rc.parentId as id')
          .where(
            'rc.communityId',
            'in',
            this.x
              .selectFrom('communityMembers as m')
              .select('m.communityId')
              .where('m.userId', '=', userId),
          ),
      );
  }
}
