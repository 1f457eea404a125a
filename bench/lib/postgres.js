import pg from 'pg';

/**
 * Where a PostgreSQL server can create and drop a scratch database; set it empty to skip the
 * PostgreSQL part of a benchmark.
 */
export const PG_URL =
  process.env.CAIRN_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A fresh database on the server at {@link PG_URL}, named after `purpose` and this process;
 * undefined when no PostgreSQL answers there.
 * @param {string} purpose e.g. `suggest`
 * @returns {Promise<{url: string, drop: () => Promise<void>} | undefined>}
 */
export async function scratchPostgres(purpose) {
  if (!PG_URL) return undefined;
  const name = `cairn_bench_${purpose}_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  try {
    await admin.connect();
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
  } catch {
    return undefined;
  } finally {
    await admin.end().catch(() => undefined);
  }
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
