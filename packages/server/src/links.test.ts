import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createCommunity, requestAs, type Method } from './test/communities.js';
import { ENGINES } from './test/databases.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from './test/files.js';
import { createPagesTestApp } from './test/pages.js';
import type { TestApp } from './test/app.js';

const SITE = 'https://cairn.test';

/**
 * Links that stand for an action, with the method they are meant for; every other link is read
 * with GET. A published record's `draft` is where an edit starts (POST), a draft's `review` where
 * a review is asked for (PUT): reading either answers 404 until there is one, as upstream.
 */
const ACTION_METHODS: Record<string, Method> = {
  publish: 'POST',
  'submit-review': 'POST',
  reserve_doi: 'POST',
  draft: 'POST',
  review: 'PUT',
  // The record's access settings are replaced (PUT), access is asked for (POST), as upstream.
  access: 'PUT',
  access_request: 'POST',
  commit: 'POST',
  rename: 'POST',
  comments: 'POST',
};

interface Link {
  /** Where the link was found: the URL of the JSON that held it. */
  from: string;
  /** Its name in `links` (`actions.accept`, `parts` for a multipart upload's part URLs). */
  name: string;
  url: string;
  method: Method;
}

/** Every link anywhere in `json`: its own `links`, those of files, parents, hits and events. */
function linksIn(json: unknown, from: string, out: Link[] = []): Link[] {
  if (Array.isArray(json)) {
    for (const item of json) linksIn(item, from, out);
    return out;
  }
  if (json === null || typeof json !== 'object') return out;
  for (const [key, value] of Object.entries(json)) {
    // `parent.access.links` is the list of secret links, not a map of addresses.
    if (key !== 'links' || Array.isArray(value) || value === null || typeof value !== 'object') {
      linksIn(value, from, out);
      continue;
    }
    for (const [name, target] of Object.entries(value)) {
      if (typeof target === 'string') {
        out.push({ from, name, url: target, method: ACTION_METHODS[name] ?? 'GET' });
      } else if (Array.isArray(target)) {
        for (const part of target as Array<{ url?: unknown }>) {
          if (typeof part.url === 'string') out.push({ from, name, url: part.url, method: 'PUT' });
        }
      } else if (target && typeof target === 'object') {
        for (const [action, url] of Object.entries(target)) {
          if (typeof url === 'string')
            out.push({ from, name: `${name}.${action}`, url, method: 'POST' });
        }
      }
    }
  }
  return out;
}

describe.each(ENGINES)('links on %s', (engine) => {
  let t: TestApp;
  let dataDir: string;
  /** The depositor, who owns every record and draft. */
  let owner: Caller;
  /** Owner of the community, which reviews submissions. */
  let curator: Caller;
  /** Signed in, with no right to anything here: sends the action links, which then change nothing. */
  let stranger: Caller;
  /** JSON documents the crawl starts from, each read as the person who sees most of it. */
  const seeds: Array<{ url: string; caller: Caller }> = [];

  const req = (method: Method, url: string, caller?: Caller, body?: object) =>
    requestAs(t, method, url, caller, body);

  async function ok(method: Method, url: string, caller: Caller, body?: object) {
    const res = await req(method, url, caller, body);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json<Record<string, any>>();
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'cairn-links-'));
    t = await createPagesTestApp(engine, { CAIRN_DATA_DIR: dataDir });
    [owner, curator, stranger] = [await t.user(), await t.user(), await t.user()];
    const files = new FilesApi(t, owner);
    const metadata = { ...PUBLISHABLE_METADATA, publisher: 'Cairn' };

    // With a logo: without one, its link is only where one is uploaded (PUT), as upstream.
    const community = await createCommunity(t, curator, 'glaciers', { review_policy: 'closed' });
    await addMember(t, curator, community, owner, 'reader');
    const logo = await t.app.inject({
      method: 'PUT',
      url: `/api/communities/${community}/logo`,
      headers: { ...curator.headers, 'content-type': 'application/octet-stream' },
      payload: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    });
    expect(logo.statusCode, logo.body).toBe(200);

    // A draft with a file, and a multipart upload still open (its part links).
    const draft = await files.createDraft({ metadata });
    await files.upload(draft.id, 'data.csv', 'a,b\n1,2\n');
    const init = await files.init(draft.id, [
      { key: 'big.bin', size: 25, transfer: { type: 'M', parts: 3, part_size: 10 } },
    ]);
    expect(init.statusCode, init.body).toBe(201);

    // A published record with a file and a DOI, being edited, and a new version's draft.
    const first = await files.createDraft({ metadata });
    await files.upload(first.id, 'readme.txt', 'first version');
    await ok('POST', `/api/records/${first.id}/draft/pids/doi`, owner);
    await files.publish(first.id);
    await ok('POST', `/api/records/${first.id}/draft`, owner);
    const version = await ok('POST', `/api/records/${first.id}/versions`, owner);
    // And one nobody edits: links that need a draft would lead nowhere from it.
    const plain = await files.publishedRecord('Plain record');

    // A draft submitted to the community, with a comment on its request.
    const reviewed = await files.createDraft({ metadata, files: { enabled: false } });
    const request = await ok('PUT', `/api/records/${reviewed.id}/draft/review`, owner, {
      type: 'community-submission',
      receiver: { community },
    });
    await ok('POST', `/api/records/${reviewed.id}/draft/actions/submit-review`, owner, {
      payload: { content: 'Please have a look', format: 'html' },
    });
    await ok('POST', `/api/requests/${request.id as string}/comments`, curator, {
      payload: { content: 'Looking', format: 'html' },
    });

    for (const url of [
      `/api/records/${draft.id}/draft`,
      `/api/records/${first.id}`,
      `/api/records/${first.id}/draft`,
      `/api/records/${plain}`,
      `/api/records/${version.id as string}/draft`,
      `/api/records/${reviewed.id}/draft`,
      `/api/records/${first.id}/communities`,
      `/api/records/${first.id}/requests`,
      '/api/records?q=sediment',
      '/api/user/records',
      `/api/requests/${request.id as string}`,
      '/api/user/requests',
      '/api/communities',
      '/api/user/communities',
      `/api/communities/${community}`,
      '/api/vocabularies/licenses?size=2',
      '/api/vocabularies/resourcetypes/dataset',
    ]) {
      seeds.push({ url, caller: owner });
    }
    // The curator is offered the decisions, and sees the members and the community's requests.
    for (const url of [
      `/api/requests/${request.id as string}`,
      `/api/communities/${community}`,
      `/api/communities/${community}/members`,
      `/api/communities/${community}/requests`,
    ]) {
      seeds.push({ url, caller: curator });
    }
  });

  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers every link of records, drafts, files, communities and requests', async () => {
    const failures: string[] = [];
    const seen = new Set<string>();
    const followed = new Set<string>();
    // Breadth first: the links of the seeds, then the links of what those answered.
    let queue: Array<Link & { caller: Caller }> = [];
    for (const seed of seeds) {
      const res = await req('GET', seed.url, seed.caller);
      expect(res.statusCode, `${seed.url}: ${res.body}`).toBe(200);
      queue.push(...linksIn(res.json(), seed.url).map((l) => ({ ...l, caller: seed.caller })));
    }
    for (let depth = 0; depth < 2 && queue.length > 0; depth++) {
      const next: typeof queue = [];
      for (const link of queue) {
        const url = new URL(link.url);
        // DOIs lead to doi.org; every other link must be this site's.
        if (url.origin !== SITE) {
          expect(url.origin, `${link.from} ${link.name}`).toBe('https://doi.org');
          continue;
        }
        const target = url.pathname + url.search;
        // Actions are sent by the stranger, whom every route refuses without acting.
        const caller = link.method === 'GET' ? link.caller : stranger;
        const key = `${link.method} ${target} ${caller.id}`;
        followed.add(link.name);
        if (seen.has(key)) continue;
        seen.add(key);
        const res = await t.app.inject({
          method: link.method,
          url: target,
          headers: {
            ...caller.headers,
            ...(link.method === 'PUT' && link.name === 'parts'
              ? { 'content-type': 'application/octet-stream' }
              : {}),
          },
        });
        if (res.statusCode === 404 || res.statusCode === 405) {
          failures.push(`${link.from} ${link.name}: ${link.method} ${target} → ${res.statusCode}`);
          continue;
        }
        if (link.method !== 'GET') {
          // Refused, so that it changed nothing the links still to follow lead to.
          if (res.statusCode < 400)
            failures.push(
              `${link.name}: the stranger's ${link.method} ${target} → ${res.statusCode}`,
            );
          continue;
        }
        const location = res.headers.location;
        if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
          next.push({ ...link, from: target, url: new URL(location, SITE).href });
        } else if (String(res.headers['content-type']).includes('json')) {
          next.push(...linksIn(res.json(), target).map((l) => ({ ...l, caller: link.caller })));
        }
      }
      queue = next;
    }
    expect(failures).toEqual([]);
    // The crawl reached the links of files, parts, hits, events and decisions too.
    expect([...followed]).toEqual(
      expect.arrayContaining(
        ['content', 'commit', 'parts', 'next', 'parent_html', 'latest_html', 'record_html'].concat([
          'reserve_doi',
          'actions.accept',
          'actions.decline',
          'actions.cancel',
          'comments',
          'logo',
        ]),
      ),
    );
  });
});
