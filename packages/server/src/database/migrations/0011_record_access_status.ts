import { sql, type Kysely, type Migration } from 'kysely';
import { computeAccessStatus, type Access } from '@cairn/shared';

const BATCH = 1000;

/**
 * A published record's access status (`open`, `embargoed`, `restricted`, `metadata-only`, as
 * InvenioRDM computes it from its access and whether it has files) gets its own column, so the
 * `access_status` facet of the records search is an indexed comparison on both engines. It was a
 * LIKE on the JSON, which PostgreSQL refuses on jsonb (a 500) and which no longer matched the
 * rule. Existing records are filled from their JSON, a thousand at a time.
 */
export const recordAccessStatus: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('records')
      .addColumn('access_status', 'text', (c) => c.notNull().defaultTo('open'))
      .execute();
    let after = '';
    for (;;) {
      const { rows } = await sql<{ id: string; data: unknown }>`
        select id, data from records where id > ${after} order by id limit ${BATCH}
      `.execute(db);
      if (rows.length === 0) break;
      for (const row of rows) {
        const data = (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as {
          access: Access;
          files?: { enabled?: boolean };
        };
        const status = computeAccessStatus(data.access, data.files?.enabled !== false);
        if (status !== 'open')
          await sql`update records set access_status = ${status} where id = ${row.id}`.execute(db);
      }
      after = rows[rows.length - 1]!.id;
    }
    await db.schema
      .createIndex('records_access_status_idx')
      .on('records')
      .columns(['access_status', 'published_at'])
      .execute();
  },
};
