import SqliteDatabase from 'better-sqlite3';
import crypto from 'node:crypto';
import { appendFile, cp, readFile, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { ENGINES } from '../../test/databases.js';
import { PUBLISHABLE_METADATA, md5, storedFiles } from '../../test/files.js';
import {
  callApi,
  createProcessDatabase,
  processUser,
  runCairn,
  startServerProcess,
  tempDataDir,
  type ServerProcess,
} from '../../test/server-process.js';
import { backup, manifestChecksum, type BackupManifest } from './backup.js';

type Headers = Record<string, string>;

/** A draft of `headers`' owner with the given files uploaded and committed; its id. */
async function draftWithFiles(server: ServerProcess, headers: Headers, files: Buffer[]) {
  const draft = await callApi(server.url, 'POST', '/api/records', headers, {
    metadata: PUBLISHABLE_METADATA,
  });
  expect(draft.status, draft.text).toBe(201);
  const id = draft.json().id as string;
  const base = `/api/records/${id}/draft/files`;
  const init = await callApi(
    server.url,
    'POST',
    base,
    headers,
    files.map((_, i) => ({ key: `f${i}.bin` })),
  );
  expect(init.status, init.text).toBe(201);
  for (const [i, bytes] of files.entries()) {
    const put = await callApi(server.url, 'PUT', `${base}/f${i}.bin/content`, headers, bytes);
    expect(put.status, put.text).toBe(200);
    const commit = await callApi(server.url, 'POST', `${base}/f${i}.bin/commit`, headers);
    expect(commit.status, commit.text).toBe(200);
  }
  return id;
}

const randomFiles = (count: number) =>
  Array.from({ length: count }, () => crypto.randomBytes(1024 + crypto.randomInt(64 * 1024)));

/**
 * Every draft and record in the data folder's database, checked through a server running on it:
 * each file listed is downloadable and its bytes match its checksum. Returns the ids found.
 */
async function checkEveryFile(server: ServerProcess, dataDir: string, headers: Headers) {
  const db = new SqliteDatabase(path.join(dataDir, 'cairn.sqlite'), { readonly: true });
  const records = (db.prepare('select id from records').all() as { id: string }[]).map((r) => r.id);
  const drafts = (db.prepare('select id from drafts').all() as { id: string }[]).map((r) => r.id);
  db.close();
  let checked = 0;
  for (const [ids, files] of [
    [records, (id: string) => `/api/records/${id}/files`],
    [drafts, (id: string) => `/api/records/${id}/draft/files`],
  ] as const) {
    for (const id of ids) {
      const list = await callApi(server.url, 'GET', files(id), headers);
      expect(list.status, `${files(id)}: ${list.text}`).toBe(200);
      for (const entry of (list.json().entries ?? []) as Array<Record<string, any>>) {
        if (entry.status !== 'completed') continue;
        const content = await fetch(`${server.url}${files(id)}/${entry.key}/content`, { headers });
        expect(content.status, `${id} ${entry.key}`).toBe(200);
        const bytes = Buffer.from(await content.arrayBuffer());
        expect(`md5:${md5(bytes)}`, `${id} ${entry.key}`).toBe(entry.checksum);
        checked++;
      }
    }
  }
  return { records, drafts, checked };
}

describe('cairn backup and restore (SQLite, local files)', () => {
  const folders: Array<{ remove: () => Promise<void> }> = [];
  const servers: ServerProcess[] = [];
  let source: { dir: string };
  let owner: { headers: Headers };
  let server: ServerProcess;
  /** A finished backup of `source`, for the refusal tests (each works on a copy). */
  let backupDir: string;

  async function folder() {
    const made = await tempDataDir();
    folders.push(made);
    return made.dir;
  }

  beforeAll(async () => {
    source = { dir: await folder() };
    owner = await processUser({ CAIRN_DATA_DIR: source.dir });
    server = await startServerProcess({ CAIRN_DATA_DIR: source.dir });
    servers.push(server);
  });
  afterAll(async () => {
    for (const s of servers) await s.kill();
    for (const f of folders) await f.remove();
  });

  it('takes a backup while the server publishes and discards, and restores every committed record and file', async () => {
    const published: Array<{ id: string; at: number }> = [];
    let writing = true;
    let failure: unknown;
    // The writer publishes two drafts of every three and discards the third, with files each.
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        const id = await draftWithFiles(server, owner.headers, randomFiles(1 + (n % 3)));
        if (n % 3 === 2) {
          const discard = await callApi(
            server.url,
            'DELETE',
            `/api/records/${id}/draft`,
            owner.headers,
          );
          expect(discard.status, discard.text).toBe(204);
        } else {
          const publish = await callApi(
            server.url,
            'POST',
            `/api/records/${id}/draft/actions/publish`,
            owner.headers,
          );
          expect(publish.status, publish.text).toBe(202);
          published.push({ id, at: Date.now() });
        }
      }
    })().catch((error: unknown) => {
      failure = error;
    });
    // Some history first, then the backup while the writer goes on.
    while (published.length < 6 && failure === undefined)
      await new Promise((r) => setTimeout(r, 20));
    backupDir = path.join(await folder(), 'backup');
    const began = Date.now();
    const taken = await runCairn(['backup', backupDir], { CAIRN_DATA_DIR: source.dir });
    const publishedWhileBackingUp = published.filter((p) => p.at > began).length;
    writing = false;
    await writer;
    expect(failure).toBeUndefined();
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stdout).toMatch(/^Backup written to /m);
    const committedBefore = published.filter((p) => p.at < began).map((p) => p.id);
    expect(committedBefore.length).toBeGreaterThanOrEqual(6);

    const manifest = JSON.parse(
      await readFile(path.join(backupDir, 'manifest.json'), 'utf8'),
    ) as BackupManifest;
    expect(manifest).toMatchObject({ format: 'cairn-backup', version: 1, engine: 'sqlite' });
    expect(manifest.counts.objects).toBe(manifest.objects.length);
    expect(manifest.objects.length).toBeGreaterThan(0);

    const target = await folder();
    const restored = await runCairn(['restore', backupDir], { CAIRN_DATA_DIR: target });
    expect(restored.code, restored.stderr).toBe(0);
    const again = await startServerProcess({ CAIRN_DATA_DIR: target });
    servers.push(again);
    const found = await checkEveryFile(again, target, owner.headers);
    for (const id of committedBefore) expect(found.records).toContain(id);
    expect(found.checked).toBeGreaterThanOrEqual(
      manifest.counts.objects > 0 ? committedBefore.length : 0,
    );
    // Recorded for the report: how much the writer did while the backup ran.
    console.info(
      `backup under writes: ${committedBefore.length} records before, ${publishedWhileBackingUp} published during, ${found.records.length} restored, ${found.checked} files checked`,
    );
    await again.kill('SIGTERM');
  });

  it('keeps the bytes of what the server deletes between the database copy and the file copy', async () => {
    const drafts: Array<{ id: string; files: Buffer[] }> = [];
    for (let i = 0; i < 4; i++) {
      const files = randomFiles(2);
      drafts.push({ id: await draftWithFiles(server, owner.headers, files), files });
    }
    const storeRoot = path.join(source.dir, 'files');
    const objectsBefore = (await storedFiles(storeRoot)).filter((f) => f.startsWith('uploads/'));
    const dir = path.join(await folder(), 'backup');
    const config = loadConfig({ CAIRN_DATA_DIR: source.dir });
    await backup(config, dir, {
      // The server discards the drafts, whose files' bytes it deletes right after: the copied
      // database still refers to them.
      afterDatabase: async () => {
        for (const { id } of drafts) {
          const discard = await callApi(
            server.url,
            'DELETE',
            `/api/records/${id}/draft`,
            owner.headers,
          );
          expect(discard.status, discard.text).toBe(204);
        }
      },
    });
    // Once the backup is done, the bytes held back are deleted.
    const objectsAfter = (await storedFiles(storeRoot)).filter((f) => f.startsWith('uploads/'));
    expect(objectsAfter.length).toBe(objectsBefore.length - 8);

    const target = await folder();
    const restored = await runCairn(['restore', dir], { CAIRN_DATA_DIR: target });
    expect(restored.code, restored.stderr).toBe(0);
    const again = await startServerProcess({ CAIRN_DATA_DIR: target });
    servers.push(again);
    for (const { id, files } of drafts) {
      for (const [i, bytes] of files.entries()) {
        const content = await fetch(
          `${again.url}/api/records/${id}/draft/files/f${i}.bin/content`,
          {
            headers: owner.headers,
          },
        );
        expect(content.status).toBe(200);
        expect(md5(Buffer.from(await content.arrayBuffer()))).toBe(md5(bytes));
      }
    }
    await again.kill('SIGTERM');
  });

  it('restores uploads that were unfinished: received content commits, a multipart upload starts again', async () => {
    const draft = await callApi(server.url, 'POST', '/api/records', owner.headers, {
      metadata: PUBLISHABLE_METADATA,
    });
    const id = draft.json().id as string;
    const files = `/api/records/${id}/draft/files`;
    const single = crypto.randomBytes(3000);
    const parts = [crypto.randomBytes(5000), crypto.randomBytes(1000)];
    const init = await callApi(server.url, 'POST', files, owner.headers, [
      { key: 'single.bin' },
      { key: 'parts.bin', size: 6000, transfer: { type: 'M', parts: 2, part_size: 5000 } },
    ]);
    expect(init.status, init.text).toBe(201);
    expect(
      (await callApi(server.url, 'PUT', `${files}/single.bin/content`, owner.headers, single))
        .status,
    ).toBe(200);
    expect(
      (await callApi(server.url, 'PUT', `${files}/parts.bin/content/1`, owner.headers, parts[0]))
        .status,
    ).toBe(200);
    const dir = path.join(await folder(), 'backup');
    expect((await runCairn(['backup', dir], { CAIRN_DATA_DIR: source.dir })).code).toBe(0);
    const target = await folder();
    const restored = await runCairn(['restore', dir], { CAIRN_DATA_DIR: target });
    expect(restored.code, restored.stderr).toBe(0);
    const again = await startServerProcess({ CAIRN_DATA_DIR: target });
    servers.push(again);

    const commit = await callApi(again.url, 'POST', `${files}/single.bin/commit`, owner.headers);
    expect(commit.status, commit.text).toBe(200);
    expect(commit.json().checksum).toBe(`md5:${md5(single)}`);
    const listed = await callApi(again.url, 'GET', `${files}/parts.bin/parts`, owner.headers);
    expect(listed.json()).toMatchObject({ received: [], missing: [1, 2] });
    for (const [i, bytes] of parts.entries()) {
      const put = await callApi(
        again.url,
        'PUT',
        `${files}/parts.bin/content/${i + 1}`,
        owner.headers,
        bytes,
      );
      expect(put.status, put.text).toBe(200);
    }
    const done = await callApi(again.url, 'POST', `${files}/parts.bin/commit`, owner.headers);
    expect(done.status, done.text).toBe(200);
    expect(done.json().checksum).toBe(`md5:${md5(Buffer.concat(parts))}`);
    await again.kill('SIGTERM');
  });

  /** A copy of the finished backup, to damage. */
  async function backupCopy(): Promise<string> {
    const copy = path.join(await folder(), 'backup');
    await cp(backupDir, copy, { recursive: true });
    return copy;
  }

  async function refusedRestore(dir: string, why: RegExp) {
    const target = await folder();
    await rm(target, { recursive: true, force: true });
    const result = await runCairn(['restore', dir], { CAIRN_DATA_DIR: target });
    expect(result.code, result.stdout).toBe(1);
    expect(result.stderr).toMatch(why);
    // Nothing was written where the data would have gone.
    expect(await readdir(target).catch(() => [])).toEqual([]);
  }

  it('refuses a backup whose file was changed, is missing, or whose database or manifest was', async () => {
    const manifest = JSON.parse(
      await readFile(path.join(backupDir, 'manifest.json'), 'utf8'),
    ) as BackupManifest;
    const object = manifest.objects[0]!;

    let dir = await backupCopy();
    const file = path.join(dir, 'files', object.key);
    const bytes = await readFile(file);
    bytes[0] = bytes[0]! ^ 0xff;
    await writeFile(file, bytes);
    await refusedRestore(dir, new RegExp(`${object.key}: its MD5 differs`));

    dir = await backupCopy();
    await unlink(path.join(dir, 'files', object.key));
    await refusedRestore(dir, new RegExp(`${object.key}: missing from the backup`));

    dir = await backupCopy();
    await appendFile(path.join(dir, 'files', object.key), 'x');
    await refusedRestore(dir, new RegExp(`${object.key}: ${object.size + 1} bytes, expected`));

    dir = await backupCopy();
    await appendFile(path.join(dir, 'cairn.sqlite'), Buffer.alloc(4096));
    await refusedRestore(dir, /cairn\.sqlite: \d+ bytes, the manifest says/);

    // An object dropped from the manifest: caught by its checksum, and with the checksum made
    // to fit, by the database, which still refers to the object.
    dir = await backupCopy();
    const edited = { ...manifest, objects: manifest.objects.slice(1) };
    await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(edited));
    await refusedRestore(dir, /changed after the backup was written/);
    await writeFile(
      path.join(dir, 'manifest.json'),
      JSON.stringify({ ...edited, checksum: manifestChecksum(edited) }),
    );
    await refusedRestore(
      dir,
      new RegExp(`${object.key}: the database refers to it, the manifest lacks it`),
    );

    dir = await backupCopy();
    await unlink(path.join(dir, 'manifest.json'));
    await refusedRestore(dir, /not a complete Cairn backup: it has no manifest\.json/);
    // Six restores, each a process of its own: a busy machine takes longer than the default.
  }, 120_000);

  it('refuses to restore over a data folder in use unless told to, and replaces it with --force', async () => {
    const target = await folder();
    await writeFile(path.join(target, 'cairn.sqlite'), 'precious');
    const refused = await runCairn(['restore', backupDir], { CAIRN_DATA_DIR: target });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is not empty .*--force/);
    expect(await readFile(path.join(target, 'cairn.sqlite'), 'utf8')).toBe('precious');

    const forced = await runCairn(['restore', backupDir, '--force'], { CAIRN_DATA_DIR: target });
    expect(forced.code, forced.stderr).toBe(0);
    const db = new SqliteDatabase(path.join(target, 'cairn.sqlite'), { readonly: true });
    const manifest = JSON.parse(
      await readFile(path.join(backupDir, 'manifest.json'), 'utf8'),
    ) as BackupManifest;
    expect((db.prepare('select count(*) as n from records').get() as { n: number }).n).toBe(
      manifest.counts.records,
    );
    db.close();
  });

  it('answers usage errors with the usage and exit code 2', async () => {
    const env = { CAIRN_DATA_DIR: source.dir };
    for (const args of [
      ['backup'],
      ['restore'],
      ['restore', 'a', 'b'],
      ['backup', 'x', '--force'],
    ]) {
      const result = await runCairn(args, env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/backup DIR/);
    }
    const notEmpty = await runCairn(['backup', source.dir], env);
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.stderr).toMatch(/is not empty: back up into a new or empty folder/);
  });
});

describe.each(ENGINES)('cairn backup where it does not apply, on %s', (engine) => {
  it('says so for PostgreSQL and for S3, and points to the README', async () => {
    const data = await tempDataDir();
    const database = engine === 'postgres' ? await createProcessDatabase() : undefined;
    try {
      const env: Record<string, string> = {
        CAIRN_DATA_DIR: data.dir,
        ...(database
          ? { DATABASE_URL: database.url }
          : {
              CAIRN_STORAGE: 's3',
              CAIRN_S3_BUCKET: 'cairn',
              CAIRN_S3_ACCESS_KEY_ID: 'key',
              CAIRN_S3_SECRET_ACCESS_KEY: 'secret',
            }),
      };
      for (const command of ['backup', 'restore']) {
        const result = await runCairn([command, path.join(data.dir, 'b')], env);
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(
          new RegExp(`cairn ${command} applies to SQLite with the local file store only.*README`),
        );
      }
    } finally {
      await database?.drop();
      await data.remove();
    }
  });
});
