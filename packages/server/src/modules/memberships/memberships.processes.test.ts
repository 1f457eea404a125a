import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../database/database.js';
import { ENGINES } from '../../test/databases.js';
import {
  GUARD_MS,
  startProcessHarness,
  startServerPair,
  type ProcessHarness,
  type ServerPair,
} from '../../test/process-harness.js';
import { callApi, processUser } from '../../test/server-process.js';

const START_TIMEOUT_MS = 120_000;

async function idOf(db: DatabaseHandle, email: string): Promise<number> {
  const row = await db.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Every invitation or request to join in the database with what it would make of its person,
 * and no person with two open ones for one community: what a half-done invitation would break.
 */
async function expectWhole(db: DatabaseHandle) {
  const requests = await db.db
    .selectFrom('requests as r')
    .leftJoin('communityMemberRequests as p', 'p.requestId', 'r.id')
    .select(['r.id', 'r.status', 'p.requestId as pending', 'p.isOpen'])
    .where('r.type', 'in', ['community-invitation', 'community-membership-request'])
    .execute();
  for (const r of requests) {
    expect(r.pending, r.id).toBe(r.id);
    expect(r.isOpen, r.id).toBe(r.status === 'submitted' ? 1 : 0);
  }
  const open = await db.db
    .selectFrom('communityMemberRequests')
    .select(['communityId', 'userId', (eb) => eb.fn.countAll<number>().as('n')])
    .where('isOpen', '=', 1)
    .groupBy(['communityId', 'userId'])
    .execute();
  for (const o of open) expect(Number(o.n)).toBe(1);
  return requests.length;
}

describe.each(ENGINES)('invitations and a killed server on %s', (engine) => {
  let h: ProcessHarness;
  beforeAll(async () => {
    h = await startProcessHarness(engine, {});
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  it(
    'leaves every invitation whole or absent when the server is killed amid a burst',
    async () => {
      const made = await h.api('POST', '/api/communities', {
        slug: 'burst',
        metadata: { title: 'Burst' },
      });
      expect(made.status, made.text).toBe(201);
      const community = made.json().id as string;
      const people = await Promise.all(Array.from({ length: 6 }, () => processUser(h.env)));
      const ids = await Promise.all(people.map((p) => idOf(h.db, p.email)));
      // Invitations in flight, twice each (one must be refused), while the server is killed.
      const inFlight = ids.flatMap((id) =>
        [0, 1].map(() =>
          h
            .api('POST', `/api/communities/${community}/invitations`, {
              members: [{ type: 'user', id: String(id) }],
              role: 'reader',
            })
            .catch(() => undefined),
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 30));
      await h.restart();
      await Promise.all(inFlight);
      await expectWhole(h.db);
      // After the restart every person can be invited, once.
      for (const id of ids) {
        const again = await h.api('POST', `/api/communities/${community}/invitations`, {
          members: [{ type: 'user', id: String(id) }],
          role: 'reader',
        });
        expect([204, 400]).toContain(again.status);
      }
      const listed = await h.api('GET', `/api/communities/${community}/invitations?size=50`);
      expect(listed.json().hits.total).toBe(ids.length);
      expect(await expectWhole(h.db)).toBe(ids.length);
    },
    GUARD_MS,
  );
});

describe.skipIf(!ENGINES.includes('postgres'))(
  'invitations and requests to join through two servers on one PostgreSQL database',
  () => {
    let pair: ServerPair | undefined;
    let db: DatabaseHandle;
    let env: Record<string, string>;

    beforeAll(async () => {
      pair = await startServerPair({});
      ({ db, env } = pair);
    }, START_TIMEOUT_MS);
    afterAll(() => pair?.close());

    it(
      'invites once, takes one request to join, and decides each once, whichever server is asked',
      async () => {
        const via = (i: number) => pair!.servers[i % 2]!.url;
        const owner = await processUser(env);
        const asker = await processUser(env);
        const invitee = await processUser(env);
        const made = await callApi(via(0), 'POST', '/api/communities', owner.headers, {
          slug: 'two-servers',
          metadata: { title: 'Two servers' },
        });
        const community = made.json().id as string;
        const inviteeId = await idOf(db, invitee.email);

        const invites = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            callApi(via(i), 'POST', `/api/communities/${community}/invitations`, owner.headers, {
              members: [{ type: 'user', id: String(inviteeId) }],
              role: 'curator',
            }),
          ),
        );
        expect(invites.map((r) => r.status).sort()).toEqual([
          204, 400, 400, 400, 400, 400, 400, 400,
        ]);

        const asks = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            callApi(
              via(i),
              'POST',
              `/api/communities/${community}/membership-requests`,
              asker.headers,
              {},
            ),
          ),
        );
        expect(asks.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
        const ask = asks.find((r) => r.status === 201)!.json().id as string;

        // The asker cancels while the owner accepts and declines, on both servers: one wins.
        const decisions = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            i % 3 === 0
              ? callApi(via(i), 'POST', `/api/requests/${ask}/actions/cancel`, asker.headers)
              : callApi(
                  via(i),
                  'POST',
                  `/api/requests/${ask}/actions/${i % 3 === 1 ? 'accept' : 'decline'}`,
                  owner.headers,
                ),
          ),
        );
        expect(decisions.filter((r) => r.status === 200)).toHaveLength(1);
        const final = decisions.find((r) => r.status === 200)!.json().status as string;
        const members = await callApi(
          via(1),
          'GET',
          `/api/communities/${community}/members`,
          owner.headers,
        );
        const askerId = String(await idOf(db, asker.email));
        const isMember = (members.json().hits.hits as Array<{ member: { id: string } }>).some(
          (m) => m.member.id === askerId,
        );
        expect(isMember).toBe(final === 'accepted');
        await expectWhole(db);
      },
      GUARD_MS,
    );
  },
);
