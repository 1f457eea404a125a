import type { Db } from '../../database/database.js';
import { readJson } from '../../database/schema.js';

export interface VocabularyEntry {
  type: string;
  id: string;
  title: Record<string, string>;
  description?: Record<string, string>;
  icon?: string;
  props?: Record<string, string>;
  tags: string[];
}

type Row = {
  type: string;
  id: string;
  title: unknown;
  description: unknown;
  icon: string | null;
  props: unknown;
  tags: string;
};

function toEntry(row: Row): VocabularyEntry {
  return {
    type: row.type,
    id: row.id,
    title: readJson<Record<string, string>>(row.title),
    ...(row.description ? { description: readJson<Record<string, string>>(row.description) } : {}),
    ...(row.icon ? { icon: row.icon } : {}),
    ...(row.props ? { props: readJson<Record<string, string>>(row.props) } : {}),
    tags: row.tags ? row.tags.split(' ') : [],
  };
}

/** Kysely queries for vocabulary entries (resource types, licenses, languages, …). */
export class VocabulariesRepository {
  constructor(private readonly db: Db) {}

  async countAll(): Promise<number> {
    const row = await this.db
      .selectFrom('vocabularies')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insertMany(entries: VocabularyEntry[]): Promise<void> {
    const BATCH = 500;
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < entries.length; i += BATCH) {
        await trx
          .insertInto('vocabularies')
          .values(
            entries.slice(i, i + BATCH).map((e) => ({
              type: e.type,
              id: e.id,
              title: JSON.stringify(e.title),
              description: e.description ? JSON.stringify(e.description) : null,
              icon: e.icon ?? null,
              props: e.props ? JSON.stringify(e.props) : null,
              tags: e.tags.join(' '),
            })),
          )
          .onConflict((oc) => oc.columns(['type', 'id']).doNothing())
          .execute();
      }
    });
  }

  /** Inserts or replaces one entry. */
  async put(entry: VocabularyEntry): Promise<void> {
    const row = {
      title: JSON.stringify(entry.title),
      description: entry.description ? JSON.stringify(entry.description) : null,
      icon: entry.icon ?? null,
      props: entry.props ? JSON.stringify(entry.props) : null,
      tags: entry.tags.join(' '),
    };
    await this.db
      .insertInto('vocabularies')
      .values({ type: entry.type, id: entry.id, ...row })
      .onConflict((oc) => oc.columns(['type', 'id']).doUpdateSet(row))
      .execute();
  }

  async delete(type: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('vocabularies')
      .where('type', '=', type)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async listType(type: string): Promise<VocabularyEntry[]> {
    const rows = await this.db
      .selectFrom('vocabularies')
      .selectAll()
      .where('type', '=', type)
      .execute();
    return rows.map(toEntry);
  }

  async findMany(type: string, ids: string[]): Promise<VocabularyEntry[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('vocabularies')
      .selectAll()
      .where('type', '=', type)
      .where('id', 'in', ids)
      .execute();
    return rows.map(toEntry);
  }
}
