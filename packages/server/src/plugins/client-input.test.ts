import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../test/databases.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { expectError, expectValidationFailed } from '../test/assertions.js';
import { createCommunity, requestAs } from '../test/communities.js';
import { FilesApi, type Caller } from '../test/files.js';
import { JSON_MAX_DEPTH as MAX_JSON_DEPTH } from '@cairn/shared';

// Hostile input where it enters: JSON nested deeper than any record needs, and text that is not
// well-formed Unicode (or holds U+0000, which PostgreSQL cannot store) in bodies, query strings
// and path parameters. Each is refused with a 400 naming what is wrong, and nothing is stored.

const ILL_FORMED = 'Text must be well-formed Unicode: this holds an unpaired UTF-16 surrogate.';
const NUL = 'Text must not contain the NUL character (U+0000).';
const TOO_DEEP = `JSON nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays is not accepted.`;

/** `depth` levels of nesting around `inner`, alternating arrays and objects. */
function nested(depth: number, inner = '1'): string {
  let text = inner;
  for (let level = 0; level < depth; level++)
    text = level % 2 === 0 ? `[${text}]` : `{"a":${text}}`;
  return text;
}

describe.each(ENGINES)('hostile input where it enters (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let files: FilesApi;
  let communityId: string;

  /** How many uploads (drafts and records) the owner has. */
  async function uploads(): Promise<number> {
    const res = await requestAs(t, 'GET', '/api/user/records', owner);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().hits.total as number;
  }

  function post(url: string, payload: string | Buffer) {
    return t.request({
      method: 'POST',
      url,
      headers: { ...owner.headers, 'content-type': 'application/json' },
      payload,
    });
  }

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    files = new FilesApi(t, owner);
    communityId = await createCommunity(t, owner, 'hostile', {});
  });
  afterAll(() => t?.close());

  describe('JSON nesting', () => {
    it('refuses a draft nesting 5,000 levels deep in its title (400) and creates nothing', async () => {
      const before = await uploads();
      const body = `{"metadata":{"title":${nested(5000)}}}`;
      expectError(await post('/api/records', body), 400, 'JSON_TOO_DEEP', TOO_DEEP);
      const objects = `{"metadata":{"title":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`;
      expectError(await post('/api/records', objects), 400, 'JSON_TOO_DEEP', TOO_DEEP);
      expect(await uploads()).toBe(before);
    });

    it(`counts objects and arrays alike, up to ${MAX_JSON_DEPTH} levels accepted`, async () => {
      // The body's own object is level 1, so the title's value adds MAX - 1 levels at most.
      const deepest = `{"metadata":{"title":"Deep","x":${nested(MAX_JSON_DEPTH - 2)}}}`;
      const accepted = await post('/api/records', deepest);
      expect(accepted.statusCode, accepted.body).toBe(201);
      const tooDeep = `{"metadata":{"title":"Deep","x":${nested(MAX_JSON_DEPTH - 1)}}}`;
      expectError(await post('/api/records', tooDeep), 400, 'JSON_TOO_DEEP', TOO_DEEP);
      const arrays = `[${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}]`;
      expectError(await post('/api/records', arrays), 400, 'JSON_TOO_DEEP', TOO_DEEP);
    });

    it('counts no brackets inside strings, escaped quotes included', async () => {
      const title = `Brackets ${'[{'.repeat(3000)} and \\" quotes ${'"'.length}`;
      const res = await post(
        '/api/records',
        `{"metadata":{"title":"${title}","description":"\\\\"}}`,
      );
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().metadata.title).toBe(title.replace('\\"', '"'));
    });

    it('documents the limit in the OpenAPI description', () => {
      const { info } = t.app.swagger() as { info: { description: string } };
      expect(info.description).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
    });

    it('refuses deep file metadata, sent to the route that also takes bytes', async () => {
      const { id } = await files.createDraft();
      await files.upload(id, 'a.txt', 'hello');
      const before = await files.snapshot(id);
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/records/${id}/draft/files/a.txt`,
        headers: { ...owner.headers, 'content-type': 'application/json' },
        payload: `{"metadata":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
      });
      expectError(res, 400, 'JSON_TOO_DEEP', TOO_DEEP);
      expect(await files.snapshot(id)).toEqual(before);
    });
  });

  describe('text that is not well-formed Unicode, and U+0000', () => {
    it('refuses a file key holding a lone surrogate (400, naming it) and stores nothing', async () => {
      const { id } = await files.createDraft();
      const before = await files.snapshot(id);
      for (const key of ['\\ud800', 'a\\udc00b', '\\udc00\\ud800', 'x\\uD83D']) {
        expectValidationFailed(await files.init(id, `[{"key":"${key}"}]`), [
          { field: '0.key', messages: [ILL_FORMED] },
        ]);
      }
      expectValidationFailed(await files.init(id, '[{"key":"ok.txt"},{"key":"a\\u0000b"}]'), [
        { field: '1.key', messages: [NUL] },
      ]);
      expectValidationFailed(
        await files.init(id, '[{"key":"notes.txt","metadata":{"note":"a\\u0000b"}}]'),
        [{ field: '0.metadata.note', messages: [NUL] }],
      );
      expect(await files.snapshot(id)).toEqual(before);
      // A well-formed pair is one character, and is kept as sent.
      const ok = await files.init(id, '[{"key":"\\ud83d\\ude00.txt"}]');
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json().entries[0].key).toBe('😀.txt');
    });

    it('refuses such text in draft metadata, in keys too, rather than rewriting it', async () => {
      const before = await uploads();
      const cases: Array<[string, string, string]> = [
        ['{"metadata":{"title":"Half \\ud800 a pair"}}', 'metadata.title', ILL_FORMED],
        ['{"metadata":{"title":"Null\\u0000 byte"}}', 'metadata.title', NUL],
        [
          '{"metadata":{"title":"t","creators":[{"person_or_org":{"family_name":"\\udfff"}}]}}',
          'metadata.creators.0.person_or_org.family_name',
          ILL_FORMED,
        ],
        ['{"custom_fields":{"key\\u0000":"value"}}', 'custom_fields.key\u2400', NUL],
        ['{"custom_fields":{"k\\ud800":"value"}}', 'custom_fields.k\ufffd', ILL_FORMED],
      ];
      for (const [body, field, message] of cases) {
        expectValidationFailed(await post('/api/records', body), [{ field, messages: [message] }]);
      }
      expect(await uploads()).toBe(before);
      const { id, revision_id } = await files.createDraft();
      const save = await t.request({
        method: 'PUT',
        url: `/api/records/${id}/draft`,
        headers: { ...owner.headers, 'content-type': 'application/json' },
        payload: `{"metadata":{"title":"\\ud800"}}`,
      });
      expectValidationFailed(save, [{ field: 'metadata.title', messages: [ILL_FORMED] }]);
      expect((await files.draft(id)).revision_id).toBe(revision_id);
    });

    it('refuses bytes that are not UTF-8 in a body, naming the field they are in', async () => {
      const before = await uploads();
      // A surrogate encoded as if it were a character (CESU-8): never valid UTF-8.
      const body = Buffer.concat([
        Buffer.from('{"metadata":{"title":"a'),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('"}}'),
      ]);
      expectValidationFailed(await post('/api/records', body), [
        { field: 'metadata.title', messages: [ILL_FORMED] },
      ]);
      const stray = Buffer.concat([
        Buffer.from('{"metadata":{"title":"'),
        Buffer.from([0xff, 0x22, 0x7d, 0x7d]),
      ]);
      expectValidationFailed(await post('/api/records', stray), [
        { field: 'metadata.title', messages: [ILL_FORMED] },
      ]);
      expect(await uploads()).toBe(before);
    });

    it('refuses it in community fields, request comments and token names', async () => {
      const community = await t.request({
        method: 'PUT',
        url: `/api/communities/${communityId}`,
        headers: { ...owner.headers, 'content-type': 'application/json' },
        payload: '{"metadata":{"title":"\\udbff title"},"access":{}}',
      });
      expectValidationFailed(community, [{ field: 'metadata.title', messages: [ILL_FORMED] }]);
      expect(
        (await requestAs(t, 'GET', `/api/communities/${communityId}`)).json().metadata.title,
      ).toBe('hostile');

      const draft = await files.createDraft();
      const review = await requestAs(t, 'PUT', `/api/records/${draft.id}/draft/review`, owner, {
        type: 'community-submission',
        receiver: { community: communityId },
      });
      expect(review.statusCode, review.body).toBe(200);
      const requestId = review.json().id as string;
      expectValidationFailed(
        await post(
          `/api/requests/${requestId}/comments`,
          '{"payload":{"content":"<p>\\ud800</p>","format":"html"}}',
        ),
        [{ field: 'payload.content', messages: [ILL_FORMED] }],
      );
      const timeline = await requestAs(t, 'GET', `/api/requests/${requestId}/timeline`, owner);
      expect(timeline.json().hits.total).toBe(0);

      expectValidationFailed(await post('/api/user/tokens', '{"name":"ci\\u0000"}'), [
        { field: 'name', messages: [NUL] },
      ]);
    });

    it('refuses it in query strings, escaped or as bytes that are not UTF-8', async () => {
      for (const [url, field, message] of [
        ['/api/records?q=a%00b', 'q', NUL],
        ['/api/records?q=%ED%A0%80', 'q', ILL_FORMED],
        ['/api/communities?q=x&type=%FF', 'type', ILL_FORMED],
        ['/api/user/records?is_published=f%00alse', 'is_published', NUL],
        ['/api/names?suggest=%C3', 'suggest', ILL_FORMED],
      ] as const) {
        const res = await requestAs(t, 'GET', url, owner);
        expectValidationFailed(res, [{ field, messages: [message] }]);
      }
      // A `%` that starts no escape is a literal percent sign, as it always was.
      const literal = await requestAs(t, 'GET', '/api/records?q=100%', owner);
      expect(literal.statusCode, literal.body).toBe(200);
      expect(literal.json().links.self).toContain('q=100%25');
    });

    it('refuses U+0000 in path parameters, a file key included', async () => {
      const { id } = await files.createDraft();
      await files.upload(id, 'a.txt', 'hello');
      expectValidationFailed(await files.get(`/api/records/${id}/draft/files/a%00b`), [
        { field: 'key', messages: [NUL] },
      ]);
      expectValidationFailed(await files.delete(id, 'a.txt%00'), [
        { field: 'key', messages: [NUL] },
      ]);
      expectValidationFailed(await requestAs(t, 'GET', '/api/communities/x%00y'), [
        { field: 'id', messages: [NUL] },
      ]);
      expect((await files.get(`/api/records/${id}/draft/files/a.txt`)).statusCode).toBe(200);
    });
  });
});
