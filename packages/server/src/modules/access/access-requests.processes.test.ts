import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../database/database.js';
import { ENGINES } from '../../test/databases.js';
import { PUBLISHABLE_METADATA } from '../../test/files.js';
import {
  GUARD_MS,
  startProcessHarness,
  startServerPair,
  until,
  type ProcessHarness,
  type ServerPair,
} from '../../test/process-harness.js';
import { callApi, processUser, type ApiAnswer } from '../../test/server-process.js';
import { recipientsOf, startTestSmtp, type TestSmtp } from '../../test/smtp.js';

const START_TIMEOUT_MS = 120_000;

type Call = (
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
) => Promise<ApiAnswer>;

/** A published record of `owner`'s whose files are restricted, open to requests; its id. */
async function askableRecord(api: Call, owner: Record<string, string>): Promise<string> {
  const created = await api('POST', '/api/records', owner, {
    metadata: PUBLISHABLE_METADATA,
    files: { enabled: false },
    access: { record: 'public', files: 'restricted' },
  });
  expect(created.status, created.text).toBe(201);
  const id = created.json().id as string;
  const published = await api('POST', `/api/records/${id}/draft/actions/publish`, owner);
  expect(published.status, published.text).toBe(202);
  const settings = await api('PUT', `/api/records/${id}/access`, owner, {
    allow_user_requests: true,
    allow_guest_requests: true,
  });
  expect(settings.status, settings.text).toBe(200);
  return id;
}

/**
 * Every access request with what it gave: an accepted user's request has its person's grant, an
 * open or declined one none, and only a submitted one is open. What a half-done accept would break.
 */
async function expectWhole(db: DatabaseHandle) {
  const rows = await db.db
    .selectFrom('requests as r')
    .innerJoin('accessRequests as a', 'a.requestId', 'r.id')
    .leftJoin('recordGrants as g', (j) =>
      j.onRef('g.parentId', '=', 'a.parentId').onRef('g.userId', '=', 'a.userId'),
    )
    .select(['r.id', 'r.status', 'a.isOpen', 'a.userId', 'g.id as grant'])
    .execute();
  for (const r of rows) {
    expect(r.isOpen, r.id).toBe(r.status === 'submitted' ? 1 : 0);
    if (r.userId !== null) expect(r.grant !== null, r.id).toBe(r.status === 'accepted');
  }
  return rows;
}

describe.each(ENGINES)('access requests and a killed server on %s', (engine) => {
  let h: ProcessHarness;
  beforeAll(async () => {
    h = await startProcessHarness(engine, {});
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  it(
    'leaves every request accepted with its grant or still open when the server is killed amid accepts',
    async () => {
      const api: Call = (method, url, headers, body) =>
        callApi(h.server.url, method, url, headers, body);
      const record = await askableRecord(api, h.headers);
      const readers = await Promise.all(Array.from({ length: 6 }, () => processUser(h.env)));
      const requests: string[] = [];
      for (const reader of readers) {
        const asked = await api('POST', `/api/records/${record}/access/request`, reader.headers, {
          message: 'May I?',
        });
        expect(asked.status, asked.text).toBe(200);
        requests.push(asked.json().id as string);
      }
      // Accepts in flight while the server is killed.
      const inFlight = requests.map((id) =>
        h
          .api('POST', `/api/requests/${id}/actions/accept`, {
            payload: { secret_link_expiration: 10 },
          })
          .catch(() => undefined),
      );
      await new Promise((resolve) => setTimeout(resolve, 30));
      await h.restart();
      await Promise.all(inFlight);
      await expectWhole(h.db);
      // After the restart what is still open can be accepted, and every reader gets the files.
      for (const id of requests) {
        const again = await h.api('POST', `/api/requests/${id}/actions/accept`);
        expect([200, 400]).toContain(again.status);
      }
      const rows = await expectWhole(h.db);
      expect(rows.map((r) => r.status)).toEqual(Array(readers.length).fill('accepted'));
      const users = await h.api('GET', `/api/records/${record}/access/users`);
      expect(users.json().hits.total).toBe(readers.length);
    },
    GUARD_MS,
  );
});

describe.skipIf(!ENGINES.includes('postgres'))(
  'access requests through two servers on one PostgreSQL database',
  () => {
    let smtp: TestSmtp;
    let pair: ServerPair | undefined;
    let db: DatabaseHandle;
    let env: Record<string, string>;
    let via: ServerPair['via'];

    beforeAll(async () => {
      smtp = await startTestSmtp();
      pair = await startServerPair({ CAIRN_SMTP_URL: smtp.url, CAIRN_MAIL_RETRY_SECONDS: '0' });
      ({ db, env, via } = pair);
    }, START_TIMEOUT_MS);
    afterAll(async () => {
      await pair?.close();
      await smtp?.close();
    });

    it(
      "makes one request of a guest's confirmation followed through both servers at once",
      async () => {
        const owner = await processUser(env);
        const record = await askableRecord(via(0), owner.headers);
        const guest = `guest-${Date.now()}@example.org`;
        const asked = await via(1)(
          'POST',
          `/api/records/${record}/access/request`,
          {},
          {
            email: guest,
            full_name: 'Ada Guest',
          },
        );
        expect(asked.status, asked.text).toBe(200);
        const token = await until('the confirmation is mailed', () => {
          const mail = smtp.received.find((m) => recipientsOf(m).includes(guest));
          return Promise.resolve(
            /\/access-requests\/verify\?token=([^\s]+)/.exec(mail?.text ?? '')?.[1],
          );
        });
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            via(i)('POST', '/api/access-requests/verify', {}, { token }),
          ),
        );
        expect(answers.map((a) => a.status).sort()).toEqual([
          200, 400, 400, 400, 400, 400, 400, 400,
        ]);
        const made = await db.db
          .selectFrom('requests')
          .select('id')
          .where('topicRecordId', '=', record)
          .where('type', '=', 'guest-access-request')
          .execute();
        expect(made).toHaveLength(1);
        await expectWhole(db);
      },
      GUARD_MS,
    );

    it(
      'decides a request once when the owner accepts on one server and declines on the other',
      async () => {
        const owner = await processUser(env);
        const record = await askableRecord(via(0), owner.headers);
        for (let round = 0; round < 3; round++) {
          const reader = await processUser(env);
          const asked = await via(round)(
            'POST',
            `/api/records/${record}/access/request`,
            reader.headers,
            {},
          );
          expect(asked.status, asked.text).toBe(200);
          const id = asked.json().id as string;
          const decisions = await Promise.all(
            Array.from({ length: 6 }, (_, i) =>
              via(i)(
                'POST',
                `/api/requests/${id}/actions/${i % 2 === 0 ? 'accept' : 'decline'}`,
                owner.headers,
              ),
            ),
          );
          expect(decisions.filter((d) => d.status === 200)).toHaveLength(1);
          for (const d of decisions.filter((x) => x.status !== 200)) expect(d.status).toBe(400);
          const final = decisions.find((d) => d.status === 200)!.json().status as string;
          const files = await via(round + 1)(
            'GET',
            `/api/records/${record}/access/users`,
            owner.headers,
          );
          const granted = (files.json().hits.hits as Array<{ subject: { id: string } }>).length;
          const rows = await expectWhole(db);
          expect(rows.find((r) => r.id === id)?.status).toBe(final);
          expect(granted).toBe(
            rows.filter((r) => r.status === 'accepted' && r.userId !== null).length,
          );
        }
      },
      GUARD_MS,
    );
  },
);
