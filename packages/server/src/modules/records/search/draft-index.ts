import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Engine } from '../../../database/database.js';
import { draftSearchDocument } from './document.js';
import {
  deleteSearchEntries,
  DRAFTS_INDEX,
  searchColumns,
  writeSearchEntries,
} from './index-writer.js';

/**
 * The drafts' full-text index, which their owner searches among their uploads: written by the
 * drafts repository in the statement or the transaction that writes the draft, as the records'
 * is with the record.
 */
export class DraftSearchIndex {
  constructor(private readonly engine: Engine) {}

  /**
   * What the draft's INSERT or UPDATE sets besides its own columns (PostgreSQL's vector). The
   * texts need no files summary; the file types among the terms do, and `write` has it.
   */
  columns(id: string, data: unknown): object {
    return searchColumns(this.engine, draftSearchDocument({ id, data, filesSummary: null }));
  }

  /** The rest of the draft's entries (SQLite's FTS5 row, the terms), once its row is written. */
  write(db: unknown, row: { id: string; data: unknown; filesSummary: unknown }): Promise<void> {
    return writeSearchEntries(
      db as Kysely<unknown>,
      this.engine,
      row.id,
      draftSearchDocument(row),
      DRAFTS_INDEX,
    );
  }

  /**
   * The draft's file types as its terms hold them, for the UPDATE that changes its files to
   * return as `storedFileTypes`: the terms are then rewritten only when the types changed, which
   * most file changes (a second file of a type, a commit, a metadata edit) do not.
   */
  storedFileTypes(id: string): RawBuilder<string | null> {
    const list =
      this.engine === 'postgres' ? sql`string_agg(value, ' ')` : sql`group_concat(value, ' ')`;
    return sql<
      string | null
    >`(select ${list} from draft_terms where draft_id = ${id} and facet = 'file_type')`;
  }

  /**
   * The draft's file types after a change of its files alone: the types it gained are added and
   * those it lost removed, so a file of a new type costs one statement and most changes none.
   */
  async writeFileTypes(
    db: unknown,
    row: { id: string; data: unknown; filesSummary: unknown },
    storedFileTypes: string | null,
  ): Promise<void> {
    const x = db as Kysely<unknown>;
    const now = draftSearchDocument(row)
      .terms.filter((t) => t.facet === 'file_type')
      .map((t) => t.value);
    const before = storedFileTypes ? storedFileTypes.split(' ') : [];
    const gone = before.filter((v) => !now.includes(v));
    const added = now.filter((v) => !before.includes(v));
    if (gone.length > 0)
      await sql`delete from draft_terms where draft_id = ${row.id} and facet = 'file_type' and value in (${sql.join(gone)})`.execute(
        x,
      );
    if (added.length > 0)
      await sql`insert into draft_terms (facet, value, draft_id) values ${sql.join(
        added.map((v) => sql`('file_type', ${v}, ${row.id})`),
      )}`.execute(x);
  }

  /** Removes the draft's entries, before its row goes (SQLite finds them by its rowid). */
  remove(db: unknown, id: string): Promise<void> {
    return deleteSearchEntries(db as Kysely<unknown>, this.engine, id, DRAFTS_INDEX);
  }
}
