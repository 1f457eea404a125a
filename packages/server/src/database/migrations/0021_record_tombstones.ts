import { PostgresAdapter, type Kysely, type Migration } from 'kysely';
import { removalReasonFixtures } from '../../modules/vocabularies/fixtures/removal-reasons.js';

/**
 * A published record removed by an administrator keeps its row, marked by `deleted_at`, with its
 * tombstone beside it: why, by whom, when, the citation to show instead, and whether the page
 * shows it. The row stays so that its identifiers keep answering (410 with the tombstone, OAI-PMH
 * `status="deleted"`) and it can be restored whole.
 *
 * The reasons are a vocabulary. A database that already holds the shipped vocabularies gets the
 * new one here; a new database gets it with all the others when it is first seeded.
 */
export const recordTombstones: Migration = {
  async up(db: Kysely<unknown>) {
    const json = db.getExecutor().adapter instanceof PostgresAdapter ? 'jsonb' : 'text';
    await db.schema.alterTable('records').addColumn('tombstone', json).execute();
    const seeded = await db
      .selectFrom('vocabularies' as never)
      .select('id' as never)
      .limit(1)
      .execute();
    if (seeded.length === 0) return;
    await db
      .insertInto('vocabularies' as never)
      .values(
        removalReasonFixtures().map((f) => ({
          type: f.type,
          id: f.id,
          title: JSON.stringify(f.title),
          description: null,
          icon: null,
          props: null,
          tags: '',
        })),
      )
      .execute();
  },
};
