import { expect } from 'vitest';
import type { TestApp } from './app.js';
import { PUBLISHABLE_METADATA, type Caller } from './files.js';

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

/** What the helpers below need of an answer: in-process (inject) and over HTTP alike. */
export interface Answer {
  status: number;
  text: string;
  json: () => Record<string, any>;
}

/** A request with `headers` and `body` as JSON, to an app in this process or a server process. */
export type Api = (
  method: Method,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
) => Promise<Answer>;

/** The test app as an `Api`. */
export function injectApi(t: TestApp): Api {
  return async (method, url, headers, body) => {
    const res = await t.request({
      method,
      url,
      headers,
      ...(body === undefined ? {} : { body: body as object }),
    });
    return { status: res.statusCode, text: res.body, json: () => res.json() };
  };
}

/**
 * A public draft of the depositor's (headers) titled `title`, its review put to `community` but
 * not submitted: the draft's and the request's ids.
 */
export async function draftForReview(
  api: Api,
  depositor: Record<string, string>,
  community: string,
  title = PUBLISHABLE_METADATA.title,
): Promise<{ draft: string; request: string }> {
  const created = await api('POST', '/api/records', depositor, {
    metadata: { ...PUBLISHABLE_METADATA, title },
    files: { enabled: false },
    access: { record: 'public', files: 'public' },
  });
  expect(created.status, created.text).toBe(201);
  const draft = created.json().id as string;
  const review = await api('PUT', `/api/records/${draft}/draft/review`, depositor, {
    type: 'community-submission',
    receiver: { community },
  });
  expect(review.status, review.text).toBe(200);
  return { draft, request: review.json().id as string };
}
