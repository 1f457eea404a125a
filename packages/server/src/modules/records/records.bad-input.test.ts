import { BIBLIOGRAPHY_TYPE } from './exports/bibliography.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectError, expectValidationFailed } from '../../test/assertions.js';
import { newRecordId } from './record-id.js';
import { EXPORT_MEDIA_TYPES } from './exports/export-formats.js';
import { LINKSET_TYPES } from './signposting.js';

// The "Bad input" requirement, route by route: malformed JSON, wrong types, unknown ids,
// oversize bodies, other users' drafts, missing CSRF header and refused negotiation each answer the
// 4xx InvenioRDM gives, never a 500, and change nothing.

const BODY_LIMIT = 4096;
const NOT_ACCEPTABLE =
  "Invalid 'Accept' header. Expected one of: application/json, application/vnd.inveniordm.v1+json";
// Reading one record also offers the export formats, so InvenioRDM's 406 lists them too.
const NOT_ACCEPTABLE_RECORD = `${NOT_ACCEPTABLE}, ${[...EXPORT_MEDIA_TYPES, BIBLIOGRAPHY_TYPE, ...LINKSET_TYPES].join(', ')}`;
const UNSUPPORTED_MEDIA_TYPE = "Invalid 'Content-Type' header. Expected one of: application/json";
const NO_PID = 'The persistent identifier does not exist.';

const validMetadata = {
  title: 'Ocean temperature profiles',
  publication_date: '2024-05-01',
  resource_type: { id: 'dataset' },
  creators: [{ person_or_org: { type: 'personal', family_name: 'Curie', given_name: 'Marie' } }],
};
const validBody = { metadata: validMetadata, files: { enabled: false } };

type Caller = Awaited<ReturnType<TestApp['user']>>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One route under test; `url` is read when the test runs, after the fixtures exist. */
interface Route {
  name: string;
  method: Method;
  url: () => string;
  /** A body that the route would accept, so only the flaw under test can make it fail. */
  body?: object;
}

/** The id of an existing draft with its two checksum digits changed: well-formed, never valid. */
function withWrongChecksum(id: string): string {
  const digits = Number(id.slice(-2));
  return `${id.slice(0, -2)}${String((digits + 1) % 100).padStart(2, '0')}`;
}

describe.each(ENGINES)('bad input on the records API (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let other: Caller;
  /** An unpublished draft of `owner`, valid and publishable. */
  let draftId: string;
  /** A published record of `owner` without an open draft. */
  let recordId: string;

  async function createDraft(body: object = validBody, caller: Caller = owner) {
    const res = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: caller.headers,
      body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Record<string, any>>();
  }

  async function publish(id: string, caller: Caller = owner) {
    const res = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/actions/publish`,
      headers: caller.headers,
    });
    expect(res.statusCode, res.body).toBe(202);
    return res.json<Record<string, any>>();
  }

  async function publishNew(body: object = validBody) {
    return publish((await createDraft(body)).id as string);
  }

  /**
   * Everything `owner` has, as the dashboard lists it: any write (a save, a publish, an edit or a
   * new version, a reserved DOI, a discard) changes an id, a revision or the content here.
   */
  async function ownerState(): Promise<unknown[]> {
    const res = await t.request({
      method: 'GET',
      url: '/api/user/records?size=1000',
      headers: owner.headers,
    });
    expect(res.statusCode).toBe(200);
    return (res.json().hits.hits as Array<Record<string, unknown>>)
      .map((h) => ({
        id: h.id,
        revision_id: h.revision_id,
        is_draft: h.is_draft,
        is_published: h.is_published,
        metadata: h.metadata,
        access: h.access,
        pids: h.pids,
      }))
      .sort((a, b) => String(a.id).localeCompare(String(b.id)));
  }

  async function readDraft(id: string) {
    const res = await t.request({
      method: 'GET',
      url: `/api/records/${id}/draft`,
      headers: owner.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Record<string, any>>();
  }

  beforeAll(async () => {
    t = await createTestApp(engine, { CAIRN_BODY_LIMIT_BYTES: String(BODY_LIMIT) });
    owner = await t.user();
    other = await t.user();
    draftId = (await createDraft()).id as string;
    recordId = (await publishNew()).id as string;
  });
  afterAll(() => t.close());

  /** Every route that reads a request body. */
  const bodyRoutes: Route[] = [
    { name: 'POST /api/records', method: 'POST', url: () => '/api/records', body: validBody },
    {
      name: 'PUT …/draft',
      method: 'PUT',
      url: () => `/api/records/${draftId}/draft`,
      body: validBody,
    },
    { name: 'DELETE …/draft', method: 'DELETE', url: () => `/api/records/${draftId}/draft` },
    { name: 'POST …/draft (edit)', method: 'POST', url: () => `/api/records/${recordId}/draft` },
    {
      name: 'POST …/draft/actions/publish',
      method: 'POST',
      url: () => `/api/records/${draftId}/draft/actions/publish`,
    },
    {
      name: 'POST …/draft/pids/doi',
      method: 'POST',
      url: () => `/api/records/${draftId}/draft/pids/doi`,
    },
    {
      name: 'DELETE …/draft/pids/doi',
      method: 'DELETE',
      url: () => `/api/records/${draftId}/draft/pids/doi`,
    },
    { name: 'POST …/versions', method: 'POST', url: () => `/api/records/${recordId}/versions` },
  ];

  /** Every records route, each aimed at something that exists, with a body it would accept. */
  const allRoutes: Route[] = [
    ...bodyRoutes,
    { name: 'GET …/draft', method: 'GET', url: () => `/api/records/${draftId}/draft` },
    { name: 'GET …/versions', method: 'GET', url: () => `/api/records/${recordId}/versions` },
    {
      name: 'GET …/versions/latest',
      method: 'GET',
      url: () => `/api/records/${recordId}/versions/latest`,
    },
    { name: 'GET /api/records/{id}', method: 'GET', url: () => `/api/records/${recordId}` },
    { name: 'GET /api/records', method: 'GET', url: () => '/api/records' },
    { name: 'GET /api/user/records', method: 'GET', url: () => '/api/user/records' },
  ];

  /** Routes addressing one record or draft by id, for the unknown-id cases. */
  const idRoutes: Array<{ name: string; method: Method; path: (id: string) => string }> = [
    { name: 'GET …/draft', method: 'GET', path: (id) => `/api/records/${id}/draft` },
    { name: 'PUT …/draft', method: 'PUT', path: (id) => `/api/records/${id}/draft` },
    { name: 'DELETE …/draft', method: 'DELETE', path: (id) => `/api/records/${id}/draft` },
    { name: 'POST …/draft (edit)', method: 'POST', path: (id) => `/api/records/${id}/draft` },
    {
      name: 'POST …/draft/actions/publish',
      method: 'POST',
      path: (id) => `/api/records/${id}/draft/actions/publish`,
    },
    {
      name: 'POST …/draft/pids/doi',
      method: 'POST',
      path: (id) => `/api/records/${id}/draft/pids/doi`,
    },
    {
      name: 'DELETE …/draft/pids/doi',
      method: 'DELETE',
      path: (id) => `/api/records/${id}/draft/pids/doi`,
    },
    { name: 'POST …/versions', method: 'POST', path: (id) => `/api/records/${id}/versions` },
    { name: 'GET …/versions', method: 'GET', path: (id) => `/api/records/${id}/versions` },
    {
      name: 'GET …/versions/latest',
      method: 'GET',
      path: (id) => `/api/records/${id}/versions/latest`,
    },
    { name: 'GET /api/records/{id}', method: 'GET', path: (id) => `/api/records/${id}` },
  ];

  describe('request bodies', () => {
    it.each(bodyRoutes)('$name: malformed JSON is 400 and changes nothing', async (route) => {
      const before = await ownerState();
      const res = await t.request({
        method: route.method,
        url: route.url(),
        headers: { ...owner.headers, 'content-type': 'application/json' },
        payload: '{"metadata": {"title": "Broken',
      });
      expectError(res, 400, 'INVALID_JSON', 'Unable to decode JSON data in request body.');
      expect(await ownerState()).toEqual(before);
    });

    it.each(bodyRoutes)(
      '$name: Content-Type text/plain is 415 and changes nothing',
      async (route) => {
        const before = await ownerState();
        const res = await t.request({
          method: route.method,
          url: route.url(),
          headers: { ...owner.headers, 'content-type': 'text/plain' },
          payload: JSON.stringify(route.body ?? {}),
        });
        expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE', UNSUPPORTED_MEDIA_TYPE);
        expect(await ownerState()).toEqual(before);
      },
    );

    it.each(bodyRoutes)(
      '$name: a body over the limit is 413 and changes nothing',
      async (route) => {
        const before = await ownerState();
        const res = await t.request({
          method: route.method,
          url: route.url(),
          headers: owner.headers,
          body: { metadata: { ...validMetadata, description: 'x'.repeat(BODY_LIMIT) } },
        });
        expectError(res, 413, 'PAYLOAD_TOO_LARGE', 'The request body is too large.');
        expect(await ownerState()).toEqual(before);
      },
    );

    it.each([
      ['a JSON array', [validBody]],
      ['a JSON string', 'a string'],
      ['a JSON number', 42],
    ])('POST /api/records: %s where an object is expected is 400', async (_label, body) => {
      const before = await ownerState();
      const res = await t.request({
        method: 'POST',
        url: '/api/records',
        headers: { ...owner.headers, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expectValidationFailed(res, [{ field: '_schema', messages: ['Invalid input type.'] }]);
      expect(await ownerState()).toEqual(before);
    });

    it.each([
      ['a JSON array', [validBody]],
      ['a JSON string', 'a string'],
    ])('PUT …/draft: %s where an object is expected is 400', async (_label, body) => {
      const before = await readDraft(draftId);
      const res = await t.request({
        method: 'PUT',
        url: `/api/records/${draftId}/draft`,
        headers: { ...owner.headers, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expectValidationFailed(res, [{ field: '_schema', messages: ['Invalid input type.'] }]);
      expect(await readDraft(draftId)).toEqual(before);
    });

    it('reads a body sent without Content-Type as JSON', async () => {
      const created = await t.request({
        method: 'POST',
        url: '/api/records',
        headers: owner.headers,
        payload: JSON.stringify({ metadata: { title: 'Sent without a type' } }),
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().metadata.title).toBe('Sent without a type');
      const id = created.json().id as string;
      const saved = await t.request({
        method: 'PUT',
        url: `/api/records/${id}/draft`,
        headers: owner.headers,
        payload: JSON.stringify({ metadata: { title: 'Saved without a type' } }),
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect((await readDraft(id)).metadata.title).toBe('Saved without a type');
    });

    it('accepts an empty body with Content-Type application/json on the actions, as upload.py sends them', async () => {
      const draft = await createDraft();
      const json = { ...owner.headers, 'content-type': 'application/json' };
      const reserved = await t.request({
        method: 'POST',
        url: `/api/records/${draft.id}/draft/pids/doi`,
        headers: json,
        payload: '',
      });
      expect(reserved.statusCode, reserved.body).toBe(201);
      const published = await t.request({
        method: 'POST',
        url: `/api/records/${draft.id}/draft/actions/publish`,
        headers: json,
        payload: '',
      });
      expect(published.statusCode, published.body).toBe(202);
      const edit = await t.request({
        method: 'POST',
        url: `/api/records/${draft.id}/draft`,
        headers: json,
        payload: '',
      });
      expect(edit.statusCode, edit.body).toBe(201);
      const version = await t.request({
        method: 'POST',
        url: `/api/records/${draft.id}/versions`,
        headers: json,
        payload: '',
      });
      expect(version.statusCode, version.body).toBe(201);
    });

    it('saves wrongly typed metadata partially and lists the errors (create)', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/records',
        headers: owner.headers,
        body: {
          metadata: {
            ...validMetadata,
            title: 42,
            creators: { person_or_org: { type: 'personal', family_name: 'Curie' } },
          },
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      const draft = res.json();
      expect(draft.errors).toEqual(
        expect.arrayContaining([
          { field: 'metadata.title', messages: ['Not a valid string.'] },
          { field: 'metadata.creators', messages: ['Not a valid list.'] },
        ]),
      );
      const stored = await readDraft(draft.id as string);
      expect(stored.metadata.title).toBeUndefined();
      expect(stored.metadata.creators).toBeUndefined();
      expect(stored.metadata.publication_date).toBe('2024-05-01');
    });

    it('saves wrongly typed metadata partially and lists the errors (update)', async () => {
      const draft = await createDraft();
      const res = await t.request({
        method: 'PUT',
        url: `/api/records/${draft.id}/draft`,
        headers: owner.headers,
        body: { metadata: { ...validMetadata, title: ['a', 'list'], creators: 'Curie' } },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().errors).toEqual(
        expect.arrayContaining([
          { field: 'metadata.title', messages: ['Not a valid string.'] },
          { field: 'metadata.creators', messages: ['Not a valid list.'] },
        ]),
      );
      const stored = await readDraft(draft.id as string);
      expect(stored.revision_id).toBe(draft.revision_id + 1);
      expect(stored.metadata.title).toBeUndefined();
      expect(stored.metadata.resource_type.id).toBe('dataset');
    });

    it('refuses text PostgreSQL cannot store (U+0000, unpaired surrogates) rather than rewriting it', async () => {
      const before = await t.request({
        method: 'GET',
        url: '/api/user/records',
        headers: owner.headers,
      });
      const res = await t.request({
        method: 'POST',
        url: '/api/records',
        headers: owner.headers,
        payload: JSON.stringify({
          metadata: { ...validMetadata, title: 'Null\u0000 byte \ud800 and \udc00 halves' },
          custom_fields: { 'key\u0000': 'value' },
        }),
      });
      expectValidationFailed(res, [
        {
          field: 'metadata.title',
          messages: ['Text must be well-formed Unicode: this holds an unpaired UTF-16 surrogate.'],
        },
        {
          field: 'custom_fields.key\u2400',
          messages: ['Text must not contain the NUL character (U+0000).'],
        },
      ]);
      const after = await t.request({
        method: 'GET',
        url: '/api/user/records',
        headers: owner.headers,
      });
      expect(after.json().hits.total).toBe(before.json().hits.total);
      for (const [url, field] of [
        ['/api/records?q=null%00byte&resource_type=dataset', 'q'],
        ['/api/user/records?q=null&is_published=f%00alse', 'is_published'],
      ] as const) {
        const search = await t.request({ method: 'GET', url, headers: owner.headers });
        expectValidationFailed(search, [
          { field, messages: ['Text must not contain the NUL character (U+0000).'] },
        ]);
      }
    });

    it.each([
      ['resource_type', { resource_type: { id: 'nope' } }],
      ['languages', { languages: [{ id: 'nope' }] }],
      ['rights (licence)', { rights: [{ id: 'nope' }] }],
      ['subjects', { subjects: [{ id: 'nope' }] }],
      [
        'affiliations',
        {
          creators: [
            {
              person_or_org: { type: 'personal', family_name: 'Doe' },
              affiliations: [{ id: 'nope' }],
            },
          ],
        },
      ],
      ['funders', { funding: [{ funder: { id: 'nope' } }] }],
      ['awards', { funding: [{ funder: { name: 'Someone' }, award: { id: 'nope' } }] }],
    ])(
      'refuses an unknown %s id with 400 and stores nothing',
      async (_label, metadata: Record<string, unknown>) => {
        const before = await ownerState();
        const created = await t.request({
          method: 'POST',
          url: '/api/records',
          headers: owner.headers,
          body: { metadata: { ...validMetadata, ...metadata } },
        });
        expectError(created, 400, 'INVALID_VOCABULARY_VALUE', 'Invalid value nope.');
        const updated = await t.request({
          method: 'PUT',
          url: `/api/records/${draftId}/draft`,
          headers: owner.headers,
          body: { metadata: { ...validMetadata, title: 'Changed title', ...metadata } },
        });
        expectError(updated, 400, 'INVALID_VOCABULARY_VALUE', 'Invalid value nope.');
        expect(await ownerState()).toEqual(before);
      },
    );
  });

  describe('unknown and malformed ids', () => {
    const cases = idRoutes.flatMap((route) =>
      [
        ['abc', () => 'abc'],
        ['xxxxx-xxxxx', () => 'xxxxx-xxxxx'],
        ['a wrong checksum', () => withWrongChecksum(draftId)],
        ['a valid id nobody holds', () => newRecordId()],
      ].map(([label, id]) => ({ ...route, label: label as string, id: id as () => string })),
    );

    it.each(cases)('$name with $label is 404', async (route) => {
      const before = await ownerState();
      const res = await t.request({
        method: route.method,
        url: route.path(route.id()),
        headers: owner.headers,
        ...(route.method === 'PUT' ? { body: validBody } : {}),
      });
      expectError(res, 404, 'PID_DOES_NOT_EXIST', NO_PID);
      expect(await ownerState()).toEqual(before);
    });

    it.each(['POST', 'DELETE'] as const)(
      '%s …/draft/pids/{scheme} with an unknown scheme is 404',
      async (method) => {
        const before = await ownerState();
        const res = await t.request({
          method,
          url: `/api/records/${draftId}/draft/pids/ark`,
          headers: owner.headers,
        });
        expectError(res, 404, 'PID_DOES_NOT_EXIST', NO_PID);
        expect(await ownerState()).toEqual(before);
      },
    );

    it('answers an id too long for the router, or not decodable, with the contract body', async () => {
      const long = await t.request({ method: 'GET', url: `/api/records/${'a'.repeat(300)}` });
      expectError(long, 404, 'NOT_FOUND', 'The requested URL was not found on the server.');
      const undecodable = await t.request({ method: 'GET', url: '/api/records/%E0%A4%A' });
      expectError(undecodable, 404, 'NOT_FOUND', 'The requested URL was not found on the server.');
    });
  });

  describe('content negotiation', () => {
    it.each(allRoutes)('$name with Accept: text/html is 406 and changes nothing', async (route) => {
      const before = await ownerState();
      const res = await t.request({
        method: route.method,
        url: route.url(),
        headers: { ...owner.headers, accept: 'text/html' },
        ...(route.body === undefined ? {} : { body: route.body }),
      });
      const message =
        route.name === 'GET /api/records/{id}' ? NOT_ACCEPTABLE_RECORD : NOT_ACCEPTABLE;
      expectError(res, 406, 'NOT_ACCEPTABLE', message);
      expect(await ownerState()).toEqual(before);
    });

    it('adds `ui` for the vnd type and echoes the type; plain JSON has none', async () => {
      const vnd = await t.request({
        method: 'GET',
        url: `/api/records/${draftId}/draft`,
        headers: { ...owner.headers, accept: 'application/vnd.inveniordm.v1+json' },
      });
      expect(vnd.statusCode).toBe(200);
      expect(vnd.headers['content-type']).toMatch(/^application\/vnd\.inveniordm\.v1\+json/);
      expect(vnd.json().ui).toBeDefined();
      const json = await t.request({
        method: 'GET',
        url: `/api/records/${recordId}`,
        headers: { accept: 'application/json' },
      });
      expect(json.headers['content-type']).toMatch(/^application\/json/);
      expect(json.json().ui).toBeUndefined();
      const search = await t.request({
        method: 'GET',
        url: '/api/records',
        headers: { accept: 'application/vnd.inveniordm.v1+json' },
      });
      expect((search.json().hits.hits as Array<{ ui?: unknown }>)[0]?.ui).toBeDefined();
    });

    it('adds `expanded` with ?expand=1 only', async () => {
      const expanded = await t.request({
        method: 'GET',
        url: `/api/records/${draftId}/draft?expand=1`,
        headers: owner.headers,
      });
      expect(expanded.json().expanded.parent.access.owned_by.email).toBe(owner.email);
      const plain = await t.request({
        method: 'GET',
        url: `/api/records/${draftId}/draft`,
        headers: owner.headers,
      });
      expect(plain.json().expanded).toBeUndefined();
    });

    it('tolerates ?prettyprint=1, unknown or hostile parameters and a doubled slash', async () => {
      const pretty = await t.request({
        method: 'GET',
        url: `/api/records/${recordId}?prettyprint=1&stream=True`,
      });
      expect(pretty.statusCode).toBe(200);
      expect(pretty.json().id).toBe(recordId);
      const doubled = await t.request({
        method: 'GET',
        url: '//api/records?size=1&__proto__=a&__proto__=b&constructor=c',
      });
      expect(doubled.statusCode).toBe(200);
      expect(doubled.json().links.self).toBe(
        'https://cairn.test/api/records?page=1&size=1&sort=newest',
      );
    });
  });

  describe('permissions', () => {
    const draftRoutes = allRoutes.filter((r) =>
      [
        'GET …/draft',
        'PUT …/draft',
        'DELETE …/draft',
        'POST …/draft/actions/publish',
        'POST …/draft/pids/doi',
        'DELETE …/draft/pids/doi',
      ].includes(r.name),
    );

    it.each(draftRoutes)(
      "$name on another user's draft is 403 and changes nothing",
      async (route) => {
        const before = await ownerState();
        const res = await t.request({
          method: route.method,
          url: route.url(),
          headers: other.headers,
          ...(route.body === undefined ? {} : { body: route.body }),
        });
        expectError(res, 403, 'PERMISSION_DENIED', 'Permission denied.');
        expect(await ownerState()).toEqual(before);
      },
    );

    it.each([
      ['POST …/draft (edit)', (id: string) => `/api/records/${id}/draft`],
      ['POST …/versions', (id: string) => `/api/records/${id}/versions`],
    ])("%s on another user's record is 403 and changes nothing", async (_name, path) => {
      const before = await ownerState();
      const res = await t.request({ method: 'POST', url: path(recordId), headers: other.headers });
      expectError(res, 403, 'PERMISSION_DENIED', 'Permission denied.');
      expect(await ownerState()).toEqual(before);
      const draft = await t.request({
        method: 'GET',
        url: `/api/records/${recordId}/draft`,
        headers: owner.headers,
      });
      expectError(draft, 404, 'PID_DOES_NOT_EXIST', NO_PID);
    });

    it.each(
      allRoutes.filter(
        (r) => r.method !== 'GET' || r.name === 'GET …/draft' || r.name === 'GET /api/user/records',
      ),
    )('$name anonymously is 403 and changes nothing', async (route) => {
      const before = await ownerState();
      const res = await t.request({
        method: route.method,
        url: route.url(),
        ...(route.body === undefined ? {} : { body: route.body }),
      });
      expectError(res, 403, 'PERMISSION_DENIED', 'Permission denied.');
      expect(await ownerState()).toEqual(before);
    });

    it('hides a restricted record from strangers and shows it to its owner', async () => {
      const restricted = await publishNew({
        metadata: { ...validMetadata, title: 'Wombatrestricted burrow census' },
        access: { record: 'restricted', files: 'restricted' },
        files: { enabled: false },
      });
      const id = restricted.id as string;
      const anonymous = await t.request({ method: 'GET', url: `/api/records/${id}` });
      expectError(anonymous, 403, 'PERMISSION_DENIED', 'Permission denied.');
      const stranger = await t.request({
        method: 'GET',
        url: `/api/records/${id}`,
        headers: other.headers,
      });
      expectError(stranger, 403, 'PERMISSION_DENIED', 'Permission denied.');
      const hidden = await t.request({ method: 'GET', url: '/api/records?q=wombatrestricted' });
      expect(hidden.json().hits.total).toBe(0);
      const strangerSearch = await t.request({
        method: 'GET',
        url: '/api/records?q=wombatrestricted',
        headers: other.headers,
      });
      expect(strangerSearch.json().hits.total).toBe(0);

      const mine = await t.request({
        method: 'GET',
        url: `/api/records/${id}`,
        headers: owner.headers,
      });
      expect(mine.statusCode).toBe(200);
      const found = await t.request({
        method: 'GET',
        url: '/api/records?q=wombatrestricted',
        headers: owner.headers,
      });
      expect((found.json().hits.hits as Array<{ id: string }>).map((h) => h.id)).toEqual([id]);
    });

    it('lists a restricted version to its owner only', async () => {
      const v1 = await publishNew({
        metadata: { ...validMetadata, title: 'Versioned public first' },
        files: { enabled: false },
      });
      const draft = await t.request({
        method: 'POST',
        url: `/api/records/${v1.id}/versions`,
        headers: owner.headers,
      });
      const v2Id = draft.json().id as string;
      await t.request({
        method: 'PUT',
        url: `/api/records/${v2Id}/draft`,
        headers: owner.headers,
        body: { ...validBody, access: { record: 'restricted', files: 'restricted' } },
      });
      await publish(v2Id);
      const anonymous = await t.request({ method: 'GET', url: `/api/records/${v1.id}/versions` });
      expect((anonymous.json().hits.hits as Array<{ id: string }>).map((h) => h.id)).toEqual([
        v1.id,
      ]);
      expect(anonymous.json().hits.total).toBe(1);
      const mine = await t.request({
        method: 'GET',
        url: `/api/records/${v1.id}/versions`,
        headers: owner.headers,
      });
      expect((mine.json().hits.hits as Array<{ id: string }>).map((h) => h.id)).toEqual([
        v2Id,
        v1.id,
      ]);
    });
  });

  describe('CSRF on session-authenticated writes', () => {
    const csrf = 'a-fixed-csrf-token-for-tests-0002';
    let session: string;

    beforeAll(async () => {
      session = (await t.services.users.createSession(owner.id)).token;
    });

    it.each(bodyRoutes)('$name without X-CSRFToken is 403 and changes nothing', async (route) => {
      const before = await ownerState();
      const res = await t.request({
        method: route.method,
        url: route.url(),
        headers: { cookie: `cairn_session=${session}; csrftoken=${csrf}` },
        ...(route.body === undefined ? {} : { body: route.body }),
      });
      expectError(
        res,
        403,
        'CSRF_FAILED',
        'CSRF token missing or incorrect. Reload the page and try again.',
      );
      expect(await ownerState()).toEqual(before);
    });

    it('lets the same session write with the header', async () => {
      const res = await t.request({
        method: 'PUT',
        url: `/api/records/${draftId}/draft`,
        headers: { cookie: `cairn_session=${session}; csrftoken=${csrf}`, 'x-csrftoken': csrf },
        body: validBody,
      });
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  describe('If-Match', () => {
    it('accepts a bare and a quoted revision', async () => {
      const draft = await createDraft();
      const bare = await t.request({
        method: 'PUT',
        url: `/api/records/${draft.id}/draft`,
        headers: { ...owner.headers, 'if-match': String(draft.revision_id) },
        body: validBody,
      });
      expect(bare.statusCode, bare.body).toBe(200);
      const quoted = await t.request({
        method: 'PUT',
        url: `/api/records/${draft.id}/draft`,
        headers: { ...owner.headers, 'if-match': `"${bare.json().revision_id}"` },
        body: validBody,
      });
      expect(quoted.statusCode, quoted.body).toBe(200);
      const deleted = await t.request({
        method: 'DELETE',
        url: `/api/records/${draft.id}/draft`,
        headers: { ...owner.headers, 'if-match': `"${quoted.json().revision_id}"` },
      });
      expect(deleted.statusCode).toBe(204);
    });

    it.each(['PUT', 'DELETE'] as const)('%s with a garbage If-Match is 400', async (method) => {
      const before = await readDraft(draftId);
      const res = await t.request({
        method,
        url: `/api/records/${draftId}/draft`,
        headers: { ...owner.headers, 'if-match': 'not-a-revision' },
        ...(method === 'PUT' ? { body: { metadata: { title: 'Changed' } } } : {}),
      });
      expectValidationFailed(res, [{ field: 'if_match', messages: ['Not a valid integer.'] }]);
      expect(await readDraft(draftId)).toEqual(before);
    });

    it('refuses DELETE with a stale If-Match (412) and keeps the draft', async () => {
      const before = await readDraft(draftId);
      const stale = before.revision_id - 1;
      const res = await t.request({
        method: 'DELETE',
        url: `/api/records/${draftId}/draft`,
        headers: { ...owner.headers, 'if-match': String(stale) },
      });
      expectError(
        res,
        412,
        'REVISION_MISMATCH',
        `Revision id provided(${stale}) doesn't match record's one(${before.revision_id})`,
      );
      expect(await readDraft(draftId)).toEqual(before);
    });
  });

  describe('search parameters', () => {
    const searches = [
      ['/api/records', () => '/api/records'],
      ['/api/user/records', () => '/api/user/records'],
      ['…/versions', () => `/api/records/${recordId}/versions`],
    ] as const;
    const tooSmall = 'Must be greater than or equal to 1.';
    const notInteger = 'Not a valid integer.';
    const validationCases = searches.flatMap(([name, url]) => [
      { name, url, query: 'size=0', field: 'size', message: tooSmall },
      { name, url, query: 'size=abc', field: 'size', message: notInteger },
      { name, url, query: 'page=0', field: 'page', message: tooSmall },
      { name, url, query: 'page=-1', field: 'page', message: tooSmall },
      { name, url, query: 'page=1.5', field: 'page', message: notInteger },
    ]);

    it.each(validationCases)(
      '$name?$query is 400 on `$field`',
      async ({ url, query, field, message }) => {
        const res = await t.request({
          method: 'GET',
          url: `${url()}?${query}`,
          headers: owner.headers,
        });
        expectValidationFailed(res, [{ field, messages: [message] }]);
      },
    );

    it('treats a huge page size as past the window, not as a crash', async () => {
      const res = await t.request({ method: 'GET', url: '/api/records?size=99999999999999999999' });
      expectError(res, 400, 'INVALID_QUERY', 'Invalid querystring parameters.');
    });

    it.each(searches)('%s past the 10 000 window is 400', async (_name, url) => {
      const res = await t.request({
        method: 'GET',
        url: `${url()}?page=101&size=100`,
        headers: owner.headers,
      });
      expectError(res, 400, 'INVALID_QUERY', 'Invalid querystring parameters.');
    });

    it.each(searches)('%s with an unknown sort is 400', async (_name, url) => {
      const res = await t.request({
        method: 'GET',
        url: `${url()}?sort=sideways`,
        headers: owner.headers,
      });
      expectValidationFailed(res, [
        { field: 'sort', messages: ["Invalid sort option 'sideways'."] },
      ]);
    });

    // The caller's uploads read the records search's query syntax, and answer it alike.
    it.each(['/api/records', '/api/user/records'])(
      '%s with a query of punctuation only is 200 or a 400 saying where, never 500',
      async (url) => {
        const answers: Record<string, number> = {};
        for (const q of ['"', '()', '*', '%', '_', ':', '\\', '"*"', 'AND OR NOT', '-', '&|!']) {
          const res = await t.request({
            method: 'GET',
            url: `${url}?q=${encodeURIComponent(q)}`,
            headers: owner.headers,
          });
          answers[q] = res.statusCode;
          if (res.statusCode === 400) expect(res.json().message).toMatch(/at character \d+/);
          else expect(res.json().hits.hits, q).toBeInstanceOf(Array);
        }
        // Everything, words that hold nothing to search, and the query syntax's mistakes.
        expect(answers).toEqual({
          '"': 400,
          '()': 400,
          '*': 200,
          '%': 200,
          _: 200,
          ':': 400,
          '\\': 400,
          '"*"': 200,
          'AND OR NOT': 400,
          '-': 400,
          '&|!': 200,
        });
      },
    );

    it('pages with prev/next links exactly as the contract says', async () => {
      for (let i = 1; i <= 3; i++) {
        await publishNew({
          metadata: { ...validMetadata, title: `Quokka pagination study ${i}` },
          files: { enabled: false },
        });
      }
      const base = 'https://cairn.test/api/records';
      const link = (page: number) =>
        `${base}?page=${page}&q=quokka+pagination&size=1&sort=bestmatch&resource_type=dataset`;
      const expected: Record<number, Record<string, string>> = {
        1: { self: link(1), next: link(2) },
        2: { self: link(2), prev: link(1), next: link(3) },
        3: { self: link(3), prev: link(2) },
        4: { self: link(4), prev: link(3) },
        5: { self: link(5) },
      };
      for (const page of [1, 2, 3, 4, 5]) {
        const res = await t.request({
          method: 'GET',
          url: `/api/records?resource_type=dataset&unknown=dropped&size=1&q=quokka%20pagination&page=${page}`,
        });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.hits.total).toBe(3);
        expect(body.hits.hits).toHaveLength(page <= 3 ? 1 : 0);
        expect(body.page).toBe(page);
        expect(body.links, `page ${page}`).toEqual(expected[page]);
      }
    });
  });
});
