import { expect } from 'vitest';
import type { TestApp } from './app.js';
import type { Caller } from './files.js';

export type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

/** A request as `caller` (anonymous without one), with `body` as JSON. */
export function requestAs(t: TestApp, method: Method, url: string, caller?: Caller, body?: object) {
  return t.request({ method, url, headers: caller?.headers ?? {}, ...(body ? { body } : {}) });
}

/** Creates a community titled by its slug, owned by `owner`; returns its id. */
export async function createCommunity(
  t: TestApp,
  owner: Caller,
  slug: string,
  access: Record<string, string>,
): Promise<string> {
  const res = await requestAs(t, 'POST', '/api/communities', owner, {
    slug,
    metadata: { title: slug },
    access,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

/** Makes `member` a member of the community with `role`, as its owner. */
export async function addMember(
  t: TestApp,
  owner: Caller,
  communityId: string,
  member: Caller,
  role: string,
): Promise<void> {
  const res = await requestAs(t, 'POST', `/api/communities/${communityId}/members`, owner, {
    members: [{ type: 'user', id: String(member.id) }],
    role,
  });
  expect(res.statusCode, res.body).toBe(204);
}

/** Moves a submitted request's expiry date into the past: the next expiry sweep expires it. */
export async function makeDue(t: TestApp, requestId: string): Promise<void> {
  await t.services.database.db
    .updateTable('requests')
    .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', requestId)
    .execute();
}
