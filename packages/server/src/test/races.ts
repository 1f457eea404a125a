/**
 * The race harness the race tests share: every state-changing action of a record sent RACERS at
 * once, in one process or across two server processes, with the checks of what must hold after
 * each race (the outcome of some serial order of the calls; files intact). It is one file, longer
 * than the others, because the races and their checks are one table: the same actions run in
 * both race tests, and a race added here runs in both.
 */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import { PUBLISHABLE_METADATA, md5 } from './files.js';

/** How many requests each race fires at once. */
export const RACERS = 20;

/** A signed-in caller: the headers that authenticate it. */
export interface Racer {
  headers: Record<string, string>;
}

export interface Reply {
  status: number;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: any;
  bytes: Buffer;
}

/**
 * One request to the app under test. `via` picks the server when there are several: a race sends
 * request i through server i mod N, so its requests alternate between processes. A Buffer body is
 * sent as raw bytes, anything else as JSON.
 */
export type Send = (
  via: number,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  caller: Racer | undefined,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<Reply>;

/** The headers and body of a request as `Send` describes it, for either way of sending. */
export function encodeRequest(
  caller: Racer | undefined,
  body: unknown,
  headers: Record<string, string>,
): { headers: Record<string, string>; payload?: Buffer | string } {
  if (body === undefined) return { headers: { ...caller?.headers, ...headers } };
  const raw = Buffer.isBuffer(body);
  return {
    headers: {
      ...caller?.headers,
      'content-type': raw ? 'application/octet-stream' : 'application/json',
      ...headers,
    },
    payload: raw ? body : JSON.stringify(body),
  };
}

/** A response as `Send` answers it: the body parsed when it is JSON. */
export function decodeReply(status: number, contentType: string, bytes: Buffer): Reply {
  const json = /^application\/(.+\+)?json/.test(contentType) && bytes.length > 0;
  return { status, body: json ? JSON.parse(bytes.toString()) : undefined, bytes };
}

/** What every race scenario works with: the app, two people and two communities. */
export interface RaceWorld {
  send: Send;
  /** Deposits the records. */
  owner: Racer;
  /** Curates `reviewed`. */
  curator: Racer;
  /** An administrator: deletes and restores records. */
  admin: Racer;
  /** Reviews every submission (review policy closed); `curator` owns it. */
  reviewed: string;
  /** The owner curates it and may include directly (review policy open). */
  direct: string;
}

/** Makes the two communities of a world; `send` and the people exist already. */
export async function createRaceWorld(
  send: Send,
  owner: Racer,
  curator: Racer,
  admin: Racer,
): Promise<RaceWorld> {
  const community = async (caller: Racer, review: string) => {
    const slug = `race-${review}-${crypto.randomBytes(4).toString('hex')}`;
    const res = await send(0, 'POST', '/api/communities', caller, {
      slug,
      metadata: { title: slug },
      access: { review_policy: review },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  return {
    send,
    owner,
    curator,
    admin,
    reviewed: await community(curator, 'closed'),
    direct: await community(owner, 'open'),
  };
}

const PID_DOES_NOT_EXIST = {
  status: 404,
  code: 'PID_DOES_NOT_EXIST',
  message: 'The persistent identifier does not exist.',
};

const validation = (message: string, errors?: unknown[]) => ({
  status: 400,
  code: 'VALIDATION_FAILED',
  message,
  ...(errors ? { errors } : {}),
});

const REMOVAL = { removal_reason: { id: 'spam' }, note: 'raced' };
const ALREADY_DELETED = {
  status: 400,
  code: 'RECORD_ALREADY_DELETED',
  message: 'Record is already deleted',
};
const NOT_DELETED = { status: 400, code: 'RECORD_NOT_DELETED', message: 'Record is not deleted' };

const FILES_PENDING = validation('A validation error occurred.', [
  {
    field: 'files',
    messages: ['One or more files have not completed their transfer, please wait.'],
  },
]);

function ok(res: Reply, status: number): Reply {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res;
}

/**
 * Fires `n` requests at once; request i goes through `fire(i)`. With `spreadMs`, request i goes
 * i × spreadMs later instead, so that some arrive while the first ones are being answered and
 * some after (a way to meet more interleavings, never a bound on how long anything takes).
 */
export function race(
  n: number,
  fire: (i: number) => Promise<Reply>,
  spreadMs = 0,
): Promise<Reply[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      if (spreadMs > 0) await new Promise((resolve) => setTimeout(resolve, i * spreadMs));
      return fire(i);
    }),
  );
}

/** RACERS times the same request by the owner, alternating between servers. */
function raceSame(w: RaceWorld, method: 'POST' | 'PUT' | 'DELETE', url: string, body?: object) {
  return race(RACERS, (i) => w.send(i, method, url, w.owner, body));
}

/** Status → how many replies had it, for readable failures. */
function statuses(replies: Reply[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of replies) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

/** Exactly one reply is `winner`; every other is exactly the error body `loser`. */
function expectOneWinner(replies: Reply[], winner: number, loser: object): Reply {
  const winners = replies.filter((r) => r.status === winner);
  expect(winners.length, JSON.stringify(statuses(replies))).toBe(1);
  for (const r of replies) if (r.status !== winner) expect(r.body).toEqual(loser);
  return winners[0]!;
}

/** The multipart/form-data body of `POST …/draft/files-upload`: the list, then each content. */
function formData(announced: Array<{ key: string; size: number }>, files: Record<string, Buffer>) {
  const boundary = `race-${crypto.randomBytes(8).toString('hex')}`;
  const part = (name: string, filename?: string) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"` +
        `${filename ? `; filename="${filename}"` : ''}\r\n\r\n`,
    );
  const body = Buffer.concat([
    part('files'),
    Buffer.from(`${JSON.stringify(announced)}\r\n`),
    ...announced.flatMap(({ key }) => [part('content', key), files[key]!, Buffer.from('\r\n')]),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

/** A unique word, so that searches find exactly what one round made. */
const word = () => `race${crypto.randomBytes(5).toString('hex')}`;

async function newDraft(w: RaceWorld, title = word(), files = true): Promise<string> {
  const res = ok(
    await w.send(0, 'POST', '/api/records', w.owner, {
      metadata: { ...PUBLISHABLE_METADATA, title },
      files: { enabled: files },
    }),
    201,
  );
  return res.body.id as string;
}

/** Announces a file and sends its bytes; commits them unless told not to. */
async function addFile(w: RaceWorld, id: string, key: string, commit = true): Promise<Buffer> {
  const bytes = crypto.randomBytes(64 * 1024);
  ok(await w.send(0, 'POST', `/api/records/${id}/draft/files`, w.owner, [{ key }]), 201);
  ok(await w.send(1, 'PUT', `/api/records/${id}/draft/files/${key}/content`, w.owner, bytes), 200);
  if (commit)
    ok(await w.send(0, 'POST', `/api/records/${id}/draft/files/${key}/commit`, w.owner), 200);
  return bytes;
}

async function draftWithFile(w: RaceWorld, title = word()) {
  const id = await newDraft(w, title);
  return { id, title, files: { 'data.bin': await addFile(w, id, 'data.bin') } };
}

async function publishedRecord(w: RaceWorld) {
  const draft = await draftWithFile(w);
  ok(await w.send(0, 'POST', `/api/records/${draft.id}/draft/actions/publish`, w.owner), 202);
  return draft;
}

/**
 * The published record's files are exactly `files`: listed with the right size and checksum, and
 * their bytes downloadable and equal to what was uploaded.
 */
async function expectRecordFiles(
  w: RaceWorld,
  id: string,
  files: Record<string, Buffer>,
  prefix = `/api/records/${id}`,
): Promise<void> {
  const read = ok(await w.send(1, 'GET', prefix, w.owner), 200);
  expect(read.body.files).toMatchObject({ enabled: true, count: Object.keys(files).length });
  const listed = ok(await w.send(0, 'GET', `${prefix}/files`, w.owner), 200);
  const entries = listed.body.entries as Array<Record<string, unknown>>;
  expect(entries.map((e) => e.key).sort()).toEqual(Object.keys(files).sort());
  for (const [key, bytes] of Object.entries(files)) {
    expect(entries.find((e) => e.key === key)).toMatchObject({
      status: 'completed',
      size: bytes.length,
      checksum: `md5:${md5(bytes)}`,
    });
    const content = ok(await w.send(1, 'GET', `${prefix}/files/${key}/content`, w.owner), 200);
    expect(content.bytes.equals(bytes)).toBe(true);
  }
}

const expectDraftFiles = (w: RaceWorld, id: string, files: Record<string, Buffer>) =>
  expectRecordFiles(w, id, files, `/api/records/${id}/draft`);

/** How many of the owner's drafts that were never published carry `title`. */
async function unpublishedDrafts(w: RaceWorld, title: string): Promise<number> {
  const res = ok(
    await w.send(0, 'GET', `/api/user/records?q=${title}&is_published=false`, w.owner),
    200,
  );
  return res.body.hits.total as number;
}

/** The requests titled `title` that the curator can see, newest first. */
async function requestsTitled(w: RaceWorld, title: string): Promise<Array<Record<string, any>>> {
  const res = ok(await w.send(0, 'GET', `/api/requests?q=${title}&sort=newest`, w.owner), 200);
  return res.body.hits.hits as Array<Record<string, any>>;
}

/** A draft with one file, under review by `community` (submitted unless told not to). */
async function draftUnderReview(w: RaceWorld, community: string, submit = true) {
  const draft = await draftWithFile(w);
  ok(
    await w.send(0, 'PUT', `/api/records/${draft.id}/draft/review`, w.owner, {
      type: 'community-submission',
      receiver: { community },
    }),
    200,
  );
  let requestId = '';
  if (submit) {
    const res = ok(
      await w.send(1, 'POST', `/api/records/${draft.id}/draft/actions/submit-review`, w.owner, {
        require_review: true,
      }),
      202,
    );
    requestId = res.body.id as string;
  }
  return { ...draft, requestId };
}

const act = (w: RaceWorld, i: number, requestId: string, action: string, caller: Racer) =>
  w.send(i, 'POST', `/api/requests/${requestId}/actions/${action}`, caller);

/** The record was published into `community` by its accepted request, its files intact. */
async function expectAccepted(
  w: RaceWorld,
  draft: { id: string; files: Record<string, Buffer> },
  requestId: string,
  community: string,
): Promise<void> {
  const record = ok(await w.send(0, 'GET', `/api/records/${draft.id}`, w.owner), 200);
  expect(record.body.parent.communities.ids).toEqual([community]);
  expect(record.body.parent.review).toBeUndefined();
  await expectRecordFiles(w, draft.id, draft.files);
  expect((await w.send(1, 'GET', `/api/records/${draft.id}/draft`, w.owner)).status).toBe(404);
  const request = ok(await w.send(1, 'GET', `/api/requests/${requestId}`, w.owner), 200);
  expect(request.body.status).toBe('accepted');
}

/** The draft is still a draft, its review `status` on both the request and the draft. */
async function expectStillUnderReview(
  w: RaceWorld,
  draft: { id: string; files: Record<string, Buffer> },
  requestId: string,
  status: string,
): Promise<void> {
  expect((await w.send(0, 'GET', `/api/records/${draft.id}`, w.owner)).status).toBe(404);
  const read = ok(await w.send(1, 'GET', `/api/records/${draft.id}/draft`, w.owner), 200);
  expect(read.body.parent.review).toMatchObject({ id: requestId, status });
  await expectDraftFiles(w, draft.id, draft.files);
  const request = ok(await w.send(0, 'GET', `/api/requests/${requestId}`, w.owner), 200);
  expect(request.body.status).toBe(status);
}

/** Two actions racing on one submitted request: exactly one of all the calls wins. */
async function requestActionsRace(w: RaceWorld, other: 'decline' | 'cancel'): Promise<void> {
  const draft = await draftUnderReview(w, w.reviewed);
  const otherCaller = other === 'cancel' ? w.owner : w.curator;
  const replies = await race(RACERS, (i) =>
    i % 2 === 0
      ? act(w, i, draft.requestId, 'accept', w.curator)
      : act(w, i, draft.requestId, other, otherCaller),
  );
  const winners = replies.filter((r) => r.status === 200);
  expect(winners.length, JSON.stringify(statuses(replies))).toBe(1);
  const outcome = winners[0]!.body.status as string;
  replies.forEach((r, i) => {
    if (r.status === 200) return;
    const action = i % 2 === 0 ? 'accept' : other;
    expect(r.body).toEqual(validation(`Cannot ${action} a request that is ${outcome}.`));
  });
  if (outcome === 'accepted') await expectAccepted(w, draft, draft.requestId, w.reviewed);
  else await expectStillUnderReview(w, draft, draft.requestId, outcome);
}

/**
 * Submits a draft for review RACERS times at once: one request is submitted, the other calls
 * find it so (400), and the draft's requests are that one and `earlier` (id and status, newest
 * first).
 */
async function submitRace(
  w: RaceWorld,
  draft: { id: string; title: string; files: Record<string, Buffer> },
  earlier: Array<[string, string]>,
): Promise<void> {
  const replies = await raceSame(
    w,
    'POST',
    `/api/records/${draft.id}/draft/actions/submit-review`,
    {},
  );
  const winner = expectOneWinner(
    replies,
    202,
    validation('The draft is already submitted for review.'),
  );
  const requestId = winner.body.id as string;
  const requests = await requestsTitled(w, draft.title);
  expect(requests.map((r) => [r.id as string, r.status as string])).toEqual([
    [requestId, 'submitted'],
    ...earlier,
  ]);
  await expectStillUnderReview(w, draft, requestId, 'submitted');
}

export interface RaceScenario {
  name: string;
  run(w: RaceWorld): Promise<void>;
}

/**
 * Every state-changing action that can race, each fired RACERS times at once (alternating
 * between servers when there are several). The rule each checks: the outcome is that of some
 * serial order of the calls, and every loser gets exactly what it would get if sent after the
 * winner finished.
 */
export const RACE_SCENARIOS: RaceScenario[] = [
  {
    name: 'delete: one 204, the others 400, and the record answers its tombstone',
    async run(w) {
      const record = await publishedRecord(w);
      const replies = await race(RACERS, (i) =>
        w.send(i, 'DELETE', `/api/records/${record.id}/delete`, w.admin, REMOVAL),
      );
      expectOneWinner(replies, 204, ALREADY_DELETED);
      const gone = await w.send(0, 'GET', `/api/records/${record.id}`, w.owner);
      expect(gone.status).toBe(410);
      expect(gone.body.tombstone).toMatchObject({ removal_reason: { id: 'spam' } });
    },
  },
  {
    name: 'restore: one 200, the others 400, and the record and its files are back',
    async run(w) {
      const record = await publishedRecord(w);
      ok(await w.send(0, 'DELETE', `/api/records/${record.id}/delete`, w.admin, REMOVAL), 204);
      const replies = await race(RACERS, (i) =>
        w.send(i, 'POST', `/api/records/${record.id}/restore`, w.admin),
      );
      expectOneWinner(replies, 200, NOT_DELETED);
      await expectRecordFiles(w, record.id, record.files);
    },
  },
  {
    name: 'delete racing the publish of an edit: the record ends deleted, its files intact',
    async run(w) {
      const record = await publishedRecord(w);
      ok(await w.send(0, 'POST', `/api/records/${record.id}/draft`, w.owner), 201);
      const replies = await race(RACERS, (i) =>
        i % 2 === 0
          ? w.send(i, 'DELETE', `/api/records/${record.id}/delete`, w.admin, REMOVAL)
          : w.send(i, 'POST', `/api/records/${record.id}/draft/actions/publish`, w.owner),
      );
      const deletes = replies.filter((_, i) => i % 2 === 0);
      const publishes = replies.filter((_, i) => i % 2 === 1);
      expectOneWinner(deletes, 204, ALREADY_DELETED);
      // Before the delete, one publish wins and the rest find no draft; after it, each is 410.
      for (const p of publishes) expect([202, 404, 410]).toContain(p.status);
      expect(publishes.filter((p) => p.status === 202).length).toBeLessThanOrEqual(1);
      expect((await w.send(0, 'GET', `/api/records/${record.id}`, w.owner)).status).toBe(410);
      ok(await w.send(0, 'POST', `/api/records/${record.id}/restore`, w.admin), 200);
      await expectRecordFiles(w, record.id, record.files);
    },
  },
  {
    name: 'publish: one 202, the others 404, and the files stay intact',
    async run(w) {
      const draft = await draftWithFile(w);
      const replies = await raceSame(w, 'POST', `/api/records/${draft.id}/draft/actions/publish`);
      expectOneWinner(replies, 202, PID_DOES_NOT_EXIST);
      await expectRecordFiles(w, draft.id, draft.files);
      expect((await w.send(0, 'GET', `/api/records/${draft.id}/draft`, w.owner)).status).toBe(404);
    },
  },
  {
    name: "publish of an edit: one 202, the others 404, and the record's files stay intact",
    async run(w) {
      const record = await publishedRecord(w);
      ok(await w.send(0, 'POST', `/api/records/${record.id}/draft`, w.owner), 201);
      const replies = await raceSame(w, 'POST', `/api/records/${record.id}/draft/actions/publish`);
      expectOneWinner(replies, 202, PID_DOES_NOT_EXIST);
      await expectRecordFiles(w, record.id, record.files);
    },
  },
  {
    name: 'edit: every caller gets the one edit draft, with the files of the record',
    async run(w) {
      const record = await publishedRecord(w);
      const replies = await raceSame(w, 'POST', `/api/records/${record.id}/draft`);
      expect(statuses(replies)).toEqual({ 201: RACERS });
      expect(new Set(replies.map((r) => `${r.body.id}@${r.body.revision_id}`)).size).toBe(1);
      await expectDraftFiles(w, record.id, record.files);
      ok(await w.send(1, 'DELETE', `/api/records/${record.id}/draft`, w.owner), 204);
      await expectRecordFiles(w, record.id, record.files);
    },
  },
  {
    name: 'new version: every caller gets the one new-version draft',
    async run(w) {
      const record = await publishedRecord(w);
      const replies = await raceSame(w, 'POST', `/api/records/${record.id}/versions`);
      expect(statuses(replies)).toEqual({ 201: RACERS });
      expect(new Set(replies.map((r) => r.body.id as string)).size).toBe(1);
      expect(replies[0]!.body.id).not.toBe(record.id);
      expect(await unpublishedDrafts(w, record.title)).toBe(1);
      await expectRecordFiles(w, record.id, record.files);
    },
  },
  {
    name: 'discard: one 204, the others 404',
    async run(w) {
      const draft = await draftWithFile(w);
      const replies = await raceSame(w, 'DELETE', `/api/records/${draft.id}/draft`);
      expectOneWinner(replies, 204, PID_DOES_NOT_EXIST);
      expect((await w.send(0, 'GET', `/api/records/${draft.id}/draft`, w.owner)).status).toBe(404);
      expect(await unpublishedDrafts(w, draft.title)).toBe(0);
    },
  },
  {
    name: "discard of an edit: one 204, the others 404, and the record's files stay intact",
    async run(w) {
      const record = await publishedRecord(w);
      ok(await w.send(0, 'POST', `/api/records/${record.id}/draft`, w.owner), 201);
      const replies = await raceSame(w, 'DELETE', `/api/records/${record.id}/draft`);
      expectOneWinner(replies, 204, PID_DOES_NOT_EXIST);
      await expectRecordFiles(w, record.id, record.files);
    },
  },
  {
    name: 'files-import: one 201, the others 400, the files shared once',
    async run(w) {
      const record = await publishedRecord(w);
      const version = ok(
        await w.send(0, 'POST', `/api/records/${record.id}/versions`, w.owner),
        201,
      ).body.id as string;
      const replies = await raceSame(
        w,
        'POST',
        `/api/records/${version}/draft/actions/files-import`,
      );
      const message = 'Please remove all files first.';
      expectOneWinner(
        replies,
        201,
        validation(message, [{ field: 'files.enabled', messages: [message] }]),
      );
      await expectDraftFiles(w, version, record.files);
      ok(await w.send(1, 'POST', `/api/records/${version}/draft/actions/publish`, w.owner), 202);
      await expectRecordFiles(w, version, record.files);
      await expectRecordFiles(w, record.id, record.files);
    },
  },
  {
    name: 'reserve DOI: one 201, the others 400',
    async run(w) {
      const id = await newDraft(w, word(), false);
      const replies = await raceSame(w, 'POST', `/api/records/${id}/draft/pids/doi`);
      const message = 'A PID already exists for type doi';
      const winner = expectOneWinner(replies, 201, {
        status: 400,
        code: 'PID_ALREADY_EXISTS',
        message,
        errors: [{ field: 'pids.doi', messages: [message] }],
      });
      const doi = winner.body.pids.doi.identifier as string;
      expect(doi).toBe(`10.5072/${id}`);
      const read = ok(await w.send(1, 'GET', `/api/records/${id}/draft`, w.owner), 200);
      expect(read.body.pids.doi.identifier).toBe(doi);
      // The DOI is one PID row: discarding it once leaves none, and it can be reserved again.
      ok(await w.send(0, 'DELETE', `/api/records/${id}/draft/pids/doi`, w.owner), 200);
      ok(await w.send(1, 'POST', `/api/records/${id}/draft/pids/doi`, w.owner), 201);
    },
  },
  {
    name: 'discard DOI: one 200, the others 404',
    async run(w) {
      const id = await newDraft(w, word(), false);
      ok(await w.send(0, 'POST', `/api/records/${id}/draft/pids/doi`, w.owner), 201);
      const replies = await raceSame(w, 'DELETE', `/api/records/${id}/draft/pids/doi`);
      expectOneWinner(replies, 200, PID_DOES_NOT_EXIST);
      const read = ok(await w.send(1, 'GET', `/api/records/${id}/draft`, w.owner), 200);
      expect(read.body.pids.doi).toBeUndefined();
      ok(await w.send(0, 'POST', `/api/records/${id}/draft/pids/doi`, w.owner), 201);
    },
  },
  {
    name: 'submit-review: one 202, the others 400, one request',
    async run(w) {
      const draft = await draftUnderReview(w, w.reviewed, false);
      await submitRace(w, draft, []);
    },
  },
  {
    name: 'submit-review after a decline: one new request, the others 400',
    async run(w) {
      const draft = await draftUnderReview(w, w.reviewed);
      ok(await act(w, 0, draft.requestId, 'decline', w.curator), 200);
      await submitRace(w, draft, [[draft.requestId, 'declined']]);
    },
  },
  {
    name: 'submit-review including directly: one 202, the others 404, published once',
    async run(w) {
      const draft = await draftUnderReview(w, w.direct, false);
      const replies = await raceSame(
        w,
        'POST',
        `/api/records/${draft.id}/draft/actions/submit-review`,
        {},
      );
      const winner = expectOneWinner(replies, 202, PID_DOES_NOT_EXIST);
      expect(winner.body.status).toBe('accepted');
      await expectAccepted(w, draft, winner.body.id as string, w.direct);
      expect((await requestsTitled(w, draft.title)).length).toBe(1);
    },
  },
  {
    name: 'accept: one 200, the others 400, published once with its files',
    async run(w) {
      const draft = await draftUnderReview(w, w.reviewed);
      const replies = await race(RACERS, (i) => act(w, i, draft.requestId, 'accept', w.curator));
      expectOneWinner(replies, 200, validation('Cannot accept a request that is accepted.'));
      await expectAccepted(w, draft, draft.requestId, w.reviewed);
    },
  },
  {
    name: 'decline: one 200, the others 400',
    async run(w) {
      const draft = await draftUnderReview(w, w.reviewed);
      const replies = await race(RACERS, (i) => act(w, i, draft.requestId, 'decline', w.curator));
      expectOneWinner(replies, 200, validation('Cannot decline a request that is declined.'));
      await expectStillUnderReview(w, draft, draft.requestId, 'declined');
    },
  },
  {
    name: 'accept racing decline: one of them wins, the request and the record agree',
    run: (w) => requestActionsRace(w, 'decline'),
  },
  {
    name: 'accept racing cancel: one of them wins, the request and the record agree',
    run: (w) => requestActionsRace(w, 'cancel'),
  },
  {
    name: 'inclusion of a record into a community: one request, the others 400',
    async run(w) {
      const record = await publishedRecord(w);
      const replies = await raceSame(w, 'POST', `/api/records/${record.id}/communities`, {
        communities: [{ id: w.reviewed }],
      });
      const winner = expectOneWinner(replies, 200, {
        errors: [
          {
            community_id: w.reviewed,
            message: 'There is already an open inclusion request for this community.',
          },
        ],
      });
      const requestId = winner.body.processed[0].request_id as string;
      const requests = await requestsTitled(w, record.title);
      expect(requests.map((r) => [r.id as string, r.status as string])).toEqual([
        [requestId, 'submitted'],
      ]);
    },
  },
  {
    name: 'direct inclusion of a record into a community: one 200, the others 400',
    async run(w) {
      const record = await publishedRecord(w);
      const replies = await raceSame(w, 'POST', `/api/records/${record.id}/communities`, {
        communities: [{ id: w.direct }],
      });
      expectOneWinner(replies, 200, {
        errors: [{ community_id: w.direct, message: 'Community already included.' }],
      });
      const read = ok(await w.send(1, 'GET', `/api/records/${record.id}`, w.owner), 200);
      expect(read.body.parent.communities).toEqual({ ids: [w.direct], default: w.direct });
      expect((await requestsTitled(w, record.title)).length).toBe(1);
    },
  },
  {
    name: 'publish racing discard: one of them wins, the others 404',
    async run(w) {
      const draft = await draftWithFile(w);
      const replies = await race(RACERS, (i) =>
        i % 2 === 0
          ? w.send(i, 'POST', `/api/records/${draft.id}/draft/actions/publish`, w.owner)
          : w.send(i, 'DELETE', `/api/records/${draft.id}/draft`, w.owner),
      );
      const winners = replies.filter((r) => r.status !== 404);
      expect(winners.length, JSON.stringify(statuses(replies))).toBe(1);
      for (const r of replies) if (r.status === 404) expect(r.body).toEqual(PID_DOES_NOT_EXIST);
      if (winners[0]!.status === 202) await expectRecordFiles(w, draft.id, draft.files);
      else {
        expect(winners[0]!.status).toBe(204);
        expect((await w.send(0, 'GET', `/api/records/${draft.id}`, w.owner)).status).toBe(404);
        expect(await unpublishedDrafts(w, draft.title)).toBe(0);
      }
    },
  },
  {
    name: 'edit racing the publish of the edit: every answer a serial one, the files intact',
    async run(w) {
      const record = await publishedRecord(w);
      ok(await w.send(0, 'POST', `/api/records/${record.id}/draft`, w.owner), 201);
      const replies = await race(RACERS, (i) =>
        i % 2 === 0
          ? w.send(i, 'POST', `/api/records/${record.id}/draft/actions/publish`, w.owner)
          : w.send(i, 'POST', `/api/records/${record.id}/draft`, w.owner),
      );
      replies.forEach((r, i) => {
        if (i % 2 === 1) expect(r.status, JSON.stringify(r.body)).toBe(201);
        else if (r.status !== 202) expect(r.body).toEqual(PID_DOES_NOT_EXIST);
      });
      // The edit draft exists at the start, so the first publish in any order wins.
      expect(replies.some((r) => r.status === 202)).toBe(true);
      await expectRecordFiles(w, record.id, record.files);
      const draft = await w.send(0, 'GET', `/api/records/${record.id}/draft`, w.owner);
      if (draft.status === 200) await expectDraftFiles(w, record.id, record.files);
      else expect(draft.body).toEqual(PID_DOES_NOT_EXIST);
    },
  },
  {
    name: 'publish racing the commit of a file: published only with every file complete',
    async run(w) {
      const draft = await draftWithFile(w);
      const late = await addFile(w, draft.id, 'late.bin', false);
      // Spread out, so that publishes come before, during and after the commit.
      const replies = await race(
        RACERS,
        (i) =>
          i === 0
            ? w.send(i, 'POST', `/api/records/${draft.id}/draft/files/late.bin/commit`, w.owner)
            : w.send(i, 'POST', `/api/records/${draft.id}/draft/actions/publish`, w.owner),
        5,
      );
      const [commit, ...publishes] = replies;
      ok(commit!, 200);
      const published = publishes.filter((r) => r.status === 202);
      expect(published.length, JSON.stringify(statuses(publishes))).toBeLessThanOrEqual(1);
      // Before the commit a publish finds a pending file; after the winner, the draft is gone.
      for (const r of publishes) {
        if (r.status === 400) expect(r.body).toEqual(FILES_PENDING);
        else if (r.status !== 202) expect(r.body).toEqual(PID_DOES_NOT_EXIST);
      }
      const files = { ...draft.files, 'late.bin': late };
      if (published.length === 0) {
        await expectDraftFiles(w, draft.id, files);
        ok(await w.send(0, 'POST', `/api/records/${draft.id}/draft/actions/publish`, w.owner), 202);
      }
      await expectRecordFiles(w, draft.id, files);
    },
  },
  {
    name: 'content with ?commit=true: one 200, the others told it is committed, the bytes once',
    async run(w) {
      const id = await newDraft(w);
      const bytes = crypto.randomBytes(64 * 1024);
      ok(
        await w.send(0, 'POST', `/api/records/${id}/draft/files`, w.owner, [{ key: 'a.bin' }]),
        201,
      );
      const replies = await raceSame(
        w,
        'PUT',
        `/api/records/${id}/draft/files/a.bin/content?commit=true`,
        bytes,
      );
      const winners = replies.filter((r) => r.status === 200);
      expect(winners.length, JSON.stringify(statuses(replies))).toBe(1);
      for (const r of replies) {
        if (r.status === 200) continue;
        // After the winner: committed; while its commit runs: being committed, try again.
        if (r.status === 409) expect(r.body.message).toMatch(/is being committed/);
        else expect(r.body.message).toBe('File with key "a.bin" is already committed.');
      }
      await expectDraftFiles(w, id, { 'a.bin': bytes });
      ok(await w.send(0, 'POST', `/api/records/${id}/draft/actions/publish`, w.owner), 202);
      await expectRecordFiles(w, id, { 'a.bin': bytes });
    },
  },
  {
    name: 'a batch of files sent by many at once: each file committed once, with its bytes',
    async run(w) {
      const id = await newDraft(w);
      const files = Object.fromEntries(
        ['a.bin', 'b.bin', 'c.bin'].map((key) => [key, crypto.randomBytes(16 * 1024)]),
      );
      const announced = Object.entries(files).map(([key, bytes]) => ({ key, size: bytes.length }));
      ok(await w.send(0, 'POST', `/api/records/${id}/draft/files`, w.owner, announced), 201);
      const form = formData(announced, files);
      const replies = await race(RACERS, (i) =>
        w.send(i, 'POST', `/api/records/${id}/draft/files-upload`, w.owner, form.body, {
          'content-type': form.type,
        }),
      );
      const committed: string[] = [];
      // A batch answers each file's refusal inside its 200.
      for (const r of replies.map((reply) => ok(reply, 200))) {
        committed.push(...(r.body.entries as Array<{ key: string }>).map((e) => e.key));
        // After the winner: committed; while its commit runs: being committed, try again.
        for (const error of r.body.errors as Array<{ status: number; message: string }>)
          expect(error.message).toMatch(/is already committed|is being committed/);
      }
      expect(committed.sort()).toEqual(Object.keys(files));
      await expectDraftFiles(w, id, files);
      ok(await w.send(0, 'POST', `/api/records/${id}/draft/actions/publish`, w.owner), 202);
      await expectRecordFiles(w, id, files);
    },
  },
  {
    name: 'publish racing the delete of a file: the record has the files of the serial order',
    async run(w) {
      const draft = await draftWithFile(w);
      const extra = await addFile(w, draft.id, 'extra.bin');
      const replies = await race(RACERS, (i) =>
        i === 0
          ? w.send(i, 'DELETE', `/api/records/${draft.id}/draft/files/extra.bin`, w.owner)
          : w.send(i, 'POST', `/api/records/${draft.id}/draft/actions/publish`, w.owner),
      );
      const [deleted, ...publishes] = replies;
      expectOneWinner(publishes, 202, PID_DOES_NOT_EXIST);
      if (deleted!.status === 204) await expectRecordFiles(w, draft.id, draft.files);
      else {
        // The delete came after the publish: the draft was gone.
        expect(deleted!.body).toEqual(PID_DOES_NOT_EXIST);
        await expectRecordFiles(w, draft.id, { ...draft.files, 'extra.bin': extra });
      }
    },
  },
  {
    name: 'saves without If-Match: every one applies, one after the other',
    async run(w) {
      const id = await newDraft(w, word(), false);
      const before = ok(await w.send(0, 'GET', `/api/records/${id}/draft`, w.owner), 200).body
        .revision_id as number;
      const titles = Array.from({ length: RACERS }, (_, i) => `Title ${i}`);
      const replies = await race(RACERS, (i) =>
        w.send(i, 'PUT', `/api/records/${id}/draft`, w.owner, {
          metadata: { ...PUBLISHABLE_METADATA, title: titles[i] },
          files: { enabled: false },
        }),
      );
      expect(statuses(replies)).toEqual({ 200: RACERS });
      const revisions = replies.map((r) => r.body.revision_id as number).sort((a, b) => a - b);
      expect(revisions).toEqual(titles.map((_, i) => before + i + 1));
      const last = replies.find((r) => r.body.revision_id === before + RACERS)!;
      const read = ok(await w.send(1, 'GET', `/api/records/${id}/draft`, w.owner), 200);
      expect(read.body.revision_id).toBe(before + RACERS);
      expect(read.body.metadata.title).toBe(last.body.metadata.title);
    },
  },
  {
    name: 'saves with the same If-Match: one 200, the others 412',
    async run(w) {
      const id = await newDraft(w, word(), false);
      const before = ok(await w.send(0, 'GET', `/api/records/${id}/draft`, w.owner), 200).body
        .revision_id as number;
      const replies = await race(RACERS, (i) =>
        w.send(
          i,
          'PUT',
          `/api/records/${id}/draft`,
          w.owner,
          { metadata: { ...PUBLISHABLE_METADATA, title: `Title ${i}` }, files: { enabled: false } },
          { 'if-match': String(before) },
        ),
      );
      const winner = expectOneWinner(replies, 200, {
        status: 412,
        code: 'REVISION_MISMATCH',
        message: `Revision id provided(${before}) doesn't match record's one(${before + 1})`,
      });
      const read = ok(await w.send(1, 'GET', `/api/records/${id}/draft`, w.owner), 200);
      expect(read.body.metadata.title).toBe(winner.body.metadata.title);
    },
  },
];
