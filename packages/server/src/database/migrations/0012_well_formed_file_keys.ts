import { isUtf8 } from 'node:buffer';
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

interface BadKey {
  id: string;
  bucket: string;
  raw: Uint8Array;
}

/** `key` with ` (n)` before its extension. */
function numbered(key: string, n: number): string {
  const slash = key.lastIndexOf('/');
  const dot = key.lastIndexOf('.');
  return dot > slash + 1 ? `${key.slice(0, dot)} (${n})${key.slice(dot)}` : `${key} (${n})`;
}

/**
 * File keys SQLite holds as bytes that are not UTF-8. Before ill-formed text was refused where
 * it enters, a key holding an unpaired surrogate (`"a\ud800b"`) was stored as the bytes
 * better-sqlite3 wrote for it (ED A0 80), which read back as three U+FFFD: listed under a name no
 * request could match, such a pending file could be neither read nor deleted, and blocked
 * publishing. Each becomes the name it was listed with (numbered when a file already has that
 * name), in its row and in its draft's or record's files summary. PostgreSQL never held such
 * keys: its driver wrote U+FFFD. Idempotent: well-formed keys are left alone.
 */
export const wellFormedFileKeys: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) return;
    // Only keys with a byte outside printable ASCII can be ill-formed.
    const { rows } = await sql<BadKey>`
      select id, bucket, cast(key as blob) as raw from record_files where key glob '*[^ -~]*'
    `.execute(db);
    for (const row of rows) {
      const bytes = Buffer.from(row.raw);
      if (isUtf8(bytes)) continue;
      const listed = bytes.toString('utf8');
      let key = listed;
      for (let n = 2; ; n++) {
        const { rows: taken } = await sql`
          select 1 from record_files where bucket = ${row.bucket} and key_normalized = ${key.normalize('NFC')}
        `.execute(db);
        if (taken.length === 0) break;
        key = numbered(listed, n);
      }
      await sql`
        update record_files set key = ${key}, key_normalized = ${key.normalize('NFC')} where id = ${row.id}
      `.execute(db);

      const colon = row.bucket.indexOf(':');
      const table = row.bucket.slice(0, colon) === 'record' ? 'records' : 'drafts';
      const owner = row.bucket.slice(colon + 1);
      const { rows: found } = await sql<{ summary: string | null }>`
        select files_summary as summary from ${sql.table(table)} where id = ${owner}
      `.execute(db);
      const text = found[0]?.summary;
      if (!text) continue;
      const summary = JSON.parse(text) as { entries?: Record<string, { id?: string }> };
      const entries = Object.entries(summary.entries ?? {}).map(([name, entry]) =>
        entry.id === row.id ? [key, { ...entry, key }] : [name, entry],
      );
      summary.entries = Object.fromEntries(entries) as typeof summary.entries;
      await sql`
        update ${sql.table(table)} set files_summary = ${JSON.stringify(summary)} where id = ${owner}
      `.execute(db);
    }
  },
};
