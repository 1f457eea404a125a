import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';
import { registeredRoutes } from '../../test/routes.js';
import { grantRoutes } from './grants.routes.js';
import { secretLinkRoutes } from './secret-links.routes.js';
import { accessRequestRoutes } from './access-requests.routes.js';

/**
 * Who calls: nobody, the record's owner, an administrator, a signed-in stranger, holders of
 * each kind of link, anonymous (`view`, `preview`, `edit`) and signed in (`edit+user`), and a
 * person holding a grant of each permission (`grant:…`).
 */
const ROLES = [
  'anonymous',
  'other',
  'view',
  'preview',
  'edit',
  'edit+user',
  'grant:view',
  'grant:preview',
  'grant:edit',
  'grant:manage',
  'owner',
  'admin',
] as const;
const GRANTS = ['view', 'preview', 'edit', 'manage'] as const;
type Role = (typeof ROLES)[number];

/**
 * One world per cell: a restricted record with a file, its open edit draft, its links, and its
 * grants: first one to `granted` (the grant rows read, change and revoke), then the grantees'.
 */
interface World {
  record: string;
  /** A link of the record to read, change or delete (rows that ask for one). */
  link: string;
  tokens: Record<'view' | 'preview' | 'edit', string>;
  /** The user of the record's first grant (index 0). */
  granted: number;
  /** A user without a grant, whom a new grant goes to. */
  newcomer: number;
  /**
   * For rows that ask for one (`withRequest`): a reader's open access request about a second
   * record of the owner's (metadata public, files restricted), granted to the same grantees.
   */
  request?: string;
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
  withRequest?: true;
}

const only = (allowed: Partial<Record<Role, number>>, otherwise = 403): Record<Role, number> =>
  Object.fromEntries(ROLES.map((r) => [r, allowed[r] ?? otherwise])) as Record<Role, number>;
const managers = (status: number) => only({ owner: status, admin: status, 'grant:manage': status });
/** Whoever may view the restricted record: its owner, admins, every link holder and grantee. */
const viewers = only({
  view: 200,
  preview: 200,
  edit: 200,
  'edit+user': 200,
  'grant:view': 200,
  'grant:preview': 200,
  'grant:edit': 200,
  'grant:manage': 200,
  owner: 200,
  admin: 200,
});
/** Whoever may read its draft: not a view link or grant. */
const previewers = only({
  preview: 200,
  edit: 200,
  'edit+user': 200,
  'grant:preview': 200,
  'grant:edit': 200,
  'grant:manage': 200,
  owner: 200,
  admin: 200,
});
/**
 * Who decides an access request: its receiver, the record's owner, and `manage` grantees as
 * co-owners; not administrators (a request to a person is theirs, as an invitation is).
 */
const deciders = (status: number) => only({ owner: status, 'grant:manage': status });
/** Whoever may edit its draft: a signed-in edit link, edit and manage grants, the managers. */
const editors = (status: number) =>
  only({
    'edit+user': status,
    'grant:edit': status,
    'grant:manage': status,
    owner: status,
    admin: status,
  });

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
  {
    endpoint: 'POST /api/records/{id}/access/grants',
    route: 'POST /api/records/:id/access/grants',
    call: (w) => ({
      method: 'POST',
      url: `/api/records/${w.record}/access/grants`,
      body: { grants: [{ subject: { type: 'user', id: String(w.newcomer) }, permission: 'view' }] },
    }),
    expect: managers(201),
  },
  {
    endpoint: 'GET /api/records/{id}/access/grants',
    route: 'GET /api/records/:id/access/grants',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/access/grants` }),
    expect: managers(200),
  },
  {
    endpoint: 'GET /api/records/{id}/access/grants/{grant_id}',
    route: 'GET /api/records/:id/access/grants/:grant_id',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/access/grants/0` }),
    expect: managers(200),
  },
  {
    endpoint: 'DELETE /api/records/{id}/access/grants/{grant_id}',
    route: 'DELETE /api/records/:id/access/grants/:grant_id',
    call: (w) => ({ method: 'DELETE', url: `/api/records/${w.record}/access/grants/0` }),
    expect: managers(204),
  },
  {
    endpoint: 'GET /api/records/{id}/access/users',
    route: 'GET /api/records/:id/access/users',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/access/users` }),
    expect: managers(200),
  },
  {
    endpoint: 'GET /api/records/{id}/access/users/{user_id}',
    route: 'GET /api/records/:id/access/users/:user_id',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/access/users/${w.granted}` }),
    expect: managers(200),
  },
  {
    endpoint: 'PATCH /api/records/{id}/access/users/{user_id}',
    route: 'PATCH /api/records/:id/access/users/:user_id',
    call: (w) => ({
      method: 'PATCH',
      url: `/api/records/${w.record}/access/users/${w.granted}`,
      body: { permission: 'preview' },
    }),
    expect: managers(200),
  },
  {
    endpoint: 'DELETE /api/records/{id}/access/users/{user_id}',
    route: 'DELETE /api/records/:id/access/users/:user_id',
    call: (w) => ({
      method: 'DELETE',
      url: `/api/records/${w.record}/access/users/${w.granted}`,
    }),
    expect: managers(204),
  },
  {
    endpoint: 'PUT /api/records/{id}/access',
    route: 'PUT /api/records/:id/access',
    call: (w) => ({
      method: 'PUT',
      url: `/api/records/${w.record}/access`,
      body: { allow_user_requests: true, allow_guest_requests: true },
    }),
    expect: managers(200),
  },
  {
    // The record itself is restricted: no one who cannot see it may ask, and everyone who can
    // already reaches its files (the routes test asks about a record whose files alone are closed).
    endpoint: 'POST /api/records/{id}/access/request',
    route: 'POST /api/records/:id/access/request',
    call: (w) => ({
      method: 'POST',
      url: `/api/records/${w.record}/access/request`,
      body: { message: 'May I?', email: 'guest@example.org', full_name: 'Guest' },
    }),
    expect: only({}),
  },
  {
    // Anyone holding a confirmation link may follow it; an unknown token is 400 to all.
    endpoint: 'POST /api/access-requests/verify',
    route: 'POST /api/access-requests/verify',
    call: () => ({
      method: 'POST',
      url: '/api/access-requests/verify',
      body: { token: 'not-a-token' },
    }),
    expect: only({}, 400),
  },
  // Access requests, routes of the requests module: their deciders read and decide them.
  {
    endpoint: 'GET /api/requests/{id} (access request)',
    route: 'GET /api/requests/:id',
    call: (w) => ({ method: 'GET', url: `/api/requests/${w.request}` }),
    expect: deciders(200),
    withRequest: true,
  },
  {
    endpoint: 'POST /api/requests/{id}/actions/accept (access request)',
    route: 'POST /api/requests/:id/actions/:action',
    call: (w) => ({
      method: 'POST',
      url: `/api/requests/${w.request}/actions/accept`,
      body: { payload: { secret_link_expiration: 7 } },
    }),
    expect: deciders(200),
    withRequest: true,
  },
  {
    endpoint: 'POST /api/requests/{id}/actions/decline (access request)',
    route: 'POST /api/requests/:id/actions/:action',
    call: (w) => ({ method: 'POST', url: `/api/requests/${w.request}/actions/decline` }),
    expect: deciders(200),
    withRequest: true,
  },
  // What links and grants open (routes of the records and files modules).
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
    expect: editors(200),
  },
  {
    // An edit link or grant gives what a curator reviewing the draft has: saving and publishing.
    endpoint: 'POST /api/records/{id}/draft/actions/publish',
    route: 'POST /api/records/:id/draft/actions/publish',
    call: (w) => ({ method: 'POST', url: `/api/records/${w.record}/draft/actions/publish` }),
    expect: editors(202),
  },
  {
    // Importing metadata saves nothing, but answers it for the editor: who may edit may import.
    endpoint: 'POST /api/records/{id}/draft/actions/import-metadata',
    route: 'POST /api/records/:id/draft/actions/import-metadata',
    call: (w) => ({
      method: 'POST',
      url: `/api/records/${w.record}/draft/actions/import-metadata`,
      body: { format: 'cff', content: 'cff-version: 1.2.0\ntitle: Imported title\n' },
    }),
    expect: editors(200),
  },
  {
    // Discarding the draft, like sharing, stays with those who manage the record.
    endpoint: 'DELETE /api/records/{id}/draft',
    route: 'DELETE /api/records/:id/draft',
    call: (w) => ({ method: 'DELETE', url: `/api/records/${w.record}/draft` }),
    expect: managers(204),
  },
  {
    // So do new versions.
    endpoint: 'POST /api/records/{id}/versions',
    route: 'POST /api/records/:id/versions',
    call: (w) => ({ method: 'POST', url: `/api/records/${w.record}/versions` }),
    expect: managers(201),
  },
];

describe.each(ENGINES)('permission matrix of secret links and grants on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let other: Caller;
  let admin: Caller;
  let granted: Caller;
  let newcomer: Caller;
  const grantees = {} as Record<(typeof GRANTS)[number], Caller>;

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    other = await t.user();
    admin = await t.user(undefined, { admin: true });
    granted = await t.user();
    newcomer = await t.user();
    for (const permission of GRANTS) grantees[permission] = await t.user();
  });
  afterAll(() => t.close());

  async function world(withRequest = false): Promise<World> {
    const files = new FilesApi(t, owner);
    const { id } = await files.createDraft({
      metadata: PUBLISHABLE_METADATA,
      access: { record: 'restricted', files: 'restricted' },
    });
    const w = await shared(files, id);
    if (withRequest) w.request = await accessRequest(files);
    return w;
  }

  /** The record's file, publication, edit draft, links and grants. */
  async function shared(files: FilesApi, id: string): Promise<World> {
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
    const grants = [
      { subject: { type: 'user', id: String(granted.id) }, permission: 'view' },
      ...GRANTS.map((permission) => ({
        subject: { type: 'user', id: String(grantees[permission].id) },
        permission,
      })),
    ];
    const given = await t.request({
      method: 'POST',
      url: `/api/records/${id}/access/grants`,
      headers: owner.headers,
      body: { grants },
    });
    expect(given.statusCode, given.body).toBe(201);
    return { record: id, link, tokens, granted: granted.id, newcomer: newcomer.id };
  }

  /** A fresh reader's request for the files of a second record, shared as the first is. */
  async function accessRequest(files: FilesApi): Promise<string> {
    const { id } = await files.createDraft({
      metadata: PUBLISHABLE_METADATA,
      access: { record: 'public', files: 'restricted' },
    });
    await shared(files, id);
    const settings = await t.request({
      method: 'PUT',
      url: `/api/records/${id}/access`,
      headers: owner.headers,
      body: { allow_user_requests: true },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const reader = await t.user();
    const asked = await t.request({
      method: 'POST',
      url: `/api/records/${id}/access/request`,
      headers: reader.headers,
      body: { message: 'May I?' },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    return asked.json().id as string;
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
      case 'grant:view':
      case 'grant:preview':
      case 'grant:edit':
      case 'grant:manage':
        return { headers: grantees[role.slice(6) as (typeof GRANTS)[number]].headers };
      default:
        return { headers: {}, token: w.tokens[role] };
    }
  }

  it('has a row for every route of the access module', async () => {
    const registered = await registeredRoutes(async (app) => {
      await app.register(secretLinkRoutes, { links: t.services.secretLinks });
      await app.register(grantRoutes, { grants: t.services.grants });
      await app.register(accessRequestRoutes, {
        config: t.config,
        accessRequests: t.services.accessRequests,
      });
    });
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
      const w = await world(row.withRequest);
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
