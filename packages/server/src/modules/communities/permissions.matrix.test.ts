import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';

const ROLES = [
  'anonymous',
  'depositor',
  'other',
  'reader',
  'curator',
  'manager',
  'owner',
  'admin',
] as const;
type Role = (typeof ROLES)[number];

/** One world per cell: a community with one member of each role, and the depositor's drafts. */
interface World {
  community: string;
  /** A draft submitted for review to the community (request `submitted`). */
  submitted: { draft: string; request: string };
  /** A draft whose review is chosen but not submitted. */
  created: { draft: string };
  /** A draft with no review yet. */
  bare: { draft: string };
  /** The reader member's user id. */
  readerId: number;
  /** A record of the depositor published into the community (rows that ask for one). */
  record: string;
  /** Another public community, open to submissions, that the record is not in. */
  extra: string;
}

interface Row {
  endpoint: string;
  call: (w: World) => {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    url: string;
    body?: object;
    payload?: Buffer;
  };
  expect: Record<Role, number>;
  /** The world's record: published into the community, public or restricted. */
  record?: 'public' | 'restricted';
}

const only = (allowed: Partial<Record<Role, number>>, otherwise = 403): Record<Role, number> =>
  Object.fromEntries(ROLES.map((r) => [r, allowed[r] ?? otherwise])) as Record<Role, number>;
const comment = { payload: { content: 'A word', format: 'html' } };

const ROWS: Row[] = [
  {
    endpoint: 'POST /api/communities',
    call: () => ({
      method: 'POST',
      url: '/api/communities',
      body: { slug: `c-${Math.random().toString(36).slice(2)}`, metadata: { title: 'New' } },
    }),
    expect: only({
      depositor: 201,
      other: 201,
      reader: 201,
      curator: 201,
      manager: 201,
      owner: 201,
      admin: 201,
    }),
  },
  {
    endpoint: 'GET /api/communities/{id}',
    call: (w) => ({ method: 'GET', url: `/api/communities/${w.community}` }),
    expect: only({}, 200),
  },
  {
    endpoint: 'GET /api/user/communities',
    call: () => ({ method: 'GET', url: '/api/user/communities' }),
    expect: only({ anonymous: 403 }, 200),
  },
  {
    endpoint: 'PUT /api/communities/{id}',
    call: (w) => ({
      method: 'PUT',
      url: `/api/communities/${w.community}`,
      body: { metadata: { title: 'Changed' } },
    }),
    expect: only({ manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'POST /api/communities/{id}/rename',
    call: (w) => ({
      method: 'POST',
      url: `/api/communities/${w.community}/rename`,
      body: { slug: `r-${Math.random().toString(36).slice(2)}` },
    }),
    expect: only({ owner: 200, admin: 200 }),
  },
  {
    endpoint: 'DELETE /api/communities/{id}',
    call: (w) => ({ method: 'DELETE', url: `/api/communities/${w.community}` }),
    expect: only({ owner: 204, admin: 204 }),
  },
  {
    endpoint: 'PUT /api/communities/{id}/logo',
    call: (w) => ({
      method: 'PUT',
      url: `/api/communities/${w.community}/logo`,
      payload: Buffer.from('logo bytes'),
    }),
    expect: only({ manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'GET /api/communities/{id}/members',
    call: (w) => ({ method: 'GET', url: `/api/communities/${w.community}/members` }),
    expect: only({ reader: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'GET /api/communities/{id}/members/public',
    call: (w) => ({ method: 'GET', url: `/api/communities/${w.community}/members/public` }),
    expect: only({}, 200),
  },
  {
    endpoint: 'PUT /api/communities/{id}/members (reader → curator)',
    call: (w) => ({
      method: 'PUT',
      url: `/api/communities/${w.community}/members`,
      body: { members: [{ type: 'user', id: String(w.readerId) }], role: 'curator' },
    }),
    expect: only({ manager: 204, owner: 204, admin: 204 }),
  },
  {
    endpoint: 'GET /api/communities/{id}/requests',
    call: (w) => ({ method: 'GET', url: `/api/communities/${w.community}/requests` }),
    expect: only({ curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'GET /api/requests/{id}',
    call: (w) => ({ method: 'GET', url: `/api/requests/${w.submitted.request}` }),
    expect: only({ depositor: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'GET /api/requests/{id}/timeline',
    call: (w) => ({ method: 'GET', url: `/api/requests/${w.submitted.request}/timeline` }),
    expect: only({ depositor: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'POST /api/requests/{id}/comments',
    call: (w) => ({
      method: 'POST',
      url: `/api/requests/${w.submitted.request}/comments`,
      body: comment,
    }),
    expect: only({ depositor: 201, curator: 201, manager: 201, owner: 201, admin: 201 }),
  },
  {
    endpoint: 'POST /api/requests/{id}/actions/accept',
    call: (w) => ({ method: 'POST', url: `/api/requests/${w.submitted.request}/actions/accept` }),
    expect: only({ curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'POST /api/requests/{id}/actions/decline',
    call: (w) => ({
      method: 'POST',
      url: `/api/requests/${w.submitted.request}/actions/decline`,
      body: comment,
    }),
    expect: only({ curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'POST /api/requests/{id}/actions/cancel',
    call: (w) => ({ method: 'POST', url: `/api/requests/${w.submitted.request}/actions/cancel` }),
    expect: only({ depositor: 200, admin: 200 }),
  },
  {
    endpoint: 'POST /api/requests/{id}/actions/expire',
    call: (w) => ({ method: 'POST', url: `/api/requests/${w.submitted.request}/actions/expire` }),
    expect: only({}),
  },
  {
    endpoint: 'GET /api/user/requests',
    call: () => ({ method: 'GET', url: '/api/user/requests' }),
    expect: only({ anonymous: 403 }, 200),
  },
  {
    endpoint: 'GET {draft}/review (submitted)',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.submitted.draft}/draft/review` }),
    expect: only({ depositor: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'GET {draft} (submitted: curators may read)',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.submitted.draft}/draft` }),
    expect: only({ depositor: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'GET {draft} (review not submitted)',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.created.draft}/draft` }),
    expect: only({ depositor: 200, admin: 200 }),
  },
  {
    endpoint: 'PUT {draft}/review',
    call: (w) => ({
      method: 'PUT',
      url: `/api/records/${w.bare.draft}/draft/review`,
      body: { type: 'community-submission', receiver: { community: w.community } },
    }),
    expect: only({ depositor: 200, admin: 200 }),
  },
  {
    endpoint: 'POST {draft}/actions/submit-review',
    call: (w) => ({
      method: 'POST',
      url: `/api/records/${w.created.draft}/draft/actions/submit-review`,
    }),
    expect: only({ depositor: 202, admin: 202 }),
  },
  {
    endpoint: 'DELETE {draft}/review (not submitted)',
    call: (w) => ({ method: 'DELETE', url: `/api/records/${w.created.draft}/draft/review` }),
    expect: only({ depositor: 204, admin: 204 }),
  },
  {
    endpoint: 'GET /api/communities/{id}/records',
    call: (w) => ({ method: 'GET', url: `/api/communities/${w.community}/records` }),
    expect: only({}, 200),
  },
  {
    endpoint: 'GET /api/records/{id} (restricted, in the community: its members view it)',
    record: 'restricted',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}` }),
    expect: only({ anonymous: 403, other: 403 }, 200),
  },
  {
    endpoint: 'GET /api/records/{id}/communities',
    record: 'public',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/communities` }),
    expect: only({}, 200),
  },
  {
    endpoint: 'GET /api/records/{id}/communities (restricted record)',
    record: 'restricted',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/communities` }),
    expect: only({ anonymous: 403, other: 403 }, 200),
  },
  {
    endpoint: 'GET /api/records/{id}/communities-suggestions',
    record: 'public',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/communities-suggestions` }),
    expect: only({ depositor: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    // Everyone who may read the record; each sees only the requests it takes part in.
    endpoint: 'GET /api/records/{id}/requests',
    record: 'public',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/requests` }),
    expect: only({}, 200),
  },
  {
    endpoint: 'POST /api/records/{id}/communities',
    record: 'public',
    call: (w) => ({
      method: 'POST',
      url: `/api/records/${w.record}/communities`,
      body: { communities: [{ id: w.extra }] },
    }),
    expect: only({ depositor: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    // Nothing removed answers 400 with "Permission denied." per community (invenio-api.md §1.12).
    endpoint: 'DELETE /api/records/{id}/communities',
    record: 'public',
    call: (w) => ({
      method: 'DELETE',
      url: `/api/records/${w.record}/communities`,
      body: { communities: [{ id: w.community }] },
    }),
    expect: only({ depositor: 200, curator: 200, manager: 200, owner: 200, admin: 200 }, 400),
  },
  {
    endpoint: 'PUT /api/records/{id}/communities (default)',
    record: 'public',
    call: (w) => ({
      method: 'PUT',
      url: `/api/records/${w.record}/communities`,
      body: { default: w.community },
    }),
    expect: only({ depositor: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
];

describe.each(ENGINES)(
  'permission matrix of communities, members, requests, reviews and record communities on %s',
  (engine) => {
    let t: TestApp;
    const callers = {} as Record<Exclude<Role, 'anonymous'>, Caller>;
    let serial = 0;

    beforeAll(async () => {
      t = await createTestApp(engine);
      for (const role of ROLES) {
        if (role !== 'anonymous')
          callers[role] = await t.user(undefined, { admin: role === 'admin' });
      }
    });
    afterAll(() => t.close());

    async function call(caller: Caller | undefined, method: string, url: string, body?: object) {
      const res = await t.request({
        method: method,
        url,
        headers: caller?.headers ?? {},
        ...(body ? { body } : {}),
      });
      return res;
    }

    async function world(record?: 'public' | 'restricted'): Promise<World> {
      const { owner, depositor } = callers;
      const c = await call(owner, 'POST', '/api/communities', {
        slug: `matrix-${++serial}`,
        metadata: { title: 'Matrix' },
      });
      const community = c.json().id as string;
      for (const role of ['reader', 'curator', 'manager'] as const) {
        const add = await call(owner, 'POST', `/api/communities/${community}/members`, {
          members: [{ type: 'user', id: String(callers[role].id) }],
          role,
        });
        expect(add.statusCode, add.body).toBe(204);
      }
      const draft = async (access = 'public') =>
        (
          await call(depositor, 'POST', '/api/records', {
            metadata: PUBLISHABLE_METADATA,
            files: { enabled: false },
            access: { record: access, files: access },
          })
        ).json().id as string;
      const review = async (id: string) =>
        expect(
          (
            await call(depositor, 'PUT', `/api/records/${id}/draft/review`, {
              type: 'community-submission',
              receiver: { community },
            })
          ).statusCode,
        ).toBe(200);
      const submittedDraft = await draft();
      await review(submittedDraft);
      const submitted = await call(
        depositor,
        'POST',
        `/api/records/${submittedDraft}/draft/actions/submit-review`,
      );
      expect(submitted.statusCode, submitted.body).toBe(202);
      const createdDraft = await draft();
      await review(createdDraft);
      let published = '';
      if (record) {
        published = await draft(record);
        await review(published);
        const request = (
          await call(depositor, 'POST', `/api/records/${published}/draft/actions/submit-review`)
        ).json().id as string;
        const accepted = await call(owner, 'POST', `/api/requests/${request}/actions/accept`);
        expect(accepted.statusCode, accepted.body).toBe(200);
      }
      const extra = await call(callers.admin, 'POST', '/api/communities', {
        slug: `matrix-extra-${serial}`,
        metadata: { title: 'Extra' },
      });
      return {
        community,
        submitted: { draft: submittedDraft, request: submitted.json().id as string },
        created: { draft: createdDraft },
        bare: { draft: await draft() },
        readerId: callers.reader.id,
        record: published,
        extra: extra.json().id as string,
      };
    }

    it.each(ROWS.map((row) => [row.endpoint, row] as const))('%s', async (_name, row) => {
      const cells: Record<string, number> = {};
      for (const role of ROLES) {
        const w = await world(row.record);
        const spec = row.call(w);
        const caller = role === 'anonymous' ? undefined : callers[role];
        const res = spec.payload
          ? await t.request({
              method: spec.method,
              url: spec.url,
              payload: spec.payload,
              headers: { ...caller?.headers, 'content-type': 'application/octet-stream' },
            })
          : await call(caller, spec.method, spec.url, spec.body);
        cells[role] = res.statusCode;
      }
      expect(cells).toEqual(row.expect);
    });
  },
);
