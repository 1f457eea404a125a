import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../database/database.js';
import { ENGINES } from '../../test/databases.js';
import { draftForReview, type Api } from '../../test/communities.js';
import {
  GUARD_MS,
  startProcessHarness,
  until,
  type ProcessHarness,
} from '../../test/process-harness.js';
import {
  callApi,
  createProcessDatabase,
  processUser,
  startServerProcess,
  tempDataDir,
  type ServerProcess,
} from '../../test/server-process.js';
import { recipientsOf, startTestSmtp, type TestSmtp } from '../../test/smtp.js';

const START_TIMEOUT_MS = 120_000;

/** The settings of every server below: retries and the periodic sweep without delay. */
const MAIL_ENV = {
  CAIRN_MAIL_RETRY_SECONDS: '0',
  CAIRN_MAIL_LEASE_SECONDS: '6',
  CAIRN_SWEEP_INTERVAL_SECONDS: '1',
};

/** A person's id, read from the database the servers share. */
async function idOf(db: DatabaseHandle, email: string): Promise<number> {
  const row = await db.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A community of `owner`'s with `curators`; its id. */
async function communityWith(
  api: Api,
  db: DatabaseHandle,
  owner: Record<string, string>,
  slug: string,
  curators: string[],
): Promise<string> {
  const made = await api('POST', '/api/communities', owner, {
    slug,
    metadata: { title: slug },
    access: { review_policy: 'closed' },
  });
  expect(made.status, made.text).toBe(201);
  const id = made.json().id as string;
  for (const email of curators) {
    const added = await api('POST', `/api/communities/${id}/members`, owner, {
      members: [{ type: 'user', id: String(await idOf(db, email)) }],
      role: 'curator',
    });
    expect(added.status, added.text).toBe(204);
  }
  return id;
}

const outboxRows = (db: DatabaseHandle) =>
  db.db.selectFrom('mailOutbox').selectAll().orderBy('id').execute();

describe.each(ENGINES)('e-mail and a killed server on %s', (engine) => {
  let smtp: TestSmtp;
  let h: ProcessHarness;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    h = await startProcessHarness(engine, { ...MAIL_ENV, CAIRN_SMTP_URL: smtp.url });
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
  });

  // Two restarts and the killed server's lease to run out: more than an in-process test's time.
  it(
    'sends what a server killed with its messages claimed had queued, once each, after a restart',
    async () => {
      const api: Api = (method, url, headers, body) =>
        callApi(h.server.url, method, url, headers, body);
      const curators = [await processUser(h.env), await processUser(h.env)];
      const depositor = await processUser(h.env);
      const owner = h.headers;
      const community = await communityWith(
        api,
        h.db,
        owner,
        'killed',
        curators.map((c) => c.email),
      );
      const { draft } = await draftForReview(api, depositor.headers, community);

      // The server dies as soon as its sender has claimed the messages of the submission: after
      // the action committed, before anything was sent.
      await h.restart({ CAIRN_TEST_CRASH_AT: 'mail:claimed' });
      await api(
        'POST',
        `/api/records/${draft}/draft/actions/submit-review`,
        depositor.headers,
      ).catch(() => undefined);
      expect(await h.server.exited).toBeNull();
      const claimed = await outboxRows(h.db);
      expect(claimed).toHaveLength(3);
      expect(claimed.every((row) => row.leaseToken !== null && row.attempts === 1)).toBe(true);
      expect(smtp.received).toEqual([]);

      await h.restart();
      await until('the outbox is empty', async () => (await outboxRows(h.db)).length === 0);
      const owners = smtp.received.flatMap(recipientsOf).sort();
      expect(owners).toHaveLength(3);
      expect(new Set(owners).size).toBe(3);
      expect(owners).toContain(curators[0]!.email);
      expect(owners).toContain(curators[1]!.email);
      const review = await api('GET', `/api/records/${draft}/draft/review`, depositor.headers);
      expect(review.json().status).toBe('submitted');
    },
    GUARD_MS,
  );
});

describe.skipIf(!ENGINES.includes('postgres'))(
  'e-mail from two servers on one PostgreSQL database',
  () => {
    let smtp: TestSmtp;
    const servers: ServerProcess[] = [];
    const cleanups: Array<() => Promise<void>> = [];
    let db: DatabaseHandle;
    let env: Record<string, string>;
    /** The first server's data folder, for the commands that make accounts. */
    let dataDir = '';

    beforeAll(async () => {
      smtp = await startTestSmtp();
      const database = await createProcessDatabase();
      cleanups.push(database.drop);
      env = { NODE_ENV: 'test', DATABASE_URL: database.url, CAIRN_SMTP_URL: smtp.url, ...MAIL_ENV };
      for (let i = 0; i < 2; i++) {
        const data = await tempDataDir();
        cleanups.push(data.remove);
        dataDir ||= data.dir;
        servers.push(await startServerProcess({ ...env, CAIRN_DATA_DIR: data.dir }));
      }
      db = openDatabase({ kind: 'postgres', url: database.url });
    }, START_TIMEOUT_MS);
    afterAll(async () => {
      for (const server of servers) await server.kill();
      await db?.close();
      for (const cleanup of cleanups.reverse()) await cleanup();
      await smtp?.close();
    });

    it(
      'delivers every message exactly once while both send',
      async () => {
        const api =
          (via: number): Api =>
          (method, url, headers, body) =>
            callApi(servers[via % 2]!.url, method, url, headers, body);
        const owner = await processUser({ ...env, CAIRN_DATA_DIR: dataDir });
        const depositor = await processUser({ ...env, CAIRN_DATA_DIR: dataDir });
        const community = await communityWith(api(0), db, owner.headers, 'shared', []);
        const { draft } = await draftForReview(api(1), depositor.headers, community);
        const submitted = await api(0)(
          'POST',
          `/api/records/${draft}/draft/actions/submit-review`,
          depositor.headers,
        );
        expect(submitted.status, submitted.text).toBe(202);
        const request = submitted.json().id as string;
        const comments = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            api(i)(
              'POST',
              `/api/requests/${request}/comments`,
              i % 4 < 2 ? owner.headers : depositor.headers,
              {
                payload: { content: `comment ${i}`, format: 'html' },
              },
            ),
          ),
        );
        expect(comments.map((c) => c.status)).toEqual(Array(40).fill(201));
        await until('the outbox is empty', async () => (await outboxRows(db)).length === 0);
        const received = smtp.received;
        expect(received).toHaveLength(41);
        expect(new Set(received.map((m) => m.messageId)).size).toBe(41);
        const seen = received.map(
          (m) =>
            `${recipientsOf(m).join()} ${/comment \d+/.exec(m.text ?? '')?.[0] ?? 'submitted'}`,
        );
        expect(new Set(seen).size).toBe(41);
        expect(seen.filter((s) => s.startsWith(owner.email))).toHaveLength(21);
      },
      GUARD_MS,
    );
  },
);
