import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { addMember, createCommunity, requestAs } from '../../test/communities.js';
import type { Caller } from '../../test/files.js';
import { StatementCounter } from '../../test/statements.js';

// What a page of the inbox, and of a request's timeline, costs the database in statements: the
// caller's roles in the page's communities and the people and communities its hits name are each
// read in one statement, whatever the page's size. They were read one request (and one person)
// at a time: some 60 round trips for the inbox's 20 hits, which PostgreSQL pays each of.

const COMMUNITIES = 3;
const REQUESTS = 12;

interface Hit {
  created_by: { user: string };
  receiver: { community: string };
  links: { actions: Record<string, string> };
  expanded: { created_by: { id: string }; receiver: { id: string; slug: string } };
}

describe.each(ENGINES)('statements of a page of requests (%s)', (engine) => {
  let t: TestApp;
  let curator: Caller;
  const depositors: Caller[] = [];
  let firstRequest: string;
  const counter = new StatementCounter();

  beforeAll(async () => {
    t = await createTestApp(engine, {}, {}, { observer: counter });
    const owner = await t.user();
    curator = await t.user();
    const communities: string[] = [];
    for (let i = 0; i < COMMUNITIES; i++) {
      const id = await createCommunity(t, owner, `c${i}`, {});
      await addMember(t, owner, id, curator, 'curator');
      communities.push(id);
    }
    for (let i = 0; i < REQUESTS; i++) {
      const depositor = await t.user();
      depositors.push(depositor);
      const row = await t.services.requests.create({
        type: 'community-inclusion',
        createdBy: depositor.id,
        communityId: communities[i % COMMUNITIES]!,
        topicRecordId: null,
        title: `Request ${i}`,
      });
      await t.services.requests.run(
        row,
        'submit',
        (await t.services.users.findById(depositor.id))!,
      );
      firstRequest ??= row.id;
    }
  });
  afterAll(() => t?.close());

  async function statementsOf(url: string) {
    // The comments' e-mail is sent after their requests answered: not this page's cost.
    await t.services.mail.idle();
    const { result, statements } = await counter.measure(() => requestAs(t, 'GET', url, curator));
    expect(result.statusCode, result.body).toBe(200);
    return { body: result.json<{ hits: { hits: Hit[]; total: number } }>(), statements };
  }

  it('reads a page of many requests in as many statements as a page of one', async () => {
    const list = (size: number) => `/api/user/requests?expand=1&is_open=true&size=${size}`;
    // The first request of a token also writes when it was used: not the page's cost.
    await statementsOf(list(1));
    const one = await statementsOf(list(1));
    const many = await statementsOf(list(REQUESTS));
    expect(many.body.hits.total).toBe(REQUESTS);
    expect(many.statements.length, many.statements.join('\n')).toBe(one.statements.length);
    // What the reads of the whole page gave each hit: the curator's actions, its people and places.
    expect(many.body.hits.hits).toHaveLength(REQUESTS);
    for (const hit of many.body.hits.hits) {
      expect(Object.keys(hit.links.actions).sort()).toEqual(['accept', 'decline']);
      expect(hit.expanded.created_by.id).toBe(hit.created_by.user);
      expect(hit.expanded.receiver.id).toBe(hit.receiver.community);
      expect(hit.expanded.receiver.slug).toMatch(/^c\d$/);
    }
  });

  it("reads a page of a timeline's comments by many people in as many statements as one", async () => {
    const speakers = [curator, ...depositors.slice(0, 4)];
    for (const speaker of speakers) {
      const res = await requestAs(t, 'POST', `/api/requests/${firstRequest}/comments`, speaker, {
        payload: { content: `<p>From ${speaker.id}</p>`, format: 'html' },
      });
      // Only the creator and the curators take part; the others are refused, and say nothing.
      expect([201, 403]).toContain(res.statusCode);
    }
    const timeline = (size: number) =>
      `/api/requests/${firstRequest}/timeline?expand=1&size=${size}`;
    await statementsOf(timeline(1));
    const one = await statementsOf(timeline(1));
    const many = await statementsOf(timeline(25));
    const hits = many.body.hits.hits as unknown as Array<{
      created_by: { user: string };
      expanded: { created_by?: { id: string } };
    }>;
    expect(new Set(hits.map((h) => h.created_by.user)).size).toBeGreaterThan(1);
    for (const hit of hits) expect(hit.expanded.created_by?.id).toBe(hit.created_by.user);
    expect(many.statements.length, many.statements.join('\n')).toBe(one.statements.length);
  });
});
