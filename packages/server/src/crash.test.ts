import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson } from './database/schema.js';
import type { CrashPoint } from './lib/crash-points.js';
import { ENGINES } from './test/databases.js';
import {
  GUARD_MS,
  startProcessHarness,
  until,
  type ProcessHarness,
} from './test/process-harness.js';
import {
  callApi,
  CAIRN_BIN,
  type ApiAnswer,
  freePort,
  startServerProcess,
  type ServerProcess,
} from './test/server-process.js';

// The crash test: the real server (`cairn serve`, compiled) runs as a child process and is
// killed with SIGKILL at chosen points: while a part's bytes stream, in the middle of a batch of
// files, while a commit hashes 200 MiB, and, through the test-only crash points
// (src/lib/crash-points.ts), inside an init, a commit, a publish, a files-import, a file
// deletion, a vocabulary import on the command line and the start-up sweep. After each restart
// on the same data: no half-published record, no file whose bytes differ from its checksum,
// every interrupted upload resumable or cleanly failed, and nothing a killed upload left behind
// still on disk.

const MiB = 1024 * 1024;
const LEASE_SECONDS = 2;
const SCENARIO_MS = 300_000;

const METADATA = {
  title: 'Core samples from the Weddell Sea',
  publication_date: '2024-05-01',
  resource_type: { id: 'dataset' },
  creators: [{ person_or_org: { type: 'personal', family_name: 'Curie', given_name: 'Marie' } }],
};

const md5 = (bytes: Buffer) => crypto.createHash('md5').update(bytes).digest('hex');

/** Runs `cairn …args` until it ends by itself; how it ended and what it wrote. */
async function runToEnd(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  const child = spawn(process.execPath, [CAIRN_BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', CAIRN_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const guard = setTimeout(() => child.kill('SIGKILL'), GUARD_MS);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('exit', (c, s) => resolve([c, s])),
  );
  clearTimeout(guard);
  return { code, signal, output };
}

describe.each(ENGINES)('the server killed at chosen points, restarted (%s)', (engine) => {
  let h: ProcessHarness;
  const storeRoot = () => path.join(h.dataDir, 'files');

  beforeAll(async () => {
    h = await startProcessHarness(engine, {
      CAIRN_COMMIT_LEASE_SECONDS: String(LEASE_SECONDS),
      // Leftovers are freed by the sweep at start, which is the only one that runs.
      CAIRN_UPLOAD_LEFTOVER_MINUTES: '0',
      CAIRN_SWEEP_INTERVAL_SECONDS: '0',
      CAIRN_FILES_MAX_PER_RECORD: '20',
    });
  }, SCENARIO_MS);

  afterAll(() => h?.close());

  /** Arms `point`, lets `action` reach it, and checks that the server died there; restarts it. */
  async function crashAt(point: CrashPoint, action: () => Promise<unknown>): Promise<void> {
    await h.restart({ CAIRN_TEST_CRASH_AT: point });
    const outcome = await action().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    expect(
      await h.server.exited,
      `the server did not die at ${point}: ${JSON.stringify(outcome)}`,
    ).toBeNull();
    await h.restart();
  }

  const api = (method: string, url: string, body?: unknown) => h.api(method, url, body);

  async function expectStatus(call: Promise<ApiAnswer>, status: number): Promise<any> {
    const res = await call;
    expect(res.status, res.bytes.toString('utf8').slice(0, 500)).toBe(status);
    return res.bytes.length > 0 && res.bytes[0] === 0x7b ? res.json() : res.bytes;
  }

  const files = (id: string) => `/api/records/${id}/draft/files`;

  async function newDraft(): Promise<string> {
    return (
      (await expectStatus(api('POST', '/api/records', { metadata: METADATA }), 201)) as {
        id: string;
      }
    ).id;
  }

  async function initMultipart(id: string, key: string, size: number, partSize: number) {
    const parts = Math.ceil(size / partSize);
    await expectStatus(
      api('POST', files(id), [{ key, size, transfer: { type: 'M', parts, part_size: partSize } }]),
      201,
    );
  }

  async function sendParts(
    id: string,
    key: string,
    bytes: Buffer,
    partSize: number,
    only?: number[],
  ) {
    const count = Math.ceil(bytes.length / partSize);
    for (let n = 1; n <= count; n++) {
      if (only && !only.includes(n)) continue;
      const part = bytes.subarray((n - 1) * partSize, n * partSize);
      await expectStatus(api('PUT', `${files(id)}/${key}/content/${n}`, part), 200);
    }
  }

  /** Commits `key`, waiting out the lease of a commit that died (409) if there is one. */
  async function commitAgain(id: string, key: string): Promise<any> {
    const res = await until(`the commit of ${key}`, async () => {
      const attempt = await api('POST', `${files(id)}/${key}/commit`);
      if (attempt.status === 409) return undefined;
      return attempt;
    });
    expect(res.status, res.bytes.toString('utf8')).toBe(200);
    return res.json();
  }

  async function rowOf(id: string, key: string) {
    return h.db.db
      .selectFrom('recordFiles')
      .selectAll()
      .where('bucket', '=', `draft:${id}`)
      .where('key', '=', key)
      .executeTakeFirst();
  }

  /**
   * Sends a request whose body stops after `sent` of its bytes and kills the server while it
   * waits for the rest, once `reached` says the server is writing them (when given).
   */
  async function killMidBody(
    pathname: string,
    bytes: Buffer,
    sent: number,
    reached?: () => Promise<boolean>,
    { method = 'PUT', type = 'application/octet-stream' } = {},
  ): Promise<void> {
    const request = http.request(`${h.server.url}${pathname}`, {
      method,
      headers: {
        ...h.headers,
        'content-type': type,
        'content-length': String(bytes.length),
      },
    });
    request.on('error', () => undefined);
    // Handed to the socket; the server waits for the rest of a body that never comes.
    await new Promise<void>((resolve) => request.write(bytes.subarray(0, sent), () => resolve()));
    if (reached) await until('the server to write the bytes', reached);
    await h.server.kill();
    request.destroy();
  }

  async function storedFiles(): Promise<string[]> {
    const entries = await readdir(storeRoot(), { recursive: true, withFileTypes: true }).catch(
      () => [],
    );
    return entries
      .filter((e) => e.isFile())
      .map((e) => path.relative(storeRoot(), path.join(e.parentPath, e.name)))
      .sort();
  }

  /** Once the start-up sweep has run: nothing a killed upload left is still in the store. */
  async function expectNoLeftovers(): Promise<void> {
    await until('the start-up sweep to free every leftover', async () => {
      const stored = await storedFiles();
      const rows = await h.db.db
        .selectFrom('recordFiles')
        .select(['uploadKey', 'uploadId'])
        .execute();
      const objects = await h.db.db.selectFrom('fileObjects').select('storeKey').execute();
      const keys = new Set([...rows.map((r) => r.uploadKey), ...objects.map((o) => o.storeKey)]);
      const uploads = new Set(rows.map((r) => r.uploadId));
      return stored.every((file) => {
        if (file.startsWith('.tmp')) return false;
        if (file.startsWith('.multipart')) return uploads.has(file.split(path.sep)[1]!);
        return keys.has(file.split(path.sep).join('/'));
      });
    });
  }

  /**
   * What must hold after every crash: each draft's and record's files summary lists exactly the
   * entries of its bucket; no bucket without its draft or record; every object row's bytes in
   * the store; every completed file downloads with the size and MD5 its checksum says.
   */
  async function expectWhole(): Promise<void> {
    const buckets = await h.db.db.selectFrom('recordFiles').select('bucket').distinct().execute();
    for (const kind of ['drafts', 'records'] as const) {
      const prefix = kind === 'drafts' ? 'draft:' : 'record:';
      const rows =
        kind === 'drafts'
          ? await h.db.db.selectFrom('drafts').select(['id', 'filesSummary']).execute()
          : await h.db.db.selectFrom('records').select(['id', 'filesSummary']).execute();
      const ids = new Set(rows.map((r) => r.id));
      for (const { bucket } of buckets) {
        if (bucket.startsWith(prefix))
          expect(ids, `${bucket} has no ${kind} row`).toContain(bucket.slice(prefix.length));
      }
      for (const row of rows) {
        const summary = row.filesSummary
          ? readJson<{ entries: Record<string, { checksum: string | null }> }>(row.filesSummary)
          : { entries: {} };
        const entries = await h.db.db
          .selectFrom('recordFiles')
          .leftJoin('fileObjects', 'fileObjects.id', 'recordFiles.objectId')
          .select(['recordFiles.key', 'recordFiles.status', 'fileObjects.checksum'])
          .where('recordFiles.bucket', '=', prefix + row.id)
          .execute();
        expect(Object.keys(summary.entries).sort(), `${kind} ${row.id}`).toEqual(
          entries.map((e) => e.key).sort(),
        );
        for (const entry of entries) {
          if (kind === 'records') expect(entry.status, `${row.id} ${entry.key}`).toBe('completed');
          if (entry.status === 'completed')
            expect(summary.entries[entry.key]?.checksum).toBe(entry.checksum);
        }
      }
    }
    const completed = await h.db.db
      .selectFrom('recordFiles')
      .innerJoin('fileObjects', 'fileObjects.id', 'recordFiles.objectId')
      .select(['recordFiles.bucket', 'recordFiles.key', 'fileObjects.size', 'fileObjects.checksum'])
      .where('recordFiles.status', '=', 'completed')
      .execute();
    for (const file of completed) {
      const [kind, id] = file.bucket.split(':');
      const url = `/api/records/${id}/${kind === 'draft' ? 'draft/files' : 'files'}/${file.key}/content`;
      const read = await api('GET', url);
      expect(read.status, url).toBe(200);
      expect(read.bytes.length, url).toBe(Number(file.size));
      expect(`md5:${md5(read.bytes)}`, url).toBe(file.checksum);
    }
  }

  it(
    "resumes a multipart upload whose part was cut off mid-stream, and frees a cut-off upload's temporary file",
    async () => {
      const id = await newDraft();
      const partSize = 4 * MiB;
      const bytes = crypto.randomBytes(3 * partSize - 1000);
      await initMultipart(id, 'parts.bin', bytes.length, partSize);
      await sendParts(id, 'parts.bin', bytes, partSize, [1]);
      await killMidBody(
        `${files(id)}/parts.bin/content/2`,
        bytes.subarray(partSize, 2 * partSize),
        MiB,
      );

      // A one-request upload cut off the same way leaves its temporary file in the store.
      await h.restart();
      const single = crypto.randomBytes(8 * MiB);
      await expectStatus(api('POST', files(id), [{ key: 'single.bin' }]), 201);
      const temporary = async () => (await storedFiles()).filter((f) => f.startsWith('.tmp'));
      await killMidBody(`${files(id)}/single.bin/content`, single, 2 * MiB, async () => {
        return (await temporary()).length > 0;
      });
      expect(await temporary()).toHaveLength(1);

      await h.restart();
      await expectNoLeftovers();
      const listed = await expectStatus(api('GET', `${files(id)}/parts.bin/parts`), 200);
      expect(listed).toMatchObject({
        received: [
          { part: 1, size: partSize, checksum: `md5:${md5(bytes.subarray(0, partSize))}` },
        ],
        missing: [2, 3],
      });
      await sendParts(id, 'parts.bin', bytes, partSize, [2, 3]);
      expect(await commitAgain(id, 'parts.bin')).toMatchObject({ checksum: `md5:${md5(bytes)}` });
      // The cut-off one-request upload stored nothing: it is pending, and takes its bytes again.
      expect((await rowOf(id, 'single.bin'))?.uploadedChecksum).toBeNull();
      await expectStatus(api('PUT', `${files(id)}/single.bin/content`, single), 200);
      expect(await commitAgain(id, 'single.bin')).toMatchObject({ checksum: `md5:${md5(single)}` });
      await expectWhole();
    },
    SCENARIO_MS,
  );

  it(
    'keeps the files of a batch committed before a kill, frees the one cut off, and takes the rest again',
    async () => {
      const id = await newDraft();
      const small = crypto.randomBytes(1000);
      const large = crypto.randomBytes(8 * MiB);
      const last = crypto.randomBytes(2000);
      const keys = ['first.bin', 'cut.bin', 'last.bin'];
      await expectStatus(
        api(
          'POST',
          files(id),
          keys.map((key) => ({ key })),
        ),
        201,
      );
      const form = () => {
        const body = new FormData();
        const sizes = [small, large, last].map((b, i) => ({ key: keys[i]!, size: b.length }));
        body.append('files', JSON.stringify(sizes));
        for (const [i, b] of [small, large, last].entries())
          body.append('content', new Blob([b]), keys[i]);
        return body;
      };
      // The form as any client encodes it, sent up to the middle of cut.bin.
      const encoded = new Request('http://x/', { method: 'POST', body: form() });
      const bytes = Buffer.from(await encoded.arrayBuffer());
      const temporary = async () => (await storedFiles()).filter((f) => f.startsWith('.tmp'));
      await killMidBody(
        `${files(id)}-upload`,
        bytes,
        bytes.indexOf(large.subarray(0, 64)) + 2 * MiB,
        async () =>
          (await rowOf(id, 'first.bin'))?.status === 'completed' && (await temporary()).length > 0,
        { method: 'POST', type: encoded.headers.get('content-type')! },
      );

      await h.restart();
      await expectNoLeftovers();
      expect((await rowOf(id, 'first.bin'))?.status).toBe('completed');
      expect((await rowOf(id, 'cut.bin'))?.uploadedChecksum).toBeNull();
      expect((await rowOf(id, 'last.bin'))?.status).toBe('pending');
      const again = await fetch(`${h.server.url}${files(id)}-upload`, {
        method: 'POST',
        headers: h.headers,
        body: form(),
      });
      const answer = (await again.json()) as {
        entries: Array<{ key: string; checksum: string }>;
        errors: Array<{ key: string; message: string }>;
      };
      expect(again.status).toBe(200);
      expect(answer.entries.map((e) => [e.key, e.checksum])).toEqual([
        ['cut.bin', `md5:${md5(large)}`],
        ['last.bin', `md5:${md5(last)}`],
      ]);
      expect(answer.errors).toEqual([
        expect.objectContaining({
          key: 'first.bin',
          message: expect.stringMatching(/already committed/),
        }),
      ]);
      await expectWhole();
    },
    SCENARIO_MS,
  );

  it(
    'completes a commit killed while it hashed 200 MiB, sent again after the restart',
    async () => {
      const id = await newDraft();
      const partSize = 40 * MiB;
      const bytes = crypto.randomBytes(5 * partSize);
      await initMultipart(id, 'big.bin', bytes.length, partSize);
      await sendParts(id, 'big.bin', bytes, partSize);
      // A restart forgets the running hash kept while the parts arrived: commit hashes them all.
      await h.restart();
      const row = (await rowOf(id, 'big.bin'))!;

      void api('POST', `${files(id)}/big.bin/commit`).catch(() => undefined);
      await until('the commit to start', async () => {
        const current = await h.db.db
          .selectFrom('recordFiles')
          .select('status')
          .where('id', '=', row.id)
          .executeTakeFirst();
        return current?.status === 'committing';
      });
      await h.server.kill();
      expect((await rowOf(id, 'big.bin'))?.status).toBe('committing');

      await h.restart();
      // The parts are still there: the commit died before it assembled them.
      const listed = await expectStatus(api('GET', `${files(id)}/big.bin/parts`), 200);
      expect(listed).toMatchObject({ missing: [] });
      expect((listed as { received: unknown[] }).received).toHaveLength(5);
      expect(await commitAgain(id, 'big.bin')).toMatchObject({
        status: 'completed',
        size: bytes.length,
        checksum: `md5:${md5(bytes)}`,
      });
      await expectNoLeftovers();
      await expectWhole();
    },
    SCENARIO_MS,
  );

  it.each<[CrashPoint, string]>([
    ['store:moved-into-place', 'the store moved the assembled bytes into place'],
    ['commit:assembled', 'the store finished, before the file was completed'],
  ])(
    'completes a commit killed where %s (%s)',
    async (point) => {
      const id = await newDraft();
      const bytes = crypto.randomBytes(3 * MiB + 7);
      await initMultipart(id, 'm.bin', bytes.length, MiB);
      await sendParts(id, 'm.bin', bytes, MiB);
      await crashAt(point, () => api('POST', `${files(id)}/m.bin/commit`));
      expect((await rowOf(id, 'm.bin'))?.status).toBe('committing');
      expect(await commitAgain(id, 'm.bin')).toMatchObject({ checksum: `md5:${md5(bytes)}` });
      await expectNoLeftovers();
      await expectWhole();
    },
    SCENARIO_MS,
  );

  it(
    'uploads a multipart file whose init was killed before it started the upload',
    async () => {
      const id = await newDraft();
      const bytes = crypto.randomBytes(2 * MiB + 5);
      await crashAt('init:rows-written', () => initMultipart(id, 'late.bin', bytes.length, MiB));
      expect((await rowOf(id, 'late.bin'))?.uploadId).toBeNull();
      const listed = await expectStatus(api('GET', `${files(id)}/late.bin/parts`), 200);
      expect(listed).toMatchObject({ received: [], missing: [1, 2, 3] });
      await sendParts(id, 'late.bin', bytes, MiB);
      expect(await commitAgain(id, 'late.bin')).toMatchObject({ checksum: `md5:${md5(bytes)}` });
      await expectNoLeftovers();
      await expectWhole();
    },
    SCENARIO_MS,
  );

  let published: { id: string; bytes: Map<string, Buffer> };

  it(
    'publishes nothing of a publish killed inside its transaction, and publishes it whole after',
    async () => {
      const id = await newDraft();
      const bytes = new Map([
        ['a.csv', Buffer.from('depth,temp\n1,4.5\n')],
        ['b.bin', crypto.randomBytes(2 * MiB)],
      ]);
      for (const [key, content] of bytes) {
        await expectStatus(api('POST', files(id), [{ key }]), 201);
        await expectStatus(api('PUT', `${files(id)}/${key}/content`, content), 200);
        await expectStatus(api('POST', `${files(id)}/${key}/commit`), 200);
      }
      await crashAt('publish:files-moved', () =>
        api('POST', `/api/records/${id}/draft/actions/publish`),
      );
      expect(
        await h.db.db.selectFrom('records').select('id').where('id', '=', id).executeTakeFirst(),
      ).toBeUndefined();
      expect((await expectStatus(api('GET', `/api/records/${id}/draft`), 200)).files).toMatchObject(
        {
          count: 2,
        },
      );
      await expectWhole();

      await expectStatus(api('POST', `/api/records/${id}/draft/actions/publish`), 202);
      for (const [key, content] of bytes) {
        const read = await expectStatus(api('GET', `/api/records/${id}/files/${key}/content`), 200);
        expect(md5(read as Buffer)).toBe(md5(content));
      }
      published = { id, bytes };
      await expectWhole();
    },
    SCENARIO_MS,
  );

  it(
    'imports nothing of a files-import killed inside its transaction, and all of it after',
    async () => {
      const version = await expectStatus(api('POST', `/api/records/${published.id}/versions`), 201);
      const id = (version as { id: string }).id;
      const importFiles = () => api('POST', `/api/records/${id}/draft/actions/files-import`);
      await crashAt('files-import:copied', importFiles);
      expect(
        await h.db.db
          .selectFrom('recordFiles')
          .select('id')
          .where('bucket', '=', `draft:${id}`)
          .execute(),
      ).toEqual([]);
      expect((await expectStatus(api('GET', `/api/records/${id}/draft`), 200)).files).toMatchObject(
        {
          count: 0,
        },
      );
      await expectWhole();

      await expectStatus(importFiles(), 201);
      for (const [key, content] of published.bytes) {
        const read = await expectStatus(api('GET', `${files(id)}/${key}/content`), 200);
        expect(md5(read as Buffer)).toBe(md5(content));
      }
      await expectWhole();
    },
    SCENARIO_MS,
  );

  it(
    'frees the bytes of a file whose deletion was killed before it freed them',
    async () => {
      const id = await newDraft();
      const content = crypto.randomBytes(MiB);
      await expectStatus(api('POST', files(id), [{ key: 'gone.bin' }]), 201);
      await expectStatus(api('PUT', `${files(id)}/gone.bin/content`, content), 200);
      await expectStatus(api('POST', `${files(id)}/gone.bin/commit`), 200);
      const { uploadKey } = (await rowOf(id, 'gone.bin'))!;
      await crashAt('release:before-bytes', () => api('DELETE', `${files(id)}/gone.bin`));
      expect(await rowOf(id, 'gone.bin')).toBeUndefined();
      await until(
        'the bytes of the deleted file to be freed',
        async () => !(await storedFiles()).includes(uploadKey!.split('/').join(path.sep)),
      );
      await expectNoLeftovers();
      await expectWhole();
    },
    SCENARIO_MS,
  );

  it(
    'leaves nothing of a vocabulary import killed on the command line, and imports it whole after',
    async () => {
      const marker = crypto.randomBytes(4).toString('hex');
      const lines = ['id,subject,scheme'];
      for (let i = 0; i < 5000; i++)
        lines.push(`https://example.org/${marker}/${i},Crash subject ${marker} ${i},Cairn`);
      const file = path.join(h.dataDir, `subjects-${marker}.csv`);
      await writeFile(file, lines.join('\n') + '\n');
      const count = async () =>
        Number(
          (
            await h.db.db
              .selectFrom('vocabularyItems')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('type', '=', 'subjects')
              .where('id', 'like', `https://example.org/${marker}/%`)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const cliEnv = { ...h.env, PORT: String(await freePort()) };

      const killed = await runToEnd(['vocabularies', 'import', 'subjects', file], {
        ...cliEnv,
        CAIRN_TEST_CRASH_AT: 'vocabularies-import:batch-written',
      });
      expect(killed.signal, killed.output).toBe('SIGKILL');
      expect(await count()).toBe(0);

      const done = await runToEnd(['vocabularies', 'import', 'subjects', file], cliEnv);
      expect(done.code, done.output).toBe(0);
      expect(await count()).toBe(5000);
      const found = await expectStatus(api('GET', `/api/subjects?q=${marker}&size=1`), 200);
      expect(found.hits.total).toBe(5000);
    },
    SCENARIO_MS,
  );

  it(
    'finishes the sweep of abandoned uploads that was killed half-way, at the next start',
    async () => {
      const id = await newDraft();
      const content = crypto.randomBytes(MiB);
      await expectStatus(api('POST', files(id), [{ key: 'left.bin' }]), 201);
      await expectStatus(api('PUT', `${files(id)}/left.bin/content`, content), 200);
      await initMultipart(id, 'parts-left.bin', 2 * MiB, MiB);
      await sendParts(id, 'parts-left.bin', crypto.randomBytes(2 * MiB), MiB, [1]);
      const before = await h.db.db
        .selectFrom('recordFiles')
        .select(['id', 'uploadKey', 'uploadId'])
        .where('status', '!=', 'completed')
        .execute();
      await h.server.kill();

      // Every unfinished upload is abandoned for this start; the sweep dies after its first row.
      const sweep = await runToEnd(['serve'], {
        ...h.env,
        PORT: String(await freePort()),
        CAIRN_PENDING_UPLOAD_MAX_AGE_HOURS: '0',
        CAIRN_TEST_CRASH_AT: 'sweep:row-removed',
      });
      expect(sweep.signal, sweep.output).toBe('SIGKILL');
      const after = await h.db.db
        .selectFrom('recordFiles')
        .select('id')
        .where('status', '!=', 'completed')
        .execute();
      expect(after.length).toBe(before.length - 1);

      // The next start frees the removed upload's bytes; the others are untouched and resumable.
      await h.restart();
      await expectNoLeftovers();
      const removed = before.find((r) => !after.some((a) => a.id === r.id))!;
      const stored = await storedFiles();
      expect(stored).not.toContainEqual(
        expect.stringContaining(removed.uploadId ?? removed.uploadKey!.split('/').pop()!),
      );
      if (await rowOf(id, 'left.bin')) {
        expect(await commitAgain(id, 'left.bin')).toMatchObject({
          checksum: `md5:${md5(content)}`,
        });
      }
      if (await rowOf(id, 'parts-left.bin')) {
        const listed = await expectStatus(api('GET', `${files(id)}/parts-left.bin/parts`), 200);
        expect(listed).toMatchObject({ received: [{ part: 1 }], missing: [2] });
      }
      await expectWhole();
    },
    SCENARIO_MS,
  );
});

// Two app servers behind one load balancer share the database and the store: a commit sent to
// the second while the first is still hashing must neither disturb it nor finish it twice.
describe.runIf(ENGINES.includes('postgres'))('a commit running on another app server', () => {
  let h: ProcessHarness;
  let second: ServerProcess;

  beforeAll(async () => {
    h = await startProcessHarness('postgres', { CAIRN_SWEEP_INTERVAL_SECONDS: '0' });
    second = await startServerProcess(h.env);
  }, SCENARIO_MS);

  afterAll(async () => {
    await second?.kill();
    await h?.close();
  });

  it(
    'answers 409 on the second server while the first commits, and the file completes once',
    async () => {
      const first = h.server;
      const db = h.db;
      const call = (server: ServerProcess, method: string, url: string, body?: unknown) =>
        callApi(server.url, method, url, h.headers, body);
      const json = (res: ApiAnswer) => res.json();

      const draft = await call(first, 'POST', '/api/records', { metadata: METADATA });
      const id = json(draft).id as string;
      const files = `/api/records/${id}/draft/files`;
      const partSize = 40 * MiB;
      const bytes = crypto.randomBytes(5 * partSize);
      expect(
        (
          await call(first, 'POST', files, [
            {
              key: 'big.bin',
              size: bytes.length,
              transfer: { type: 'M', parts: 5, part_size: partSize },
            },
          ])
        ).status,
      ).toBe(201);
      // The parts go through the second server: the first has no running hash, and hashes them all.
      for (let n = 1; n <= 5; n++) {
        const part = bytes.subarray((n - 1) * partSize, n * partSize);
        expect((await call(second, 'PUT', `${files}/big.bin/content/${n}`, part)).status).toBe(200);
      }
      const row = await db.db
        .selectFrom('recordFiles')
        .select('id')
        .where('bucket', '=', `draft:${id}`)
        .executeTakeFirstOrThrow();

      const committing = call(first, 'POST', `${files}/big.bin/commit`);
      await until('the first server to start committing', async () => {
        const current = await db.db
          .selectFrom('recordFiles')
          .select('status')
          .where('id', '=', row.id)
          .executeTakeFirst();
        return current?.status === 'committing';
      });
      const busy = await call(second, 'POST', `${files}/big.bin/commit`);
      const parts = await call(second, 'GET', `${files}/big.bin/parts`);
      const resend = await call(
        second,
        'PUT',
        `${files}/big.bin/content/1`,
        bytes.subarray(0, partSize),
      );
      const done = await committing;

      expect(done.status, done.bytes.toString('utf8')).toBe(200);
      expect(json(done)).toMatchObject({ status: 'completed', checksum: `md5:${md5(bytes)}` });
      // The second server's commit came while the first hashed (200 MiB take it a good while).
      expect(busy.status, busy.bytes.toString('utf8')).toBe(409);
      expect(json(busy)).toMatchObject({ code: 'CONFLICT' });
      expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
      // The next two came while it still held the file, or once it had completed it.
      const committed = { status: 400, message: 'File with key "big.bin" is already committed.' };
      if (resend.status === 409) expect(json(resend)).toMatchObject({ code: 'CONFLICT' });
      else expect(json(resend)).toMatchObject(committed);
      expect(parts.status).toBe(200);
      expect([0, 5]).toContain(json(parts).received.length);
      expect((await call(second, 'POST', `${files}/big.bin/commit`)).status).toBe(400);
      const read = await call(second, 'GET', `${files}/big.bin/content`);
      expect(read.bytes.length).toBe(bytes.length);
      expect(md5(read.bytes)).toBe(md5(bytes));
      const objects = await h.db.db.selectFrom('fileObjects').select('checksum').execute();
      expect(objects.map((o) => o.checksum)).toEqual([`md5:${md5(bytes)}`]);
    },
    SCENARIO_MS,
  );
});
