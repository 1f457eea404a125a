import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * SQLite: drops the narrow index of each item's words (0008). A suggestion of several words no
 * longer tests each item's text for the further words but reads their term ranges into sets
 * (ARCHITECTURE §7), so nothing reads the index, and an import of a million names would still
 * write it.
 */
export const dropVocabularyWordsIndex: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) return;
    await sql`drop index if exists vocabulary_items_words_idx`.execute(db);
  },
};
