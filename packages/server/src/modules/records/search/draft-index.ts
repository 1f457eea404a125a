import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Engine } from '../../../database/database.js';
import { fileTypesOf, readSummary } from '../../files/files.summary.js';
import { draftSearchDocument } from './document.js';
import {
  deleteSearchEntries,
  DRAFTS_INDEX,
  sameTerms,
  sameTexts,
  searchColumns,
  writeSearchEntries,
  writeSearchTerms,
  writeSearchTexts,
} from './index-writer.js';

/** A save's changes to the draft's entries, as `DraftSearchIndex.saved` plans them. */
export interface SavedDraftEntries {
  /** What the draft's UPDATE sets besides its own columns: PostgreSQL's vector, if it changed. */
  columns: object;
  /** The rest of the entries that changed, once the row is written (with its files summary). */
  write(db: unknown, filesSummary: unknown): Promise<void>;
}

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

  /**
   * The entries of a save of the draft's data from `previous` (as read, at the revision the save
   * replaces) to `data`: only what changed is written, since each rewrite is a statement or two
   * and most saves change a title or a description, not the terms, and an autosave often nothing
   * the index holds. The index held `previous`'s entries: every write of a draft's data or files
   * bumps its revision and writes its entries in the same transaction, and the save's UPDATE
   * only applies at the revision `previous` was read at. The file types are left out of the
   * comparison: they come from the files summary, which a save does not change. A draft no
   * longer catches up with a change of what `draftSearchDocument` keeps at its next save: such a
   * change needs a migration that rewrites the drafts' entries, as the records' need one.
   */
  saved(id: string, data: unknown, previous: unknown): SavedDraftEntries {
    const doc = draftSearchDocument({ id, data, filesSummary: null });
    const before = draftSearchDocument({ id, data: previous, filesSummary: null });
    const texts = !sameTexts(before, doc);
    const terms = !sameTerms(before, doc);
    return {
      columns: texts ? searchColumns(this.engine, doc) : {},
      write: async (db, filesSummary) => {
        const x = db as Kysely<unknown>;
        if (texts) await writeSearchTexts(x, this.engine, id, doc, DRAFTS_INDEX);
        if (terms)
          await writeSearchTerms(
            x,
            id,
            draftSearchDocument({ id, data, filesSummary }),
            DRAFTS_INDEX,
          );
      },
    };
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
    row: { id: string; filesSummary: unknown },
    storedFileTypes: string | null,
  ): Promise<void> {
    const x = db as Kysely<unknown>;
    // The summary alone, as the draft's search document takes them: reading the draft's JSON for
    // them would cost each file of a 500-author draft a parse of every author.
    const now = fileTypesOf(readSummary(row.filesSummary));
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
