import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';
import { registerCurationRoutes } from '../../app.js';
import { registeredRoutes } from '../../test/routes.js';

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
  /** A draft whose review is chosen but not submitted (request `created`). */
  created: { draft: string; request: string };
  /** A draft with no review yet. */
  bare: { draft: string };
  /** The reader member's user id. */
  readerId: number;
  /** The user ids of `other` and the depositor, neither a member. */
  otherId: number;
  depositorId: number;
  /** A signed-up user who is not a member yet (rows that ask for one). */
  newcomerId: number;
  /** A record of the depositor published into the community (rows that ask for one). */
  record: string;
  /** Another public community, open to submissions, that the record is not in. */
  extra: string;
  /** The depositor's comment on the submitted request (rows that ask for one). */
  comment: string;
  /** An open invitation of `other` to the community (rows that ask for one). */
  invitation: string;
  /** The depositor's open request to join the community (rows that ask for one). */
  membershipRequest: string;
}

/** What a row's world needs beyond the community, its members and the depositor's drafts. */
interface Needs {
  /** A record of the depositor published into the community, public or restricted. */
  record?: 'public' | 'restricted';
  /** The community has a logo. */
  logo?: boolean;
  /** The community is restricted; the world then holds no drafts (outsiders cannot choose it). */
  restricted?: boolean;
  /** The depositor commented on the submitted request. */
  comment?: boolean;
  /** A user who is not a member yet (signing up hashes a password: only when needed). */
  newcomer?: boolean;
  /** The owner invited `other` to the community. */
  invitation?: boolean;
  /** The depositor asked to join the community. */
  membershipRequest?: boolean;
}

interface Row {
  endpoint: string;
  /** The route as Fastify registers it (`GET /api/communities/:id`), for the coverage check. */
  route: string;
  call: (w: World) => {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    url: string;
    body?: object;
    payload?: Buffer;
  };
  expect: Record<Role, number>;
  needs?: Needs;
}

const only = (allowed: Partial<Record<Role, number>>, otherwise = 403): Record<Role, number> =>
  Object.fromEntries(ROLES.map((r) => [r, allowed[r] ?? otherwise])) as Record<Role, number>;
const comment = { payload: { content: 'A word', format: 'html' } };

const ROWS: Row[] = [
  // Communities
  {
    endpoint: 'POST /api/communities',
    route: 'POST /api/communities',
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
    endpoint: 'GET /api/communities',
    route: 'GET /api/communities',
    call: () => ({ method: 'GET', url: '/api/communities' }),
    expect: only({}, 200),
  },
  {
    endpoint: 'GET /api/user/communities',
    route: 'GET /api/user/communities',
    call: () => ({ method: 'GET', url: '/api/user/communities' }),
    expect: only({ anonymous: 403 }, 200),
  },
  {
    endpoint: 'GET /api/communities/{id}',
    route: 'GET /api/communities/:id',
    call: (w) => ({ method: 'GET', url: `/api/communities/${w.community}` }),
    expect: only({}, 200),
  },
  {
    endpoint: 'GET /api/communities/{id} (restricted: its members)',
    route: 'GET /api/communities/:id',
    needs: { restricted: true },
    call: (w) => ({ method: 'GET', url: `/api/communities/${w.community}` }),
    expect: only({ reader: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    // invenio-communities' can_update is the owners': managers manage members, not settings.
    endpoint: 'PUT /api/communities/{id}',
    route: 'PUT /api/communities/:id',
    call: (w) => ({
      method: 'PUT',
      url: `/api/communities/${w.community}`,
      body: { metadata: { title: 'Changed' } },
    }),
    expect: only({ owner: 200, admin: 200 }),
  },
  {
    endpoint: 'POST /api/communities/{id}/rename',
    route: 'POST /api/communities/:id/rename',
    call: (w) => ({
      method: 'POST',
      url: `/api/communities/${w.community}/rename`,
      body: { slug: `r-${Math.random().toString(36).slice(2)}` },
    }),
    expect: only({ owner: 200, admin: 200 }),
  },
  {
    endpoint: 'DELETE /api/communities/{id}',
    route: 'DELETE /api/communities/:id',
    call: (w) => ({ method: 'DELETE', url: `/api/communities/${w.community}` }),
    expect: only({ owner: 204, admin: 204 }),
  },
  {
    endpoint: 'PUT /api/communities/{id}/logo',
    route: 'PUT /api/communities/:id/logo',
    call: (w) => ({
      method: 'PUT',
      url: `/api/communities/${w.community}/logo`,
      payload: Buffer.from('logo bytes'),
    }),
    expect: only({ owner: 200, admin: 200 }),
  },
  {
    endpoint: 'GET /api/communities/{id}/logo',
    route: 'GET /api/communities/:id/logo',
    needs: { logo: true },
    call: (w) => ({ method: 'GET', url: `/api/communities/${w.community}/logo` }),
    expect: only({}, 200),
  },
  {
    endpoint: 'GET /api/communities/{id}/logo (restricted: its members)',
    route: 'GET /api/communities/:id/logo',
    needs: { logo: true, restricted: true },
    call: (w) => ({ method: 'GET', url: `/api/communities/${w.community}/logo` }),
    expect: only({ reader: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'DELETE /api/communities/{id}/logo',
    route: 'DELETE /api/communities/:id/logo',
    needs: { logo: true },
    call: (w) => ({ method: 'DELETE', url: `/api/communities/${w.community}/logo` }),
    expect: only({ owner: 204, admin: 204 }),
  },
  {
    endpoint: 'GET /api/communities/{id}/records',
    route: 'GET /api/communities/:id/records',
    call: (w) => ({ method: 'GET', url: `/api/communities/${w.community}/records` }),
    expect: only({}, 200),
  },
  {
    endpoint: 'GET /api/communities/{id}/records (restricted: its members)',
    route: 'GET /api/communities/:id/records',
    needs: { restricted: true },
    call: (w) => ({ method: 'GET', url: `/api/communities/${w.community}/records` }),
    expect: only({ reader: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'GET /api/communities/{id}/requests',
    route: 'GET /api/communities/:id/requests',
    call: (w) => ({ method: 'GET', url: `/api/communities/${w.community}/requests` }),
    expect: only({ curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    // The inbox's own parameters (Cairn extensions) open nothing more.
    endpoint: 'GET /api/communities/{id}/requests (created_by=me, sort=updated, expand=1)',
    route: 'GET /api/communities/:id/requests',
    call: (w) => ({
      method: 'GET',
      url: `/api/communities/${w.community}/requests?created_by=me&sort=updated&expand=1`,
    }),
    expect: only({ curator: 200, manager: 200, owner: 200, admin: 200 }),
  },

  // Members
  {
    endpoint: 'GET /api/communities/{id}/members',
    route: 'GET /api/communities/:id/members',
    call: (w) => ({ method: 'GET', url: `/api/communities/${w.community}/members` }),
    expect: only({ reader: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'GET /api/communities/{id}/members/public',
    route: 'GET /api/communities/:id/members/public',
    call: (w) => ({ method: 'GET', url: `/api/communities/${w.community}/members/public` }),
    expect: only({}, 200),
  },
  {
    endpoint: 'GET /api/communities/{id}/members/public (restricted: its members)',
    route: 'GET /api/communities/:id/members/public',
    needs: { restricted: true },
    call: (w) => ({ method: 'GET', url: `/api/communities/${w.community}/members/public` }),
    expect: only({ reader: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    // Cairn extension standing in for invitations: those who may invite a role add it.
    endpoint: 'POST /api/communities/{id}/members (a newcomer as reader)',
    route: 'POST /api/communities/:id/members',
    needs: { newcomer: true },
    call: (w) => ({
      method: 'POST',
      url: `/api/communities/${w.community}/members`,
      body: { members: [{ type: 'user', id: String(w.newcomerId) }], role: 'reader' },
    }),
    expect: only({ manager: 204, owner: 204, admin: 204 }),
  },
  {
    endpoint: 'PUT /api/communities/{id}/members (reader → curator)',
    route: 'PUT /api/communities/:id/members',
    call: (w) => ({
      method: 'PUT',
      url: `/api/communities/${w.community}/members`,
      body: { members: [{ type: 'user', id: String(w.readerId) }], role: 'curator' },
    }),
    expect: only({ manager: 204, owner: 204, admin: 204 }),
  },
  {
    // Managers remove whom they manage; the reader leaves on its own.
    endpoint: 'DELETE /api/communities/{id}/members (the reader)',
    route: 'DELETE /api/communities/:id/members',
    call: (w) => ({
      method: 'DELETE',
      url: `/api/communities/${w.community}/members`,
      body: { members: [{ type: 'user', id: String(w.readerId) }] },
    }),
    expect: only({ reader: 204, manager: 204, owner: 204, admin: 204 }),
  },

  // Invitations and requests to join
  ...(['invitations', 'membership-requests'] as const).map((path): Row => ({
    endpoint: `GET /api/communities/{id}/${path}`,
    route: `GET /api/communities/:id/${path}`,
    call: (w) => ({ method: 'GET', url: `/api/communities/${w.community}/${path}` }),
    expect: only({ manager: 200, owner: 200, admin: 200 }),
  })),
  {
    endpoint: 'POST /api/communities/{id}/invitations (a newcomer as reader)',
    route: 'POST /api/communities/:id/invitations',
    needs: { newcomer: true },
    call: (w) => ({
      method: 'POST',
      url: `/api/communities/${w.community}/invitations`,
      body: { members: [{ type: 'user', id: String(w.newcomerId) }], role: 'reader' },
    }),
    expect: only({ manager: 204, owner: 204, admin: 204 }),
  },
  {
    endpoint: 'PUT /api/communities/{id}/invitations (the role offered to other → curator)',
    route: 'PUT /api/communities/:id/invitations',
    needs: { invitation: true },
    call: (w) => ({
      method: 'PUT',
      url: `/api/communities/${w.community}/invitations`,
      body: { members: [{ type: 'user', id: String(w.otherId) }], role: 'curator' },
    }),
    expect: only({ manager: 204, owner: 204, admin: 204 }),
  },
  {
    // Members are members already (400); anyone else signed in may ask.
    endpoint: 'POST /api/communities/{id}/membership-requests',
    route: 'POST /api/communities/:id/membership-requests',
    call: (w) => ({
      method: 'POST',
      url: `/api/communities/${w.community}/membership-requests`,
      body: { message: 'Let me in' },
    }),
    expect: only({
      depositor: 201,
      other: 201,
      reader: 400,
      curator: 400,
      manager: 400,
      owner: 400,
      admin: 201,
    }),
  },
  {
    endpoint: "PUT /api/communities/{id}/membership-requests (the depositor's → curator)",
    route: 'PUT /api/communities/:id/membership-requests',
    needs: { membershipRequest: true },
    call: (w) => ({
      method: 'PUT',
      url: `/api/communities/${w.community}/membership-requests`,
      body: { members: [{ type: 'user', id: String(w.depositorId) }], role: 'curator' },
    }),
    expect: only({ manager: 204, owner: 204, admin: 204 }),
  },
  {
    // The community's managers see the invitation they may withdraw; the invited person answers.
    endpoint: 'GET /api/requests/{id} (an invitation of other)',
    route: 'GET /api/requests/:id',
    needs: { invitation: true },
    call: (w) => ({ method: 'GET', url: `/api/requests/${w.invitation}` }),
    expect: only({ other: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'POST /api/requests/{id}/actions/accept (an invitation of other: only other)',
    route: 'POST /api/requests/:id/actions/:action',
    needs: { invitation: true },
    call: (w) => ({ method: 'POST', url: `/api/requests/${w.invitation}/actions/accept` }),
    expect: only({ other: 200 }),
  },
  {
    endpoint: 'POST /api/requests/{id}/actions/cancel (an invitation of other: its managers)',
    route: 'POST /api/requests/:id/actions/:action',
    needs: { invitation: true },
    call: (w) => ({ method: 'POST', url: `/api/requests/${w.invitation}/actions/cancel` }),
    expect: only({ manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: "POST /api/requests/{id}/actions/accept (the depositor's request to join)",
    route: 'POST /api/requests/:id/actions/:action',
    needs: { membershipRequest: true },
    call: (w) => ({ method: 'POST', url: `/api/requests/${w.membershipRequest}/actions/accept` }),
    expect: only({ manager: 200, owner: 200, admin: 200 }),
  },

  // Requests
  {
    // invenio-requests' can_search is for signed-in users; each sees the requests it is part of.
    endpoint: 'GET /api/requests',
    route: 'GET /api/requests',
    call: () => ({ method: 'GET', url: '/api/requests' }),
    expect: only({ anonymous: 403 }, 200),
  },
  {
    endpoint: 'POST /api/requests',
    route: 'POST /api/requests',
    call: () => ({ method: 'POST', url: '/api/requests', body: {} }),
    expect: only({}, 405),
  },
  {
    endpoint: 'GET /api/requests (community, created_by=me, sort=updated, expand=1)',
    route: 'GET /api/requests',
    call: (w) => ({
      method: 'GET',
      url: `/api/requests?community=${w.community}&created_by=me&sort=updated&expand=1`,
    }),
    expect: only({ anonymous: 403 }, 200),
  },
  {
    endpoint: 'GET /api/user/requests',
    route: 'GET /api/user/requests',
    call: () => ({ method: 'GET', url: '/api/user/requests' }),
    expect: only({ anonymous: 403 }, 200),
  },
  {
    endpoint: 'GET /api/user/requests (community, created_by=me, sort=updated, expand=1)',
    route: 'GET /api/user/requests',
    call: (w) => ({
      method: 'GET',
      url: `/api/user/requests?community=${w.community}&created_by=me&sort=updated&expand=1`,
    }),
    expect: only({ anonymous: 403 }, 200),
  },
  {
    // Cairn extension: the header's count of open requests waiting for the caller.
    endpoint: 'GET /api/user/requests/count',
    route: 'GET /api/user/requests/count',
    call: () => ({ method: 'GET', url: '/api/user/requests/count' }),
    expect: only({ anonymous: 403 }, 200),
  },
  {
    endpoint: 'GET /api/requests/{id}',
    route: 'GET /api/requests/:id',
    call: (w) => ({ method: 'GET', url: `/api/requests/${w.submitted.request}` }),
    expect: only({ depositor: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    // Cairn extension: marking a request seen (the inbox's unread) is for those who may read it.
    endpoint: 'PUT /api/requests/{id}/seen',
    route: 'PUT /api/requests/:id/seen',
    call: (w) => ({ method: 'PUT', url: `/api/requests/${w.submitted.request}/seen` }),
    expect: only({ depositor: 204, curator: 204, manager: 204, owner: 204, admin: 204 }),
  },
  {
    endpoint: 'PUT /api/requests/{id}/seen (created: its creator’s alone)',
    route: 'PUT /api/requests/:id/seen',
    call: (w) => ({ method: 'PUT', url: `/api/requests/${w.created.request}/seen` }),
    expect: only({ depositor: 204, admin: 204 }),
  },
  {
    endpoint: 'GET /api/requests/{id} (created: its creator’s alone)',
    route: 'GET /api/requests/:id',
    call: (w) => ({ method: 'GET', url: `/api/requests/${w.created.request}` }),
    expect: only({ depositor: 200, admin: 200 }),
  },
  {
    endpoint: 'GET /api/requests/{id}/timeline',
    route: 'GET /api/requests/:id/timeline',
    call: (w) => ({ method: 'GET', url: `/api/requests/${w.submitted.request}/timeline` }),
    expect: only({ depositor: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'POST /api/requests/{id}/actions/submit',
    route: 'POST /api/requests/:id/actions/:action',
    call: (w) => ({ method: 'POST', url: `/api/requests/${w.created.request}/actions/submit` }),
    expect: only({ depositor: 200, admin: 200 }),
  },
  {
    endpoint: 'POST /api/requests/{id}/actions/accept',
    route: 'POST /api/requests/:id/actions/:action',
    call: (w) => ({ method: 'POST', url: `/api/requests/${w.submitted.request}/actions/accept` }),
    expect: only({ curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'POST /api/requests/{id}/actions/decline',
    route: 'POST /api/requests/:id/actions/:action',
    call: (w) => ({
      method: 'POST',
      url: `/api/requests/${w.submitted.request}/actions/decline`,
      body: comment,
    }),
    expect: only({ curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'POST /api/requests/{id}/actions/cancel',
    route: 'POST /api/requests/:id/actions/:action',
    call: (w) => ({ method: 'POST', url: `/api/requests/${w.submitted.request}/actions/cancel` }),
    expect: only({ depositor: 200, admin: 200 }),
  },
  {
    // The system's alone, administrators included (SystemProcessWithoutSuperUser).
    endpoint: 'POST /api/requests/{id}/actions/expire',
    route: 'POST /api/requests/:id/actions/:action',
    call: (w) => ({ method: 'POST', url: `/api/requests/${w.submitted.request}/actions/expire` }),
    expect: only({}),
  },
  {
    endpoint: 'POST /api/requests/{id}/comments',
    route: 'POST /api/requests/:id/comments',
    call: (w) => ({
      method: 'POST',
      url: `/api/requests/${w.submitted.request}/comments`,
      body: comment,
    }),
    expect: only({ depositor: 201, curator: 201, manager: 201, owner: 201, admin: 201 }),
  },
  {
    endpoint: 'GET /api/requests/{id}/comments/{cid}',
    route: 'GET /api/requests/:id/comments/:commentId',
    needs: { comment: true },
    call: (w) => ({
      method: 'GET',
      url: `/api/requests/${w.submitted.request}/comments/${w.comment}`,
    }),
    expect: only({ depositor: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    // Only a comment's author changes it (invenio-requests' Commenter).
    endpoint: 'PUT /api/requests/{id}/comments/{cid} (the depositor’s)',
    route: 'PUT /api/requests/:id/comments/:commentId',
    needs: { comment: true },
    call: (w) => ({
      method: 'PUT',
      url: `/api/requests/${w.submitted.request}/comments/${w.comment}`,
      body: { payload: { content: 'Another word', format: 'html' } },
    }),
    expect: only({ depositor: 200, admin: 200 }),
  },
  {
    endpoint: 'DELETE /api/requests/{id}/comments/{cid} (the depositor’s)',
    route: 'DELETE /api/requests/:id/comments/:commentId',
    needs: { comment: true },
    call: (w) => ({
      method: 'DELETE',
      url: `/api/requests/${w.submitted.request}/comments/${w.comment}`,
    }),
    expect: only({ depositor: 204, admin: 204 }),
  },

  // Reviews
  {
    endpoint: 'GET {draft}/review (submitted)',
    route: 'GET /api/records/:id/draft/review',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.submitted.draft}/draft/review` }),
    expect: only({ depositor: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'GET {draft}/review (not submitted)',
    route: 'GET /api/records/:id/draft/review',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.created.draft}/draft/review` }),
    expect: only({ depositor: 200, admin: 200 }),
  },
  {
    endpoint: 'GET {draft} (submitted: curators may read)',
    route: 'GET /api/records/:id/draft',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.submitted.draft}/draft` }),
    expect: only({ depositor: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    endpoint: 'GET {draft} (review not submitted)',
    route: 'GET /api/records/:id/draft',
    call: (w) => ({ method: 'GET', url: `/api/records/${w.created.draft}/draft` }),
    expect: only({ depositor: 200, admin: 200 }),
  },
  {
    endpoint: 'PUT {draft}/review',
    route: 'PUT /api/records/:id/draft/review',
    call: (w) => ({
      method: 'PUT',
      url: `/api/records/${w.bare.draft}/draft/review`,
      body: { type: 'community-submission', receiver: { community: w.community } },
    }),
    expect: only({ depositor: 200, admin: 200 }),
  },
  {
    endpoint: 'POST {draft}/actions/submit-review',
    route: 'POST /api/records/:id/draft/actions/submit-review',
    call: (w) => ({
      method: 'POST',
      url: `/api/records/${w.created.draft}/draft/actions/submit-review`,
    }),
    expect: only({ depositor: 202, admin: 202 }),
  },
  {
    endpoint: 'DELETE {draft}/review (not submitted)',
    route: 'DELETE /api/records/:id/draft/review',
    call: (w) => ({ method: 'DELETE', url: `/api/records/${w.created.draft}/draft/review` }),
    expect: only({ depositor: 204, admin: 204 }),
  },

  // A published record's communities and requests
  {
    endpoint: 'GET /api/records/{id} (restricted, in the community: its members view it)',
    route: 'GET /api/records/:id',
    needs: { record: 'restricted' },
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}` }),
    expect: only({ anonymous: 403, other: 403 }, 200),
  },
  {
    endpoint: 'GET /api/records/{id}/communities',
    route: 'GET /api/records/:id/communities',
    needs: { record: 'public' },
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/communities` }),
    expect: only({}, 200),
  },
  {
    endpoint: 'GET /api/records/{id}/communities (restricted record)',
    route: 'GET /api/records/:id/communities',
    needs: { record: 'restricted' },
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/communities` }),
    expect: only({ anonymous: 403, other: 403 }, 200),
  },
  {
    endpoint: 'GET /api/records/{id}/communities-suggestions',
    route: 'GET /api/records/:id/communities-suggestions',
    needs: { record: 'public' },
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/communities-suggestions` }),
    expect: only({ depositor: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    // Those who may read the record and are signed in (the requests search's own rule); each
    // sees only the requests it takes part in.
    endpoint: 'GET /api/records/{id}/requests',
    route: 'GET /api/records/:id/requests',
    needs: { record: 'public' },
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/requests` }),
    expect: only({ anonymous: 403 }, 200),
  },
  {
    endpoint: 'GET /api/records/{id}/requests (restricted record)',
    route: 'GET /api/records/:id/requests',
    needs: { record: 'restricted' },
    call: (w) => ({ method: 'GET', url: `/api/records/${w.record}/requests` }),
    expect: only({ anonymous: 403, other: 403 }, 200),
  },
  {
    endpoint: 'POST /api/records/{id}/communities',
    route: 'POST /api/records/:id/communities',
    needs: { record: 'public' },
    call: (w) => ({
      method: 'POST',
      url: `/api/records/${w.record}/communities`,
      body: { communities: [{ id: w.extra }] },
    }),
    expect: only({ depositor: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
  {
    // Nothing removed answers 400 with "Permission denied." per community, as InvenioRDM does.
    endpoint: 'DELETE /api/records/{id}/communities',
    route: 'DELETE /api/records/:id/communities',
    needs: { record: 'public' },
    call: (w) => ({
      method: 'DELETE',
      url: `/api/records/${w.record}/communities`,
      body: { communities: [{ id: w.community }] },
    }),
    expect: only({ depositor: 200, curator: 200, manager: 200, owner: 200, admin: 200 }, 400),
  },
  {
    endpoint: 'PUT /api/records/{id}/communities (default)',
    route: 'PUT /api/records/:id/communities',
    needs: { record: 'public' },
    call: (w) => ({
      method: 'PUT',
      url: `/api/records/${w.record}/communities`,
      body: { default: w.community },
    }),
    expect: only({ depositor: 200, curator: 200, manager: 200, owner: 200, admin: 200 }),
  },
];

/** Routes of other modules that the rows also cover: the draft and record they gate. */
const ROUTES_ELSEWHERE = new Set([
  'GET /api/communities/:id/records',
  'GET /api/records/:id',
  'GET /api/records/:id/draft',
]);

/**
 * Every route the four modules register, as the app registers them: a route added there without
 * a row here fails the coverage test.
 */
function moduleRoutes(t: TestApp): Promise<Set<string>> {
  return registeredRoutes((app) => registerCurationRoutes(app, t.services));
}

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

    async function world(needs: Needs = {}): Promise<World> {
      const { owner, depositor } = callers;
      const c = await call(owner, 'POST', '/api/communities', {
        slug: `matrix-${++serial}`,
        metadata: { title: 'Matrix' },
        access: { visibility: needs.restricted ? 'restricted' : 'public' },
      });
      expect(c.statusCode, c.body).toBe(201);
      const community = c.json().id as string;
      for (const role of ['reader', 'curator', 'manager'] as const) {
        const add = await call(owner, 'POST', `/api/communities/${community}/members`, {
          members: [{ type: 'user', id: String(callers[role].id) }],
          role,
        });
        expect(add.statusCode, add.body).toBe(204);
      }
      if (needs.logo) {
        const logo = await t.request({
          method: 'PUT',
          url: `/api/communities/${community}/logo`,
          payload: Buffer.from('logo bytes'),
          headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
        });
        expect(logo.statusCode, logo.body).toBe(200);
      }
      const w: World = {
        community,
        submitted: { draft: '', request: '' },
        created: { draft: '', request: '' },
        bare: { draft: '' },
        readerId: callers.reader.id,
        newcomerId: needs.newcomer ? (await t.user()).id : 0,
        record: '',
        extra: '',
        comment: '',
        invitation: '',
        membershipRequest: '',
        otherId: callers.other.id,
        depositorId: depositor.id,
      };
      if (needs.invitation) {
        const invited = await call(owner, 'POST', `/api/communities/${community}/invitations`, {
          members: [{ type: 'user', id: String(callers.other.id) }],
          role: 'reader',
        });
        expect(invited.statusCode, invited.body).toBe(204);
        const found = await call(
          callers.other,
          'GET',
          `/api/requests?type=community-invitation&community=${community}`,
        );
        w.invitation = found.json().hits.hits[0].id as string;
      }
      if (needs.membershipRequest) {
        const asked = await call(
          depositor,
          'POST',
          `/api/communities/${community}/membership-requests`,
          {},
        );
        expect(asked.statusCode, asked.body).toBe(201);
        w.membershipRequest = asked.json().id as string;
      }
      // Outsiders cannot choose a restricted community: its rows need none of the drafts.
      if (needs.restricted) return w;

      const draft = async (access = 'public') =>
        (
          await call(depositor, 'POST', '/api/records', {
            metadata: PUBLISHABLE_METADATA,
            files: { enabled: false },
            access: { record: access, files: access },
          })
        ).json().id as string;
      const review = async (id: string) => {
        const put = await call(depositor, 'PUT', `/api/records/${id}/draft/review`, {
          type: 'community-submission',
          receiver: { community },
        });
        expect(put.statusCode, put.body).toBe(200);
        return put.json().id as string;
      };
      w.submitted.draft = await draft();
      await review(w.submitted.draft);
      const submitted = await call(
        depositor,
        'POST',
        `/api/records/${w.submitted.draft}/draft/actions/submit-review`,
      );
      expect(submitted.statusCode, submitted.body).toBe(202);
      w.submitted.request = submitted.json().id as string;
      w.created.draft = await draft();
      w.created.request = await review(w.created.draft);
      w.bare.draft = await draft();
      if (needs.record) {
        w.record = await draft(needs.record);
        await review(w.record);
        const request = (
          await call(depositor, 'POST', `/api/records/${w.record}/draft/actions/submit-review`)
        ).json().id as string;
        const accepted = await call(owner, 'POST', `/api/requests/${request}/actions/accept`);
        expect(accepted.statusCode, accepted.body).toBe(200);
      }
      if (needs.comment) {
        const made = await call(
          depositor,
          'POST',
          `/api/requests/${w.submitted.request}/comments`,
          comment,
        );
        expect(made.statusCode, made.body).toBe(201);
        w.comment = made.json().id as string;
      }
      const extra = await call(callers.admin, 'POST', '/api/communities', {
        slug: `matrix-extra-${serial}`,
        metadata: { title: 'Extra' },
      });
      w.extra = extra.json().id as string;
      return w;
    }

    it('has a row for every route of the communities, requests, reviews and record-communities modules', async () => {
      const registered = await moduleRoutes(t);
      const covered = new Set(ROWS.map((row) => row.route));
      expect([...registered].filter((route) => !covered.has(route))).toEqual([]);
      // And no row names a route that does not exist.
      expect(
        [...covered].filter((route) => !registered.has(route) && !ROUTES_ELSEWHERE.has(route)),
      ).toEqual([]);
      for (const route of ROUTES_ELSEWHERE) {
        const [method, url] = route.split(' ') as ['GET', string];
        expect(t.app.hasRoute({ method, url }), route).toBe(true);
      }
    });

    it.each(ROWS.map((row) => [row.endpoint, row] as const))('%s', async (_name, row) => {
      const cells: Record<string, number> = {};
      for (const role of ROLES) {
        const w = await world(row.needs);
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
