import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

type AnyDb = Kysely<unknown>;

/**
 * Community search by each engine's own index (ARCHITECTURE §3) while keeping its meaning: every
 * query word is a substring of the normalised `search_text`. SQLite gets an FTS5 trigram table,
 * kept in step by triggers so every writer (the service, the CLI, a bulk seed) feeds it; PostgreSQL
 * a pg_trgm GIN index, which serves the same `like '%word%'` directly. Words under three
 * characters have no trigram and fall back to the scan they had before.
 */
export const communitySearchMigration: Migration = {
  async up(db: AnyDb) {
    // The count of what a caller may see reads these three columns only.
    await sql`create index communities_visible_idx on communities (deleted_at, visibility, id)`.execute(
      db,
    );
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      // pg_trgm ships with PostgreSQL but creating it needs rights a hosted role may lack: without
      // it search stays correct, only unindexed.
      const available = await sql<{ n: number }>`
        select count(*)::int as n from pg_available_extensions where name = 'pg_trgm'`.execute(db);
      if ((available.rows[0]?.n ?? 0) === 0) return;
      try {
        await sql`savepoint community_search`.execute(db);
        // In `public`, not the app's schema: dropping one tenant's schema must not take the
        // extension (and every other schema's index) with it. It may already live elsewhere.
        await sql`create extension if not exists pg_trgm with schema public`.execute(db);
        const found = await sql<{ schema: string }>`
          select n.nspname as schema from pg_extension e
          join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
        const opclass = sql.raw(
          `"${(found.rows[0]?.schema ?? 'public').replaceAll('"', '""')}".gin_trgm_ops`,
        );
        await sql`create index communities_search_trgm_idx on communities using gin (search_text ${opclass})`.execute(
          db,
        );
        await sql`release savepoint community_search`.execute(db);
      } catch {
        await sql`rollback to savepoint community_search`.execute(db);
      }
      return;
    }
    // Its own copy of the text keyed by id, not an external-content table: VACUUM may renumber
    // the rowids of a table whose key is text, and the index would then point at other rows.
    await sql`create virtual table communities_fts using fts5(id unindexed, search_text, tokenize = 'trigram')`.execute(
      db,
    );
    await sql`create trigger communities_fts_insert after insert on communities begin
      insert into communities_fts (id, search_text) values (new.id, new.search_text);
    end`.execute(db);
    await sql`create trigger communities_fts_update after update of search_text on communities begin
      delete from communities_fts where id = old.id;
      insert into communities_fts (id, search_text) values (new.id, new.search_text);
    end`.execute(db);
    await sql`create trigger communities_fts_delete after delete on communities begin
      delete from communities_fts where id = old.id;
    end`.execute(db);
    await sql`insert into communities_fts (id, search_text) select id, search_text from communities`.execute(
      db,
    );
  },
};
