import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './test/databases.js';
import { createTestApp, type TestApp } from './test/app.js';
import { expectError } from './test/assertions.js';
import { FilesApi, type Caller } from './test/files.js';

// What the fuzzer (api.fuzz.test.ts) found, each pinned by a focused test.

const UNSUPPORTED_MEDIA_TYPE = "Invalid 'Content-Type' header. Expected one of: application/json";

describe.each(ENGINES)('requests the fuzzer found answered 500 (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let files: FilesApi;

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    files = new FilesApi(t, owner);
  });
  afterAll(() => t?.close());

  it('answers 415 to raw bytes sent to a route that takes JSON, and creates nothing', async () => {
    const before = (await files.get('/api/user/records')).json().hits.total as number;
    const { id } = await files.createDraft();
    for (const [method, url] of [
      ['POST', '/api/records'],
      ['PUT', `/api/records/${id}/draft`],
      ['POST', '/api/communities'],
      ['POST', `/api/records/${id}/draft/files`],
    ] as const) {
      const res = await t.request({
        method,
        url,
        headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
        payload: '{}',
      });
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE', UNSUPPORTED_MEDIA_TYPE);
    }
    expect((await files.get('/api/user/records')).json().hits.total).toBe(before + 1);
  });
});
