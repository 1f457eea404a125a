import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { documentedContent, documentedResponse } from './lib/openapi.js';
import { createTestApp, type TestApp } from './test/app.js';

/** Routes under /api that are not part of the REST API: the reference page and the bench baseline. */
const NOT_DOCUMENTED = new Set([
  '/api/docs',
  '/api/docs/openapi.json',
  '/api/docs/reference.js',
  '/api/hello',
]);

/**
 * Operations that take no body: actions named by their URL alone, as in InvenioRDM, and the
 * refusals of methods a resource does not support.
 */
const BODYLESS = new Set([
  'POST /api/auth/logout',
  'POST /api/records/{id}/draft',
  'POST /api/records/{id}/draft/actions/publish',
  'POST /api/records/{id}/draft/actions/files-import',
  'POST /api/records/{id}/draft/pids/{scheme}',
  'POST /api/records/{id}/versions',
  'POST /api/records/{id}/restore',
  'POST /api/records/{id}/draft/files/{*}',
  'POST /api/requests',
  // Marks a request seen: nothing to send.
  'PUT /api/requests/{id}/seen',
]);

type Operation = `${string} ${string}`;

/**
 * The API routes Fastify registered, read from its route tree: each line is a path segment,
 * indented four characters per level below its parent, with the methods of the route that ends
 * there. A wildcard is printed without the slash before it.
 */
function registeredOperations(tree: string): Set<Operation> {
  const operations = new Set<Operation>();
  const prefixes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const segment = match[2]!;
    const parent = prefixes[depth - 1] ?? '';
    const path = segment === '*' && !parent.endsWith('/') ? `${parent}/*` : parent + segment;
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    if (!path.startsWith('/api/') || NOT_DOCUMENTED.has(path)) continue;
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      operations.add(`${method} ${openApiPath(path)}`);
    }
  }
  return operations;
}

/** Fastify's `/:id/*` spelled as OpenAPI spells it: `/{id}/{*}`. */
function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}');
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: {
    paths: Record<string, Record<string, { requestBody?: unknown; responses?: object }>>;
  };

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    doc = (await t.request({ method: 'GET', url: '/api/docs/openapi.json' })).json();
  });
  afterAll(() => t.close());

  const documented = (): Set<Operation> =>
    new Set(
      Object.entries(doc.paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method): Operation => `${method.toUpperCase()} ${path}`),
      ),
    );

  it('lists exactly the API routes the server answers', () => {
    const registered = registeredOperations(t.app.printRoutes({ commonPrefix: false }));
    // Fastify answers HEAD wherever there is a GET; the document lists HEAD only where the
    // route registers it itself (file downloads, which answer without reading the file).
    const withoutImplicitHead = [...registered].filter(
      (op) => !op.startsWith('HEAD ') || documented().has(op),
    );
    expect(registered.size).toBeGreaterThan(50);
    expect(new Set(withoutImplicitHead)).toEqual(documented());
  });

  it('documents what every operation answers when it succeeds, and its error body', () => {
    // POST /api/requests only refuses (405): requests are made through records and communities.
    const refusals = new Set(['POST /api/requests']);
    const missing = [...documented()].filter((op) => {
      const [method, path] = op.split(' ') as [string, string];
      const responses = Object.keys(doc.paths[path]![method.toLowerCase()]!.responses ?? {});
      const succeeds = responses.some((status) => /^(2|3)\d\d$/.test(status));
      return !responses.includes('4XX') || (!succeeds && !refusals.has(op));
    });
    expect(missing).toEqual([]);
  });

  it('gives every operation that takes a body the schema of that body', () => {
    const missing = [...documented()].filter((op) => {
      const [method, path] = op.split(' ') as [string, string];
      if (!['POST', 'PUT', 'PATCH'].includes(method) || BODYLESS.has(op)) return false;
      return doc.paths[path]![method.toLowerCase()]!.requestBody === undefined;
    });
    expect(missing).toEqual([]);
  });
});

describe('the test app', () => {
  it('fails an answer that breaks the schema its route documents, and passes one that keeps it', async () => {
    const Answer = documentedResponse(z.object({ id: z.string() }), 'An answer');
    const t = await createTestApp(
      'sqlite',
      {},
      {},
      {
        beforeReady(app) {
          app.get('/api/kept', { schema: { response: { 200: Answer } } }, () => ({ id: 'a' }));
          app.get('/api/broken', { schema: { response: { 200: Answer } } }, () => ({ id: 5 }));
        },
      },
    );
    const report = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect((await t.request({ method: 'GET', url: '/api/kept' })).json()).toEqual({ id: 'a' });
      expect((await t.request({ method: 'GET', url: '/api/broken' })).statusCode).toBe(500);
      expect(String(report.mock.calls[0]?.[0])).toContain('GET /api/broken 200 breaks');
    } finally {
      report.mockRestore();
      await t.close();
    }
  });

  it('holds an answer documented per media type to the schema of its JSON', async () => {
    const Answer = documentedResponse(z.object({ id: z.string() }), 'An answer');
    const ByType = documentedContent('An answer or its text', {
      'application/json': Answer,
      'text/plain': z.string(),
    });
    const t = await createTestApp(
      'sqlite',
      {},
      {},
      {
        beforeReady(app) {
          app.get('/api/typed-broken', { schema: { response: { 200: ByType } } }, () => ({
            id: 5,
          }));
          app.get('/api/typed-text', { schema: { response: { 200: ByType } } }, (_req, reply) =>
            reply.type('text/plain').send('id: 5'),
          );
        },
      },
    );
    const report = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect((await t.request({ method: 'GET', url: '/api/typed-text' })).body).toBe('id: 5');
      expect((await t.request({ method: 'GET', url: '/api/typed-broken' })).statusCode).toBe(500);
      expect(String(report.mock.calls[0]?.[0])).toContain('GET /api/typed-broken 200 breaks');
    } finally {
      report.mockRestore();
      await t.close();
    }
  });
});
