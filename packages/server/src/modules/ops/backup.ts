import SqliteDatabase from 'better-sqlite3';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../config.js';
import { migrations } from '../../database/migrations/index.js';
import { DeletionHolds } from '../files/storage/deletion-hold.js';
import { LocalFileStore } from '../files/storage/local-file-store.js';
import { localObjectPath } from '../files/storage/local-layout.js';

export const MANIFEST_FILE = 'manifest.json';
export const DATABASE_FILE = 'cairn.sqlite';
export const FILES_DIR = 'files';
const FORMAT = 'cairn-backup';
const FORMAT_VERSION = 1;
/** Problems listed by a refused restore, at most. */
const MAX_LISTED = 20;

/** Stored bytes as a backup lists them. */
export interface BackupObject {
  key: string;
  size: number;
  /** Hex MD5 of the bytes, as the database records it. */
  md5: string;
}

/** What `manifest.json` holds: enough to verify every byte of the backup before restoring it. */
export interface BackupManifest {
  format: typeof FORMAT;
  version: number;
  engine: 'sqlite';
  store: 'local';
  /** When the database was copied: the backup holds what was committed by then. */
  databaseCopiedAt: string;
  startedAt: string;
  finishedAt: string;
  /** The newest schema migration in the copy; a restore refuses one this Cairn does not know. */
  migration: string | null;
  database: { file: string; size: number; sha256: string };
  counts: {
    users: number;
    records: number;
    drafts: number;
    files: number;
    objects: number;
    bytes: number;
    uploads: number;
  };
  /** The bytes of every stored object (committed files of drafts and records). */
  objects: BackupObject[];
  /** The bytes of single-request uploads received but not committed yet. */
  uploads: BackupObject[];
  /** SHA-256 of this manifest without this field: a manifest changed by hand is refused. */
  checksum: string;
}

/** A backup or restore that cannot go on; `problems` lists why. */
export class BackupError extends Error {
  constructor(
    message: string,
    readonly problems: string[] = [],
  ) {
    const listed = problems.slice(0, MAX_LISTED).map((p) => `\n  - ${p}`);
    const more =
      problems.length > MAX_LISTED ? `\n  … and ${problems.length - MAX_LISTED} more` : '';
    super(`${message}${listed.join('')}${more}`);
    this.name = 'BackupError';
  }
}

/** The commands apply to the embedded setup only; PostgreSQL and S3 have tools of their own. */
function localSqlite(config: Config, command: string): { file: string; root: string } {
  if (config.database.kind !== 'sqlite' || config.storage.kind !== 'local') {
    throw new BackupError(
      `cairn ${command} applies to SQLite with the local file store only. With PostgreSQL or S3, ` +
        'use their own tools (pg_dump or base backups with WAL archiving; bucket versioning or ' +
        'replication, rclone or aws s3 sync): README.md, "Backups", gives the order that keeps ' +
        'them consistent.',
    );
  }
  return { file: config.database.file, root: config.storage.root };
}

/** The checksum a manifest carries: SHA-256 of its JSON without the checksum itself. */
export function manifestChecksum(manifest: Omit<BackupManifest, 'checksum'>): string {
  const unsigned: Partial<BackupManifest> = { ...manifest };
  delete unsigned.checksum;
  return createHash('sha256').update(JSON.stringify(unsigned)).digest('hex');
}

async function hashFile(path: string, algorithm: 'md5' | 'sha256'): Promise<string> {
  const hash = createHash(algorithm);
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Copies `from` to a new file `to`, returning the size and MD5 of what was copied. */
async function copyHashed(from: string, to: string): Promise<{ size: number; md5: string }> {
  await mkdir(dirname(to), { recursive: true });
  const hash = createHash('md5');
  let size = 0;
  await pipeline(
    createReadStream(from),
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    }),
    createWriteStream(to, { flags: 'wx', flush: true }),
  );
  return { size, md5: hash.digest('hex') };
}

const md5Of = (checksum: string) => checksum.replace(/^md5:/, '');

interface DatabaseContents {
  migration: string | null;
  counts: Omit<BackupManifest['counts'], 'objects' | 'bytes' | 'uploads'>;
  objects: BackupObject[];
  uploads: BackupObject[];
}

/** What a copied database refers to in the store, read from the copy itself. */
function readContents(file: string): DatabaseContents {
  const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const count = (table: string) =>
      (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    const objects = (
      db
        .prepare('select store_key as key, size, checksum from file_objects order by store_key')
        .all() as Array<{ key: string; size: number; checksum: string }>
    ).map((o) => ({ key: o.key, size: o.size, md5: md5Of(o.checksum) }));
    const uploads = (
      db
        .prepare(
          `select upload_key as key, uploaded_size as size, uploaded_checksum as checksum
             from record_files
            where status <> 'completed' and transfer_type = 'L'
              and upload_key is not null and uploaded_checksum is not null
            order by upload_key`,
        )
        .all() as Array<{ key: string; size: number; checksum: string }>
    ).map((o) => ({ key: o.key, size: o.size, md5: md5Of(o.checksum) }));
    const migration = (
      db.prepare('select name from kysely_migration order by name desc limit 1').get() as
        { name: string } | undefined
    )?.name;
    return {
      migration: migration ?? null,
      counts: {
        users: count('users'),
        records: count('records'),
        drafts: count('drafts'),
        files: count('record_files'),
      },
      objects,
      uploads,
    };
  } finally {
    db.close();
  }
}

export interface BackupOptions {
  /** Told of each step, for the command's output. */
  progress?: (line: string) => void;
  /**
   * Runs between the copy of the database and the copy of the files: the window in which the
   * server may delete bytes the copied database still refers to.
   */
  afterDatabase?: () => Promise<void>;
}

/**
 * `cairn backup DIR`: a consistent copy of a running (or stopped) SQLite installation.
 *
 * Order: hold deletions in the store; copy the database with SQLite's online backup; copy every
 * object the copy refers to, checking each one's size and MD5 against it; write the manifest
 * last, so that a folder without one is an unfinished backup; release the hold and delete what
 * it held back. Bytes that arrive after the database copy are not in the backup, and neither is
 * any record that refers to them. Multipart uploads still in progress are left out (their
 * parts are being written); a restore gives each such file a fresh, empty upload.
 */
export async function backup(
  config: Config,
  target: string,
  options: BackupOptions = {},
): Promise<BackupManifest> {
  const { file, root } = localSqlite(config, 'backup');
  const dir = resolve(target);
  const say = options.progress ?? (() => {});
  const startedAt = new Date().toISOString();
  if ((await entries(dir)).length > 0)
    throw new BackupError(`${dir} is not empty: back up into a new or empty folder.`);
  try {
    await stat(file);
  } catch {
    throw new BackupError(`No database at ${file}: is CAIRN_DATA_DIR right?`);
  }
  await mkdir(join(dir, FILES_DIR), { recursive: true });

  const holds = new DeletionHolds(root);
  const hold = await holds.acquire();
  let manifest: BackupManifest;
  try {
    const source = new SqliteDatabase(file, { fileMustExist: true });
    let databaseCopiedAt: string;
    try {
      source.pragma('busy_timeout = 5000');
      const partial = join(dir, `${DATABASE_FILE}.partial`);
      // After the first step, the rest goes in one step: one read transaction, so the copy is
      // the database as of one moment even while the server writes (a write between steps would
      // restart the copy, and steady writes could keep restarting it).
      await source.backup(partial, { progress: ({ totalPages }) => Math.max(totalPages, 100) });
      databaseCopiedAt = new Date().toISOString();
      // A self-contained file (no write-ahead log beside it) that opens read-only anywhere.
      const copy = new SqliteDatabase(partial, { fileMustExist: true });
      copy.pragma('journal_mode = DELETE');
      copy.close();
      await rename(partial, join(dir, DATABASE_FILE));
    } finally {
      source.close();
    }
    const databasePath = join(dir, DATABASE_FILE);
    const contents = readContents(databasePath);
    say(
      `database copied: ${contents.counts.records} records, ${contents.counts.drafts} drafts, ${contents.objects.length} stored objects`,
    );
    await options.afterDatabase?.();

    const problems: string[] = [];
    let bytes = 0;
    for (const object of [...contents.objects, ...contents.uploads]) {
      try {
        const copied = await copyHashed(
          localObjectPath(root, object.key),
          localObjectPath(join(dir, FILES_DIR), object.key),
        );
        if (copied.size !== object.size || copied.md5 !== object.md5)
          problems.push(
            `${object.key}: the store holds ${copied.size} bytes with MD5 ${copied.md5}, the database says ${object.size} bytes with MD5 ${object.md5}`,
          );
        bytes += copied.size;
      } catch (error) {
        problems.push(`${object.key}: ${(error as Error).message}`);
      }
    }
    if (problems.length > 0)
      throw new BackupError(
        'The store does not hold what the database refers to; no backup was written:',
        problems,
      );
    say(`files copied: ${contents.objects.length + contents.uploads.length} (${bytes} bytes)`);

    const unsigned: Omit<BackupManifest, 'checksum'> = {
      format: FORMAT,
      version: FORMAT_VERSION,
      engine: 'sqlite',
      store: 'local',
      databaseCopiedAt,
      startedAt,
      finishedAt: new Date().toISOString(),
      migration: contents.migration,
      database: {
        file: DATABASE_FILE,
        size: (await stat(databasePath)).size,
        sha256: await hashFile(databasePath, 'sha256'),
      },
      counts: {
        ...contents.counts,
        objects: contents.objects.length,
        bytes: contents.objects.reduce((sum, o) => sum + o.size, 0),
        uploads: contents.uploads.length,
      },
      objects: contents.objects,
      uploads: contents.uploads,
    };
    manifest = { ...unsigned, checksum: manifestChecksum(unsigned) };
    const partialManifest = join(dir, `${MANIFEST_FILE}.partial`);
    await writeFile(partialManifest, `${JSON.stringify(manifest, null, 1)}\n`, { flush: true });
    await rename(partialManifest, join(dir, MANIFEST_FILE));
  } catch (error) {
    // Half a backup must not be mistaken for one: without its manifest, restore refuses it anyway.
    await rm(dir, { recursive: true, force: true }).catch(() => {});
    throw error;
  } finally {
    await hold.release();
  }
  const purged = await new LocalFileStore({ root }).purgeDeferred();
  if (purged > 0) say(`deleted ${purged} objects held back during the backup`);
  return manifest;
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Checks a backup folder without changing anything: the manifest (format, checksum, a schema
 * this Cairn knows), the database file (size, SHA-256), that the database refers to exactly the
 * objects listed, and every listed object's size and MD5.
 */
export async function verifyBackup(source: string): Promise<BackupManifest> {
  const dir = resolve(source);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as BackupManifest;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BackupError(
      code === 'ENOENT'
        ? `${dir} is not a complete Cairn backup: it has no ${MANIFEST_FILE}.`
        : `${dir}/${MANIFEST_FILE} cannot be read: ${(error as Error).message}`,
    );
  }
  if (manifest?.format !== FORMAT || typeof manifest.version !== 'number')
    throw new BackupError(`${dir}/${MANIFEST_FILE} is not a Cairn backup manifest.`);
  if (manifest.version > FORMAT_VERSION)
    throw new BackupError(
      `The backup has format version ${manifest.version}; this Cairn reads up to ${FORMAT_VERSION}.`,
    );
  if (manifest.checksum !== manifestChecksum(manifest))
    throw new BackupError(`${dir}/${MANIFEST_FILE} was changed after the backup was written.`);
  if (manifest.migration !== null && !(manifest.migration in migrations))
    throw new BackupError(
      `The backup's schema (${manifest.migration}) is newer than this Cairn's: restore it with the version that wrote it.`,
    );

  const problems: string[] = [];
  const databasePath = join(dir, manifest.database.file);
  try {
    const size = (await stat(databasePath)).size;
    if (size !== manifest.database.size)
      problems.push(
        `${manifest.database.file}: ${size} bytes, the manifest says ${manifest.database.size}`,
      );
    else if ((await hashFile(databasePath, 'sha256')) !== manifest.database.sha256)
      problems.push(`${manifest.database.file}: its SHA-256 differs from the manifest's`);
  } catch (error) {
    problems.push(`${manifest.database.file}: ${(error as Error).message}`);
  }
  if (problems.length > 0) throw new BackupError('The backup cannot be verified:', problems);

  const contents = readContents(databasePath);
  const same = (listed: BackupObject[], referred: BackupObject[], what: string) => {
    const byKey = new Map(listed.map((o) => [o.key, o]));
    for (const object of referred) {
      const entry = byKey.get(object.key);
      if (!entry) problems.push(`${object.key}: the database refers to it, the manifest lacks it`);
      else if (entry.size !== object.size || entry.md5 !== object.md5)
        problems.push(`${object.key}: the manifest and the database disagree on its ${what}`);
      byKey.delete(object.key);
    }
    for (const key of byKey.keys())
      problems.push(`${key}: listed, but the database has no such ${what}`);
  };
  same(manifest.objects, contents.objects, 'object');
  same(manifest.uploads, contents.uploads, 'upload');
  for (const object of [...manifest.objects, ...manifest.uploads]) {
    let path: string;
    try {
      path = localObjectPath(join(dir, FILES_DIR), object.key);
    } catch (error) {
      problems.push((error as Error).message);
      continue;
    }
    try {
      const size = (await stat(path)).size;
      if (size !== object.size)
        problems.push(`${object.key}: ${size} bytes, expected ${object.size}`);
      else if ((await hashFile(path, 'md5')) !== object.md5)
        problems.push(`${object.key}: its MD5 differs from the one recorded`);
    } catch (error) {
      problems.push(
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? `${object.key}: missing from the backup`
          : `${object.key}: ${(error as Error).message}`,
      );
    }
  }
  if (problems.length > 0) throw new BackupError('The backup cannot be verified:', problems);
  return manifest;
}

/**
 * `cairn restore DIR [--force]`: verifies the backup whole, then puts its database and files in
 * CAIRN_DATA_DIR (which must be empty, unless `force`: then its database and files are replaced).
 * The restore is staged inside the data folder and moved into place at the end, so a failure
 * leaves the folder as it was. Stop the server first.
 */
export async function restore(
  config: Config,
  source: string,
  options: { force?: boolean; progress?: (line: string) => void } = {},
): Promise<BackupManifest> {
  const { file, root } = localSqlite(config, 'restore');
  const say = options.progress ?? (() => {});
  const dir = resolve(source);
  const dataDir = dirname(file);
  const present = await entries(dataDir);
  if (present.length > 0 && !options.force)
    throw new BackupError(
      `${dataDir} is not empty (${present.slice(0, 5).join(', ')}${present.length > 5 ? ', …' : ''}): restore into an empty CAIRN_DATA_DIR, or add --force to replace its database and files.`,
    );
  const manifest = await verifyBackup(dir);
  say(`backup verified: ${manifest.counts.records} records, ${manifest.counts.objects} objects`);

  const staging = join(dataDir, `.restore-${randomUUID()}`);
  try {
    const stagedFiles = join(staging, FILES_DIR);
    await mkdir(stagedFiles, { recursive: true });
    await copyFile(join(dir, manifest.database.file), join(staging, DATABASE_FILE));
    for (const object of [...manifest.objects, ...manifest.uploads]) {
      const to = localObjectPath(stagedFiles, object.key);
      await mkdir(dirname(to), { recursive: true });
      await copyFile(localObjectPath(join(dir, FILES_DIR), object.key), to);
    }
    await reopenUnfinishedUploads(join(staging, DATABASE_FILE), stagedFiles);

    if (options.force) {
      for (const name of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`])
        await rm(name, { force: true });
      await rm(root, { recursive: true, force: true });
    }
    await mkdir(dirname(root), { recursive: true });
    await rename(join(staging, DATABASE_FILE), file);
    await rename(stagedFiles, root);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return manifest;
}

/**
 * Uploads that were still in progress when the backup was taken: a multipart upload gets a new,
 * empty upload of the same layout (its parts were not backed up), so the client sends the parts
 * again; a commit that was under way goes back to pending, to be committed again.
 */
async function reopenUnfinishedUploads(databaseFile: string, filesRoot: string): Promise<void> {
  const db = new SqliteDatabase(databaseFile, { fileMustExist: true });
  try {
    const store = new LocalFileStore({ root: filesRoot });
    const multipart = db
      .prepare(
        `select id, upload_key as key, declared_size as size, part_size as partSize, parts
           from record_files
          where status <> 'completed' and transfer_type = 'M' and upload_key is not null
            and parts is not null and part_size is not null and declared_size is not null`,
      )
      .all() as Array<{ id: string; key: string; size: number; partSize: number; parts: number }>;
    const reopen = db.prepare(
      `update record_files set upload_id = ?, status = 'pending', uploaded_size = null, uploaded_checksum = null where id = ?`,
    );
    for (const row of multipart) {
      const uploadId = await store.createMultipart(row.key, row);
      reopen.run(uploadId, row.id);
    }
    db.prepare(`update record_files set status = 'pending' where status = 'committing'`).run();
  } finally {
    db.close();
  }
}
