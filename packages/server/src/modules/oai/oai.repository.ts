import type { Db } from '../../database/database.js';
import { sql } from '../../database/database.js';
import { readJson } from '../../database/schema.js';
import { RECORD_COLUMNS, type ParentRow, type RecordRow } from '../records/records.rows.js';

/**
 * The columns a harvested record is rendered from. The search text, the longest column (every
 * word of the record), is not one of them: it is left empty rather than read and sent.
 */
const HARVESTED_COLUMNS = RECORD_COLUMNS.filter((c) => c !== 'searchText').map(
  (c) => `r.${c}` as const,
);
const NO_SEARCH_TEXT = sql<string>`''`.as('searchText');

/** Which published records a list request selects: a set's community, and the change window. */
export interface HarvestFilter {
  communityId?: string;
  /** Inclusive lower bound on the last change (ISO, milliseconds). */
  from?: string;
  /** Exclusive upper bound on the last change (ISO, milliseconds). */
  before?: string;
}

/** Where a page of a list starts: after this record in (last change, id) order. */
export interface HarvestPosition {
  updatedAt: string;
  id: string;
}

export interface HarvestedRecord {
  row: RecordRow;
  parent: ParentRow;
  /** Slugs of the public communities the record is in: its OAI sets. */
  sets: string[];
}

export interface HarvestSet {
  slug: string;
  title: string;
  description: string;
}

/**
 * The reads of the OAI-PMH endpoint. Every list is keyset-paged on (last change, id), which one
 * index serves, so a harvester's page 1,000 costs what page 1 does and no server keeps a cursor:
 * the position travels in the resumption token. Reads go to the read replica when there is one,
 * as the search's do: a harvest may lag the primary by the replica's delay, and catches up at the
 * next incremental harvest.
 */
export class OaiRepository {
  constructor(private readonly db: Db) {}

  /** The first change of any record, deleted or not; none in an empty repository. */
  async earliestChange(): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('records')
      .select((eb) => eb.fn.min('updatedAt').as('first'))
      .executeTakeFirst();
    return row?.first ?? undefined;
  }

  /** The public community whose set this is, if any. */
  async communityOfSet(slug: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('communities')
      .select('id')
      .where('slug', '=', slug)
      .where('visibility', '=', 'public')
      .where('deletedAt', 'is', null)
      .executeTakeFirst();
    return row?.id;
  }

  private filtered(filter: HarvestFilter) {
    let q = this.db.selectFrom('records as r');
    if (filter.communityId !== undefined)
      q = q.where('r.parentId', 'in', (eb) =>
        eb
          .selectFrom('recordCommunities')
          .select('parentId')
          .where('communityId', '=', filter.communityId!),
      );
    if (filter.from !== undefined) q = q.where('r.updatedAt', '>=', filter.from);
    if (filter.before !== undefined) q = q.where('r.updatedAt', '<', filter.before);
    return q;
  }

  /** How many records the whole list holds (its `completeListSize`). */
  async count(filter: HarvestFilter): Promise<number> {
    const row = await this.filtered(filter)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Up to `limit` records after `after`, in the list's order, with their parents and sets. */
  async page(
    filter: HarvestFilter,
    after: HarvestPosition | undefined,
    limit: number,
  ): Promise<HarvestedRecord[]> {
    let q = this.filtered(filter).select([...HARVESTED_COLUMNS, NO_SEARCH_TEXT]);
    if (after !== undefined)
      q = q.where(sql<boolean>`(r.updated_at, r.id) > (${after.updatedAt}, ${after.id})`);
    const rows = await q.orderBy('r.updatedAt').orderBy('r.id').limit(limit).execute();
    return this.withParents(rows);
  }

  async record(id: string): Promise<HarvestedRecord | undefined> {
    const rows = await this.db
      .selectFrom('records as r')
      .select([...HARVESTED_COLUMNS, NO_SEARCH_TEXT])
      .where('r.id', '=', id)
      .execute();
    return (await this.withParents(rows))[0];
  }

  private async withParents(rows: RecordRow[]): Promise<HarvestedRecord[]> {
    if (rows.length === 0) return [];
    const parentIds = [...new Set(rows.map((r) => r.parentId))];
    const [parents, memberships] = await Promise.all([
      this.db.selectFrom('parents').selectAll().where('id', 'in', parentIds).execute(),
      this.db
        .selectFrom('recordCommunities as rc')
        .innerJoin('communities as c', 'c.id', 'rc.communityId')
        .select(['rc.parentId', 'c.slug'])
        .where('rc.parentId', 'in', parentIds)
        .where('c.visibility', '=', 'public')
        .where('c.deletedAt', 'is', null)
        .orderBy('c.slug')
        .execute(),
    ]);
    const parentById = new Map(parents.map((p) => [p.id, p]));
    const sets = new Map<string, string[]>();
    for (const m of memberships) {
      const list = sets.get(m.parentId) ?? [];
      list.push(m.slug);
      sets.set(m.parentId, list);
    }
    return rows.map((row) => ({
      row,
      parent: parentById.get(row.parentId)!,
      sets: sets.get(row.parentId) ?? [],
    }));
  }

  /** How many sets there are: public communities. */
  async countSets(): Promise<number> {
    const row = await this.db
      .selectFrom('communities')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('visibility', '=', 'public')
      .where('deletedAt', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Up to `limit` sets after the slug `after`, by slug. */
  async sets(after: string | undefined, limit: number): Promise<HarvestSet[]> {
    let q = this.db
      .selectFrom('communities')
      .select(['slug', 'title', 'data'])
      .where('visibility', '=', 'public')
      .where('deletedAt', 'is', null);
    if (after !== undefined) q = q.where('slug', '>', after);
    const rows = await q.orderBy('slug').limit(limit).execute();
    return rows.map((r) => {
      const data = readJson<{ metadata?: { description?: unknown } }>(r.data);
      const description = data.metadata?.description;
      return {
        slug: r.slug,
        title: r.title,
        description: typeof description === 'string' ? description : '',
      };
    });
  }
}
