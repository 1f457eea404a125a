import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';
import { registeredRoutes } from '../../test/routes.js';
import { secretLinkRoutes } from './secret-links.routes.js';

/**
 * Who calls: nobody, the record's owner, an administrator, a signed-in stranger, and holders of
 * each kind of link, anonymous (`view`, `preview`, `edit`) and signed in (`edit+user`).
 */
const ROLES = [
  'anonymous',
  'other',
  'view',
  'preview',
  'edit',
  'edit+user',
  'owner',
  'admin',
] as const;
type Role = (typeof ROLES)[number];

/** One world per cell: a restricted record with a file, its open edit draft, and its links. */
interface World {
  record: string;
  /** A link of the record to read, change or delete (rows that ask for one). */
  link: string;
  tokens: Record<'view' | 'preview' | 'edit', string>;
}

interface Row {
  endpoint: string;
  /** The route as Fastify registers it, for the coverage check of the access module. */
  route: string;
  call: (w: World) => {
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    url: string;
    body?: object;
  };
  expect: Record<Role, number>;
}

const only = (allowed: Partial<Record<Role, number>>, otherwise = 403): Record<Role, number> =>
  Object.fromEntries(ROLES.map((r) => [r, allowed[r] ?? otherwise])) as Record<Role, number>;
const managers = (status: number) => only({ owner: status, admin: status });
/** Whoever may view the restricted record: its owner, admins and every link holder. */
const viewers = only({
  view: 200,
  preview: 200,
  edit: 200,
  'edit+user': 200,
  owner: 200,
  admin: 200,
});
/** Whoever may read its draft: not a view link. */
const previewers = only({ preview: 200, edit: 200, 'edit+user': 200, owner: 200, admin: 200 });

const ROWS: Row[] = [
  {
    endpoint: 'POST /api/records/{id}/access/links',
    route: 'POST /api/records/:id/access/links',
    call: (w) => ({
      method: 'POST',
      url: `/api/records/${w.record}/access/links`,
      body: { permission: 'view' },
    }),
    expect: managers(201),
  },
  {
    endpoint: 'GET /api/records/{id}/access/links',
    route: 'GET /api/records/:id/access/links',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/access/links` }),
    expect: managers(200),
  },
  {
    endpoint: 'GET /api/records/{id}/access/links/{link_id}',
    route: 'GET /api/records/:id/access/links/:link_id',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/access/links/${w.link}` }),
    expect: managers(200),
  },
  {
    endpoint: 'PATCH /api/records/{id}/access/links/{link_id}',
    route: 'PATCH /api/records/:id/access/links/:link_id',
    call: (w) => ({
      method: 'PATCH',
      url: `/api/records/${w.record}/access/links/${w.link}`,
      body: { permission: 'preview' },
    }),
    expect: managers(200),
  },
  {
    endpoint: 'DELETE /api/records/{id}/access/links/{link_id}',
    route: 'DELETE /api/records/:id/access/links/:link_id',
    call: (w) => ({ method: 'DELETE', url: `/api/records/${w.record}/access/links/${w.link}` }),
    expect: managers(204),
  },
  // What the links open (routes of the records and files modules, through a link's token).
  {
    endpoint: 'GET /api/records/{id} (restricted)',
    route: 'GET /api/records/:id',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}` }),
    expect: viewers,
  },
  {
    endpoint: 'GET /api/records/{id}/files (restricted)',
    route: 'GET /api/records/:id/files',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/files` }),
    expect: viewers,
  },
  {
    endpoint: 'GET /api/records/{id}/files/{key}/content (restricted)',
    route: 'GET /api/records/:id/files/*',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/files/data.csv/content` }),
    expect: viewers,
  },
  {
    endpoint: 'GET /api/records/{id}/files-archive (restricted)',
    route: 'GET /api/records/:id/files-archive',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/files-archive` }),
    expect: viewers,
  },
  {
    endpoint: 'GET /api/records/{id}/draft',
    route: 'GET /api/records/:id/draft',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/draft` }),
    expect: previewers,
  },
  {
    endpoint: 'GET /api/records/{id}/draft/files',
    route: 'GET /api/records/:id/draft/files',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/draft/files` }),
    expect: previewers,
  },
  {
    endpoint: 'GET /api/records/{id}/draft/files/{key}/content',
    route: 'GET /api/records/:id/draft/files/*',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/draft/files/data.csv/content` }),
    expect: previewers,
  },
  {
    endpoint: 'GET /api/records/{id}/draft/files-archive',
    route: 'GET /api/records/:id/draft/files-archive',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/draft/files-archive` }),
    expect: previewers,
  },
  {
    endpoint: 'PUT /api/records/{id}/draft',
    route: 'PUT /api/records/:id/draft',
    call: (w) => ({
      method: 'PUT',
      url: `/api/records/${w.record}/draft`,
      body: {
        metadata: { ...PUBLISHABLE_METADATA, title: 'Changed' },
        access: { record: 'restricted', files: 'restricted' },
      },
    }),
    expect: only({ 'edit+user': 200, owner: 200, admin: 200 }),
  },
  {
    // An edit link gives what a curator reviewing the draft has: saving and publishing it.
    endpoint: 'POST /api/records/{id}/draft/actions/publish',
    route: 'POST /api/records/:id/draft/actions/publish',
    call: (w) => ({ method: 'POST', url: `/api/records/${w.record}/draft/actions/publish` }),
    expect: only({ 'edit+user': 202, owner: 202, admin: 202 }),
  },
  {
    // Discarding the draft, like sharing, stays with those who manage the record.
    endpoint: 'DELETE /api/records/{id}/draft',
    route: 'DELETE /api/records/:id/draft',
    call: (w) => ({ method: 'DELETE', url: `/api/records/${w.record}/draft` }),
    expect: managers(204),
  },
];

describe.each(ENGINES)('permission matrix of secret links on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let other: Caller;
  let admin: Caller;

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    other = await t.user();
    admin = await t.user(undefined, { admin: true });
  });
  afterAll(() => t.close());

  async function world(): Promise<World> {
    const files = new FilesApi(t, owner);
    const { id } = await files.createDraft({
      metadata: PUBLISHABLE_METADATA,
      access: { record: 'restricted', files: 'restricted' },
    });
    await files.upload(id, 'data.csv', 'a,b\n');
    await files.publish(id);
    const edit = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft`,
      headers: owner.headers,
    });
    expect(edit.statusCode, edit.body).toBe(201);
    const tokens = {} as World['tokens'];
    let link = '';
    for (const permission of ['view', 'preview', 'edit'] as const) {
      const made = await t.request({
        method: 'POST',
        url: `/api/records/${id}/access/links`,
        headers: owner.headers,
        body: { permission },
      });
      expect(made.statusCode, made.body).toBe(201);
      tokens[permission] = made.json().token as string;
      link = made.json().id as string;
    }
    return { record: id, link, tokens };
  }

  function as(role: Role, w: World): { headers: Record<string, string>; token?: string } {
    switch (role) {
      case 'anonymous':
        return { headers: {} };
      case 'other':
        return { headers: other.headers };
      case 'owner':
        return { headers: owner.headers };
      case 'admin':
        return { headers: admin.headers };
      case 'edit+user':
        return { headers: other.headers, token: w.tokens.edit };
      default:
        return { headers: {}, token: w.tokens[role] };
    }
  }

  it('has a row for every route of the access module', async () => {
    const registered = await registeredRoutes((app) =>
      app.register(secretLinkRoutes, { links: t.services.secretLinks }),
    );
    const covered = new Set(ROWS.map((row) => row.route));
    expect([...registered].filter((route) => !covered.has(route))).toEqual([]);
    for (const route of covered) {
      const [method, url] = route.split(' ') as ['GET', string];
      expect(t.app.hasRoute({ method, url }), route).toBe(true);
    }
  });

  it.each(ROWS.map((row) => [row.endpoint, row] as const))('%s', async (_name, row) => {
    const cells: Record<string, number> = {};
    for (const role of ROLES) {
      const w = await world();
      const spec = row.call(w);
      const caller = as(role, w);
      const url = caller.token ? `${spec.url}?token=${caller.token}` : spec.url;
      const res = await t.request({
        method: spec.method,
        url,
        headers: caller.headers,
        ...(spec.body ? { body: spec.body } : {}),
      });
      cells[role] = res.statusCode;
    }
    expect(cells).toEqual(row.expect);
  });
});
