import crypto from 'node:crypto';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './test/databases.js';
import { createTestApp, type TestApp } from './test/app.js';
import { createFilesTestApp, FilesApi, PUBLISHABLE_METADATA, type Caller } from './test/files.js';

// Property-based fuzzing of every operation of the OpenAPI document: path parameters, query
// strings, headers and bodies generated from and around each operation's schemas, sent by the
// owner of existing records, drafts, files, communities and requests, by another user, with a
// bad token and anonymously. Whatever is sent: never a 5xx, an answer within the guard time, and
// the server still answers afterwards. On failure fast-check reports the counterexample and the
// seed that replays it (`seed` and `path` in the error).

/** Runs per operation and engine: about a minute per engine on two shared cores. */
const RUNS = Number(process.env.CAIRN_FUZZ_RUNS ?? 20);
/** Guard against a hang only, far beyond any answer's time. */
const GUARD_MS = 20_000;
const BODY_LIMIT = 65_536;

interface Operation {
  method: string;
  path: string;
  parameters: Array<{ in: string; name: string; schema?: JsonSchema }>;
  body?: JsonSchema;
}

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  format?: string;
}

/** The operations of the app's own OpenAPI document (an app on an empty database reads it). */
async function operationsOf(): Promise<Operation[]> {
  const t = await createTestApp('sqlite');
  try {
    const doc = t.app.swagger() as unknown as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    return Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => {
        const content = (
          op.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined
        )?.content;
        const body = content?.['application/json']?.schema;
        return {
          method: method.toUpperCase(),
          path,
          parameters: (op.parameters ?? []) as Operation['parameters'],
          ...(body ? { body } : {}),
        };
      }),
    );
  } finally {
    await t.close();
  }
}

const OPERATIONS = await operationsOf();

// ---- values

/** Strings no well-behaved client sends. */
const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '..',
    '.',
    '%',
    '%00',
    '%zz',
    '\u0000',
    '\ud800',
    'a\udc00b',
    '\uffff',
    '💥',
    'ﷺ',
    '../../etc/passwd',
    'null',
    '-1',
    '0',
    '1e999',
    'NaN',
    '[]',
    '{}',
    '__proto__',
    'constructor',
    '<script>alert(1)</script>',
    "' or 1=1 --",
    '*',
    'glacier AND NOT ice',
    '"',
    '\\',
    'x'.repeat(5000),
    'word '.repeat(400),
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** JSON values of every kind, a few of them nested far too deep or far too long. */
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  hostileString,
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    1.5,
    2 ** 53,
    [],
    {},
    { __proto__: { polluted: true } },
    JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
  ),
  fc.integer({ min: 1, max: 200 }).map((depth) => {
    let value: unknown = 'deep';
    for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
    return value;
  }),
);

/** A value from `schema`, or now and then one of another type entirely. */
function fromSchema(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: shaped(schema, depth), weight: 5 },
    { arbitrary: hostileJson, weight: 1 },
  );
}

function shaped(schema: JsonSchema | undefined, depth: number): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((s) => shaped(s, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (type.length > 1)
    return fc.oneof(...type.map((one) => shaped({ ...schema, type: one }, depth)));
  switch (type[0]) {
    case 'object': {
      const properties = Object.entries(schema.properties ?? {});
      if (properties.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), hostileJson);
      const record = Object.fromEntries(
        properties.map(([name, property]) => [name, fromSchema(property, depth + 1)]),
      );
      return fc.oneof(
        fc.record(record, { requiredKeys: schema.required ?? [] }),
        fc.record(record, { requiredKeys: [] }),
      );
    }
    case 'array':
      return fc.array(fromSchema(schema.items, depth + 1), { maxLength: 4 });
    case 'string':
      return fc.oneof(
        fc.string({ maxLength: schema.maxLength ? Math.min(schema.maxLength, 40) : 40 }),
        fc.constantFrom(
          '2024-05-01',
          'dataset',
          'public',
          'restricted',
          'personal',
          'community-submission',
          'md5:d41d8cd98f00b204e9800998ecf8427e',
        ),
        hostileString,
      );
    case 'integer':
      return fc.oneof(
        fc.integer({ min: schema.minimum ?? -10, max: Math.min(schema.maximum ?? 1e6, 1e6) }),
        fc.constantFrom(0, -1, 2 ** 31, Number.MAX_SAFE_INTEGER),
      );
    case 'number':
      return fc.double({ noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Percent-encodes the UTF-8 bytes of `value` (lone surrogates as U+FFFD, as a browser would). */
function pct(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** A path or query value: sent percent-encoded, or now and then as raw (broken) escapes. */
const raw = (value: string) => ({ raw: value });
type UrlValue = string | { raw: string };
const encoded = (value: UrlValue) => (typeof value === 'string' ? pct(value) : value.raw);
const rawEscapes = fc.constantFrom(
  raw('%'),
  raw('%E0%A4%A'),
  raw('%ED%A0%80'),
  raw('%C3'),
  raw('%FF%FE'),
  raw('a%2Fb'),
  raw('%2e%2e'),
);

// ---- the world the fuzzer acts in

interface World {
  owner: Caller;
  other: Caller;
  admin: Caller;
  /** Path parameter values that exist, by the route's first segments and parameter name. */
  values: (path: string, name: string) => string[];
}

/** One entry of each large vocabulary, for their item routes. */
const ITEMS: Record<string, Record<string, unknown>> = {
  funders: { id: '00k4n6c32', name: 'European Commission' },
  affiliations: {
    id: '02nv7yv05',
    name: 'Forschungszentrum Jülich',
    identifiers: [{ scheme: 'ror', identifier: '02nv7yv05' }],
  },
  names: {
    id: '0000-0002-1825-0097',
    given_name: 'Josiah',
    family_name: 'Carberry',
    identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
  },
  awards: {
    id: '00k4n6c32::123',
    number: '123',
    title: { en: 'Ice' },
    funder: { id: '00k4n6c32' },
  },
  subjects: { id: 'https://example.org/s/1', scheme: 'ex', subject: 'Glaciology' },
};

/** Files the draft holds: committed, pending, and a multipart upload. */
const FILE_KEYS = ['data.csv', 'pending.txt', 'parts.bin', 'folder/inner.txt'];

async function buildWorld(t: TestApp, users: Caller[]): Promise<World> {
  // Fresh tokens: the fuzzer may have revoked the last ones.
  const [owner, other, admin] = await Promise.all(
    users.map(async (user) => {
      const { token } = await t.services.users.createToken(user.id, 'fuzz');
      return { ...user, headers: { authorization: `Bearer ${token}` } };
    }),
  );
  if (!owner || !other || !admin) throw new Error('The fuzzer needs three users.');
  for (const [type, item] of Object.entries(ITEMS)) {
    // Already there unless the fuzzer deleted it.
    await t.request({ method: 'POST', url: `/api/${type}`, headers: admin.headers, body: item });
  }
  const files = new FilesApi(t, owner);
  const send = async (method: string, url: string, body?: object) => {
    const res = await t.request({
      method,
      url,
      headers: owner.headers,
      ...(body === undefined ? {} : { body }),
    });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json<{ id: string }>();
  };
  const slug = `c-${crypto.randomBytes(4).toString('hex')}`;
  const community = await send('POST', '/api/communities', {
    slug,
    metadata: { title: `Fuzzed ${slug}` },
    access: { review_policy: 'closed' },
  });
  const record = await files.createDraft({ metadata: PUBLISHABLE_METADATA });
  await files.upload(record.id, 'data.csv', 'a,b\n1,2\n');
  await files.publish(record.id);
  const edited = await files.createDraft({ metadata: PUBLISHABLE_METADATA });
  await files.upload(edited.id, 'data.csv', 'x\n');
  await files.publish(edited.id);
  await send('POST', `/api/records/${edited.id}/draft`);
  const draft = await files.createDraft({ metadata: PUBLISHABLE_METADATA });
  await files.upload(draft.id, 'data.csv', 'a,b\n');
  await files.upload(draft.id, 'folder/inner.txt', 'inner');
  await send('POST', `/api/records/${draft.id}/draft/files`, [
    { key: 'pending.txt', size: 5 },
    { key: 'parts.bin', size: 15, transfer: { type: 'M', parts: 2, part_size: 10 } },
  ]);
  const reviewed = await files.createDraft({ metadata: PUBLISHABLE_METADATA });
  const review = await send('PUT', `/api/records/${reviewed.id}/draft/review`, {
    type: 'community-submission',
    receiver: { community: community.id },
  });
  const comment = await send('POST', `/api/requests/${review.id}/comments`, {
    payload: { content: '<p>Please look</p>', format: 'html' },
  });
  const token = await send('POST', '/api/user/tokens', { name: 'spare' });
  const records = [record.id, edited.id, draft.id, reviewed.id];
  const keys = FILE_KEYS.flatMap((key) => [
    key,
    `${key}/content`,
    `${key}/commit`,
    `${key}/parts`,
    `${key}/content/1`,
    `${key}/content/2`,
  ]);
  const pools: Array<[RegExp, string, string[]]> = [
    [/^\/api\/communities\//, 'id', [community.id, slug]],
    [/^\/api\/requests\//, 'id', [review.id]],
    [/^\/api\/user\/tokens\//, 'id', [String(token.id)]],
    // Entries the world does not use: an admin's fuzzed PUT or DELETE may change them, and the next
    // operation's world would lose its drafts' resource type (dataset) with them.
    [/^\/api\/vocabularies\//, 'id', ['eng', 'software', 'cc-by-4.0']],
    [/^\/api\/records\/\{id\}\/files/, 'id', [record.id, edited.id]],
    [/^\/api\/records\//, 'id', records],
    [/\/draft\/files\//, '*', keys],
    [/\/files\//, '*', ['data.csv', 'data.csv/content', 'folder/inner.txt/content']],
    [/./, 'scheme', ['doi', 'oai', 'ark']],
    [/./, 'type', ['languages', 'licenses', 'resourcetypes', 'subjects', 'names', 'funders']],
    [/./, 'action', ['accept', 'decline', 'cancel', 'submit', 'expire', 'delete']],
    [/./, 'commentId', [comment.id]],
    ...Object.entries(ITEMS).map(
      ([type, item]) =>
        [new RegExp(`^/api/${type}/`), 'id', [String(item.id)]] as [RegExp, string, string[]],
    ),
  ];
  const everything = pools.flatMap(([, , values]) => values);
  return {
    owner,
    other,
    admin,
    values: (path, name) => {
      const pool = pools.find(([pattern, param]) => param === name && pattern.test(path));
      return pool ? pool[2] : everything;
    },
  };
}

// ---- requests

type Who = 'owner' | 'other' | 'admin' | 'anonymous' | 'bad token';

interface Sent {
  who: Who;
  path: Record<string, UrlValue>;
  query: Array<[string, UrlValue]>;
  headers: Record<string, string>;
  body?: { kind: 'json'; value: unknown } | { kind: 'raw'; value: string | Buffer };
}

/** A header left out most of the time, so that the other parts of a request get their turn. */
const header = (values: string[]) =>
  fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 5 },
    { arbitrary: fc.constantFrom(...values), weight: 1 },
  );

function requestArbitrary(operation: Operation, world: World): fc.Arbitrary<Sent> {
  const pathParameters = operation.parameters.filter((p) => p.in === 'path');
  const queryParameters = operation.parameters.filter((p) => p.in === 'query');
  const path = fc.record(
    Object.fromEntries(
      pathParameters.map((p) => [
        p.name,
        fc.oneof(
          { arbitrary: fc.constantFrom(...world.values(operation.path, p.name)), weight: 12 },
          { arbitrary: fc.constantFrom(...world.values('', p.name)), weight: 1 },
          { arbitrary: hostileString, weight: 2 },
          { arbitrary: rawEscapes, weight: 1 },
        ),
      ]),
    ),
  ) as fc.Arbitrary<Record<string, UrlValue>>;
  const documented = queryParameters.map((p) =>
    fc.tuple(
      fc.constant(p.name),
      fc.oneof(
        {
          arbitrary: shaped(p.schema, 0).map((v) =>
            typeof v === 'string' ? v : JSON.stringify(v),
          ),
          weight: 4,
        },
        { arbitrary: hostileString, weight: 2 },
        { arbitrary: rawEscapes, weight: 1 },
      ),
    ),
  );
  const query = fc
    .tuple(
      fc.subarray(documented.length > 0 ? documented : [fc.tuple(fc.constant('q'), hostileString)]),
      fc.array(fc.tuple(fc.oneof(fc.string({ maxLength: 8 }), hostileString), hostileString), {
        maxLength: 2,
      }),
    )
    .chain(([picked, extra]) =>
      fc
        .tuple(...(picked as Array<fc.Arbitrary<[string, UrlValue]>>))
        .map((chosen) => [...chosen, ...(extra as Array<[string, UrlValue]>)]),
    );
  const headers = fc
    .record({
      'content-type': header([
        'application/json',
        'application/json; charset=utf-8',
        'application/octet-stream',
        'text/plain',
        'multipart/form-data; boundary=x',
        'application/x-www-form-urlencoded',
        'garbage',
        '',
      ]),
      accept: header([
        'application/json',
        'application/vnd.inveniordm.v1+json',
        'application/vnd.citationstyles.csl+json',
        'application/x-bibtex',
        'application/ld+json',
        'application/x-dc+xml',
        'application/linkset+json',
        'application/linkset',
        'text/html',
        '*/*',
        'garbage',
      ]),
      'if-match': header(['"1"', '1', '"2"', '"999"', 'W/"1"', '*', 'garbage', '""']),
      range: header([
        'bytes=0-0',
        'bytes=0-',
        'bytes=-1',
        'bytes=5-2',
        'bytes=0-99999999999999999999',
        'bytes=a-b',
        'items=0-1',
        'bytes=0-1,3-4',
      ]),
      'content-md5': header(['1B2M2Y8AsgTpgAmY7PhCfg==', 'garbage', '']),
    })
    .map(
      (h) =>
        Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<
          string,
          string
        >,
    );
  const hasBody = ['POST', 'PUT', 'DELETE', 'PATCH'].includes(operation.method);
  const body = hasBody
    ? fc.option(
        fc.oneof(
          {
            arbitrary: fromSchema(operation.body).map((value) => ({
              kind: 'json' as const,
              value,
            })),
            weight: 12,
          },
          {
            arbitrary: fc
              .oneof(
                fc.constantFrom(
                  '',
                  '{',
                  'null',
                  '[]',
                  '{"a":1,}',
                  '{"metadata":{"title":"\\ud800"}}',
                  '{"key":"\\u0000"}',
                  `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`,
                  `"${'x'.repeat(BODY_LIMIT + 10)}"`,
                ),
                fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
                fc.string({ unit: 'binary', maxLength: 64 }),
              )
              .map((value) => ({ kind: 'raw' as const, value })),
            weight: 2,
          },
        ),
        { nil: undefined, freq: 8 },
      )
    : fc.constant(undefined);
  return fc.record({
    who: fc.constantFrom<Who>(
      'owner',
      'owner',
      'owner',
      'admin',
      'other',
      'anonymous',
      'bad token',
    ),
    path,
    query,
    headers,
    body,
  });
}

function urlOf(operation: Operation, sent: Sent): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = sent.path[name] ?? 'x';
    // A file key's folders are path segments.
    if (name === '*' && typeof value === 'string') return value.split('/').map(pct).join('/');
    return encoded(value);
  });
  const query = sent.query.map(([name, value]) => `${pct(name)}=${encoded(value)}`).join('&');
  return query ? `${path}?${query}` : path;
}

function authorization(world: World, who: Who): Record<string, string> {
  switch (who) {
    case 'owner':
      return world.owner.headers;
    case 'other':
      return world.other.headers;
    case 'admin':
      return world.admin.headers;
    case 'bad token':
      return { authorization: 'Bearer cairn_not-a-token' };
    default:
      return {};
  }
}

async function withGuard<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`No answer within ${GUARD_MS} ms: ${what}`)),
      GUARD_MS,
    );
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

describe.each(ENGINES)('fuzzing every operation of the OpenAPI document (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let other: Caller;
  let admin: Caller;

  beforeAll(async () => {
    t = await createFilesTestApp(engine, {
      CAIRN_BODY_LIMIT_BYTES: String(BODY_LIMIT),
      CAIRN_FILES_MAX_PER_RECORD: '100',
    });
    owner = await t.user();
    other = await t.user();
    admin = await t.user(undefined, { admin: true });
  });
  afterAll(() => t?.close());

  it('documents operations to fuzz', () => {
    expect(OPERATIONS.length).toBeGreaterThan(90);
  });

  it.each(OPERATIONS.map((o) => [`${o.method} ${o.path}`, o] as const))(
    '%s: never a 5xx, never a hang',
    async (_name, operation) => {
      // A world of its own for each operation: the previous one may have deleted its parts.
      const world = await buildWorld(t, [owner, other, admin]);
      await fc.assert(
        fc.asyncProperty(requestArbitrary(operation, world), async (sent) => {
          const url = urlOf(operation, sent);
          const what = `${operation.method} ${url}`;
          const body = sent.body;
          const res: LightMyRequestResponse = await withGuard(
            t.app.inject({
              method: operation.method as 'GET',
              url,
              headers: { ...sent.headers, ...authorization(world, sent.who) },
              ...(body === undefined
                ? {}
                : {
                    payload: body.kind === 'json' ? (JSON.stringify(body.value) ?? '') : body.value,
                  }),
            }),
            what,
          );
          if (res.statusCode >= 500) {
            throw new Error(`${what} answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
          }
        }),
        { numRuns: RUNS },
      );
      const after = await t.request({ method: 'GET', url: '/api/records' });
      expect(after.statusCode, after.body).toBe(200);
    },
    // An operation's runs and its world, on a loaded machine: a guard, not a measure.
    120_000,
  );
});
