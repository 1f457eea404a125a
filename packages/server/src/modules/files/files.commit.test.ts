import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import type { TestApp } from '../../test/app.js';
import { expectError } from '../../test/assertions.js';
import { createFilesTestApp, FilesApi, md5, storedFiles, type Caller } from '../../test/files.js';

// Commits that do not end where they began: cut off by a crash at any point (the row left
// `committing`), or still running in another process. The crash itself is `src/crash.test.ts`'s;
// here the rows are left as a dead process leaves them, to hold each state to its answers.

const LEASE_SECONDS = 30;
const BEING_COMMITTED = (key: string) =>
  `File with key "${key}" is being committed by another request. If that request was cut off, send the commit again after ${LEASE_SECONDS} seconds.`;
const CONTENT_FROZEN = (key: string) =>
  `File with key "${key}" is being committed; its content can no longer change.`;

type T = TestApp & { storeRoot: string };

describe.each(ENGINES)('commits cut off or running elsewhere (%s)', (engine) => {
  let t: T;
  let owner: Caller;
  let api: FilesApi;

  beforeAll(async () => {
    t = await createFilesTestApp(engine, { CAIRN_COMMIT_LEASE_SECONDS: String(LEASE_SECONDS) });
    owner = await t.user();
    api = new FilesApi(t, owner);
  });
  afterAll(() => t.close());

  const rowOf = (id: string, key: string) =>
    t.services.database.db
      .selectFrom('recordFiles')
      .selectAll()
      .where('bucket', '=', `draft:${id}`)
      .where('key', '=', key)
      .executeTakeFirstOrThrow();

  /** Sends `big.bin`'s three parts (10, 10 and 5 bytes). */
  async function sendParts(id: string, bytes: Buffer): Promise<void> {
    for (const [n, start, end] of [
      [1, 0, 10],
      [2, 10, 20],
      [3, 20, 25],
    ] as const) {
      const put = await api.putPart(id, 'big.bin', n, bytes.subarray(start, end));
      expect(put.statusCode, put.body).toBe(200);
    }
  }

  /** A draft with `big.bin`, 25 bytes in parts of 10, 10 and 5, every part sent. */
  async function uploaded(): Promise<{ id: string; bytes: Buffer }> {
    const bytes = crypto.randomBytes(25);
    const { id } = await api.createDraft();
    const init = await api.init(id, [
      { key: 'big.bin', size: 25, transfer: { type: 'M', parts: 3, part_size: 10 } },
    ]);
    expect(init.statusCode, init.body).toBe(201);
    await sendParts(id, bytes);
    return { id, bytes };
  }

  /** Leaves the file as a process that died while committing it leaves it. */
  async function freezeAsDead(id: string, lease: Record<string, unknown> = {}): Promise<void> {
    const row = await rowOf(id, 'big.bin');
    await t.services.database.db
      .updateTable('recordFiles')
      .set({ status: 'committing', ...lease })
      .where('id', '=', row.id)
      .execute();
  }

  async function expectCommitted(id: string, bytes: Buffer): Promise<void> {
    const { uploadId } = await rowOf(id, 'big.bin');
    const commit = await api.commit(id, 'big.bin');
    expect(commit.statusCode, commit.body).toBe(200);
    expect(commit.json()).toMatchObject({ status: 'completed', checksum: `md5:${md5(bytes)}` });
    const read = await api.get(`/api/records/${id}/draft/files/big.bin/content`);
    expect(read.rawPayload.equals(bytes)).toBe(true);
    const draft = await api.draft(id);
    expect(draft.files).toMatchObject({ count: 1, total_bytes: 25 });
    // The object is in place and the upload's folder is gone.
    const stored = await storedFiles(t.storeRoot);
    expect(stored).toContain((await rowOf(id, 'big.bin')).uploadKey);
    expect(stored).not.toContainEqual(expect.stringContaining(uploadId!));
  }

  it('lists the parts of a commit cut off while hashing, and completes it when it is sent again', async () => {
    const { id, bytes } = await uploaded();
    await freezeAsDead(id);

    const parts = await api.get(`/api/records/${id}/draft/files/big.bin/parts`);
    expect(parts.statusCode).toBe(200);
    expect(parts.json()).toMatchObject({
      received: [1, 2, 3].map((part) => ({ part })),
      missing: [],
    });
    await expectCommitted(id, bytes);
    // Publishing sees nothing missing.
    await api.publish(id);
  });

  it('completes a commit cut off after the store assembled the parts', async () => {
    const { id, bytes } = await uploaded();
    const row = await rowOf(id, 'big.bin');
    await t.services.store.completeMultipart(row.uploadKey!, row.uploadId!, 3);
    await freezeAsDead(id);
    await expectCommitted(id, bytes);
  });

  it('takes over a commit whose process stopped renewing its lease', async () => {
    const { id, bytes } = await uploaded();
    await freezeAsDead(id, {
      commitLease: 'another-process',
      commitLeaseUntil: new Date(Date.now() - 1000).toISOString(),
    });
    await expectCommitted(id, bytes);
  });

  it('starts the multipart upload an init cut off by a crash never started, when a part comes', async () => {
    const bytes = crypto.randomBytes(25);
    const { id } = await api.createDraft();
    await api.init(id, [
      { key: 'big.bin', size: 25, transfer: { type: 'M', parts: 3, part_size: 10 } },
    ]);
    const { id: rowId, uploadId } = await rowOf(id, 'big.bin');
    // What a crash between writing the row and starting its upload leaves.
    await t.services.store.abortMultipart((await rowOf(id, 'big.bin')).uploadKey!, uploadId!);
    await t.services.database.db
      .updateTable('recordFiles')
      .set({ uploadId: null })
      .where('id', '=', rowId)
      .execute();

    const parts = await api.get(`/api/records/${id}/draft/files/big.bin/parts`);
    expect(parts.json()).toMatchObject({ received: [], missing: [1, 2, 3] });
    await sendParts(id, bytes);
    await expectCommitted(id, bytes);
  });

  it('leaves a commit alone while its lease runs: 409, parts listed but frozen, nothing changed', async () => {
    const { id, bytes } = await uploaded();
    await freezeAsDead(id, {
      commitLease: 'another-process',
      commitLeaseUntil: new Date(Date.now() + 20_000).toISOString(),
    });
    const before = await storedFiles(t.storeRoot);

    const commit = await api.commit(id, 'big.bin');
    expectError(commit, 409, 'CONFLICT', BEING_COMMITTED('big.bin'));
    expect(Number(commit.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(commit.headers['retry-after'])).toBeLessThanOrEqual(20);
    expectError(
      await api.putPart(id, 'big.bin', 1, bytes.subarray(0, 10)),
      409,
      'CONFLICT',
      CONTENT_FROZEN('big.bin'),
    );
    const parts = await api.get(`/api/records/${id}/draft/files/big.bin/parts`);
    expect(parts.json()).toMatchObject({ received: [{ part: 1 }, { part: 2 }, { part: 3 }] });
    expect(await storedFiles(t.storeRoot)).toEqual(before);
    expect(await rowOf(id, 'big.bin')).toMatchObject({
      status: 'committing',
      commitLease: 'another-process',
    });
    // Deleting stays possible, and frees the parts.
    const { uploadId } = await rowOf(id, 'big.bin');
    expect((await api.delete(id, 'big.bin')).statusCode).toBe(204);
    expect(await storedFiles(t.storeRoot)).not.toContainEqual(expect.stringContaining(uploadId!));
  });

  // A commit takes its lease without the draft's lock, so on PostgreSQL it can land between a
  // content upload's reading of the file and its writing (SQLite runs one transaction at a
  // time). Another app server's commit is played by a second connection holding the lease's
  // update open until the upload waits on it.
  it.runIf(engine === 'postgres')(
    'refuses content for a file a commit froze after the upload read it, keeping the bytes the commit takes',
    async () => {
      const { id } = await api.createDraft();
      await api.init(id, [{ key: 'a.txt' }]);
      expect((await api.put(id, 'a.txt', 'first')).statusCode).toBe(200);
      const first = await rowOf(id, 'a.txt');
      const database = t.config.database;
      if (database.kind !== 'postgres') throw new Error('PostgreSQL only');
      const other = new pg.Client({
        connectionString: database.url,
        options: `-c search_path=${database.schema}`,
      });
      await other.connect();
      try {
        await other.query('begin');
        await other.query(
          `update record_files set status = 'committing', commit_lease = 'another-server',
             commit_lease_until = $2 where id = $1`,
          [first.id, new Date(Date.now() + 20_000).toISOString()],
        );
        // Sent now (an injected request starts when awaited).
        const put = Promise.resolve(api.put(id, 'a.txt', 'second'));
        // Until the upload's write waits for the lease's row.
        for (;;) {
          // Activity is read once per transaction unless its snapshot is dropped.
          await other.query('select pg_stat_clear_snapshot()');
          const { rows } = await other.query<{ n: string }>(
            `select count(*) as n from pg_stat_activity
              where wait_event_type = 'Lock' and query like 'update "record_files" set "upload_key"%'
                and datname = current_database()`,
          );
          if (Number(rows[0]!.n) > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await other.query('commit');
        expectError(await put, 409, 'CONFLICT', CONTENT_FROZEN('a.txt'));
      } finally {
        await other.end();
      }
      // The commit's bytes are where its lease found them.
      const row = await rowOf(id, 'a.txt');
      expect(row).toMatchObject({ uploadKey: first.uploadKey, status: 'committing' });
      expect(await storedFiles(t.storeRoot)).toContain(first.uploadKey);
    },
  );
});
