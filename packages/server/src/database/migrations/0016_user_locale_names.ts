import type { Kysely, Migration } from 'kysely';

/**
 * The language a person chose in the header, kept with their account so that it follows them to
 * another browser; null until they choose one (the browser's preference then decides).
 */
export const userLocaleMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('locale', 'text').execute();
  },
};
