import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DataCiteClient, DataCiteError } from './datacite-client.js';
import { toDataCiteAttributes, type DataCiteAttributes } from './datacite-serializer.js';

const USERNAME = 'CAIRN.TEST';
const PASSWORD = 's3cret';
const PREFIX = '10.5072';

type Stored = { state: 'draft' | 'findable' | 'registered'; attributes: Record<string, unknown> };
type Seen = { method: string; path: string; headers: IncomingMessage['headers']; body: unknown };

/**
 * A stand-in for DataCite's REST API, enough to hold the client to the contract: Basic auth,
 * JSON:API media type, the body shape, the fields `event: publish` requires, and DataCite's
 * error bodies. DOIs ending in `/unavailable`, `/busy` or `/hang` play an outage, rate
 * limiting and a stalled server.
 */
class DataCiteStandIn {
  readonly dois = new Map<string, Stored>();
  readonly seen: Seen[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    // Hung requests keep their sockets open; close them or close() never returns.
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    this.seen.push({ method: req.method ?? '', path, headers: req.headers, body });

    const expected = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`;
    if (req.headers.authorization !== expected)
      return reply(res, 401, [{ status: '401', title: 'Bad credentials.' }]);

    const doi = path.replace(/^\/dois\//, '');
    if (!path.startsWith('/dois/') || !doi.includes('/'))
      return reply(res, 404, [{ status: '404', title: 'Not found' }]);
    if (doi.endsWith('/hang')) return; // never answers
    if (doi.endsWith('/unavailable'))
      return reply(res, 503, [{ status: '503', title: 'Service Unavailable' }]);
    if (doi.endsWith('/busy')) {
      res.setHeader('Retry-After', '7');
      return reply(res, 429, [{ status: '429', title: 'Too Many Requests' }]);
    }

    if (req.method === 'DELETE') {
      const stored = this.dois.get(doi);
      if (!stored)
        return reply(res, 404, [
          { status: '404', title: "The resource you are looking for doesn't exist." },
        ]);
      if (stored.state !== 'draft')
        return reply(res, 405, [
          { status: '405', title: 'This method is not allowed for this resource.' },
        ]);
      this.dois.delete(doi);
      res.writeHead(204).end();
      return;
    }
    if (req.method !== 'PUT')
      return reply(res, 405, [{ status: '405', title: 'Method not allowed' }]);
    if (!req.headers['content-type']?.startsWith('application/vnd.api+json')) {
      return reply(res, 415, [{ status: '415', title: 'The content type is not recognized.' }]);
    }

    const data = (
      body as
        | { data?: { id?: unknown; type?: unknown; attributes?: Record<string, unknown> } }
        | undefined
    )?.data;
    if (data?.type !== 'dois') return reply(res, 422, [{ source: 'type', title: 'Must be dois' }]);
    if (data.id !== doi)
      return reply(res, 422, [{ source: 'doi', title: 'Does not match the DOI in the path' }]);
    const attributes = data.attributes ?? {};
    const existing = this.dois.get(doi);

    if (attributes.event === 'publish') {
      const merged = { ...existing?.attributes, ...attributes };
      const missing = ['url', 'titles', 'creators', 'publisher', 'publicationYear', 'types'].filter(
        (field) => {
          const value = merged[field];
          return (
            value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
          );
        },
      );
      const types = merged.types as { resourceTypeGeneral?: unknown } | undefined;
      if (types && !types.resourceTypeGeneral) missing.push('types');
      if (missing.length)
        return reply(
          res,
          422,
          missing.map((source) => ({ source, title: "Can't be blank" })),
        );
      this.dois.set(doi, { state: 'findable', attributes: merged });
    } else if (attributes.event === 'hide') {
      if (existing?.state !== 'findable')
        return reply(res, 422, [
          { source: 'event', title: 'Cannot hide a DOI that is not findable' },
        ]);
      existing.state = 'registered';
    } else {
      this.dois.set(doi, {
        state: existing?.state ?? 'draft',
        attributes: { ...existing?.attributes, ...attributes },
      });
    }
    const stored = this.dois.get(doi);
    res.writeHead(existing ? 200 : 201, { 'Content-Type': 'application/vnd.api+json' });
    res.end(
      JSON.stringify({
        data: {
          id: doi,
          type: 'dois',
          attributes: { doi, state: stored?.state, ...stored?.attributes },
        },
      }),
    );
  }
}

function reply(res: ServerResponse, status: number, errors: Array<Record<string, string>>): void {
  res.writeHead(status, { 'Content-Type': 'application/vnd.api+json' });
  res.end(JSON.stringify({ errors }));
}

const ATTRIBUTES: DataCiteAttributes = {
  titles: [{ title: 'Ice cores from the Weddell Sea' }],
  creators: [{ name: 'Doe, Jane', nameType: 'Personal', givenName: 'Jane', familyName: 'Doe' }],
  publisher: 'Cairn',
  publicationYear: '2024',
  types: { resourceTypeGeneral: 'Dataset' },
  schemaVersion: 'http://datacite.org/schema/kernel-4',
};

async function failure(promise: Promise<unknown>): Promise<DataCiteError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof DataCiteError))
    throw new Error(`expected a DataCiteError, got ${String(error)}`);
  return error;
}

describe('DataCiteClient against a DataCite stand-in', () => {
  const standIn = new DataCiteStandIn();
  let client: DataCiteClient;

  beforeAll(async () => {
    await standIn.start();
    client = new DataCiteClient({
      url: `${standIn.url}/`,
      username: USERNAME,
      password: PASSWORD,
      prefix: PREFIX,
      timeoutMs: 2_000,
    });
  });
  afterAll(() => standIn.stop());
  afterEach(() => {
    standIn.seen.length = 0;
  });

  it('registers a DOI with a JSON:API PUT and makes it findable', async () => {
    await client.registerDoi(
      '10.5072/abcd-1234',
      'https://cairn.example/records/abcd-1234',
      ATTRIBUTES,
    );

    expect(standIn.dois.get('10.5072/abcd-1234')?.state).toBe('findable');
    const [request] = standIn.seen;
    expect(request?.method).toBe('PUT');
    expect(request?.path).toBe('/dois/10.5072/abcd-1234');
    expect(request?.headers['content-type']).toBe('application/vnd.api+json');
    expect(request?.headers.accept).toBe('application/vnd.api+json');
    expect(request?.body).toEqual({
      data: {
        id: '10.5072/abcd-1234',
        type: 'dois',
        attributes: {
          ...ATTRIBUTES,
          doi: '10.5072/abcd-1234',
          url: 'https://cairn.example/records/abcd-1234',
          event: 'publish',
        },
      },
    });
  });

  it('updates an existing DOI with the same call', async () => {
    await client.registerDoi('10.5072/again', 'https://cairn.example/records/again', ATTRIBUTES);
    await client.registerDoi('10.5072/again', 'https://cairn.example/records/again', {
      ...ATTRIBUTES,
      version: 'v2',
    });
    expect(standIn.dois.get('10.5072/again')?.attributes.version).toBe('v2');
  });

  it('registers what the serializer makes of a minimal record', async () => {
    const attributes = toDataCiteAttributes(
      {
        id: 'min-1',
        metadata: {
          title: 'Minimal',
          creators: [{ person_or_org: { type: 'personal', family_name: 'Doe' } }],
          publication_date: '2023-05',
          resource_type: { id: 'dataset' },
        },
      },
      { publisherFallback: 'Cairn', siteUrl: 'https://cairn.example' },
    );
    await client.registerDoi('10.5072/min-1', 'https://cairn.example/records/min-1', attributes);
    expect(standIn.dois.get('10.5072/min-1')?.state).toBe('findable');
  });

  it('reports a 422 with DataCite’s titles, not to be retried', async () => {
    const error = await failure(client.registerDoi('10.5072/no-url', '', ATTRIBUTES));
    expect(error.status).toBe(422);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("Can't be blank");
    expect(error.message).toContain('url');
    expect(error.errors).toEqual([{ source: 'url', title: "Can't be blank" }]);
    expect(standIn.dois.has('10.5072/no-url')).toBe(false);
  });

  it('reports a 503 as retryable', async () => {
    const error = await failure(
      client.registerDoi('10.5072/unavailable', 'https://cairn.example/r', ATTRIBUTES),
    );
    expect(error).toMatchObject({ status: 503, retryable: true });
    expect(error.message).toContain('Service Unavailable');
  });

  it('reports a 429 as retryable, with Retry-After', async () => {
    const error = await failure(
      client.registerDoi('10.5072/busy', 'https://cairn.example/r', ATTRIBUTES),
    );
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterSeconds: 7 });
  });

  it('gives up after the time-out, as a retryable failure', async () => {
    const impatient = new DataCiteClient({
      url: standIn.url,
      username: USERNAME,
      password: PASSWORD,
      prefix: PREFIX,
      timeoutMs: 150,
    });
    const started = Date.now();
    const error = await failure(
      impatient.registerDoi('10.5072/hang', 'https://cairn.example/r', ATTRIBUTES),
    );
    expect(error).toMatchObject({ status: 0, retryable: true });
    expect(error.message).toContain('timed out after 150 ms');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('reports wrong credentials as a 401, not to be retried', async () => {
    const intruder = new DataCiteClient({
      url: standIn.url,
      username: USERNAME,
      password: 'wrong',
      prefix: PREFIX,
    });
    const error = await failure(
      intruder.registerDoi('10.5072/abcd-1234', 'https://cairn.example/r', ATTRIBUTES),
    );
    expect(error).toMatchObject({ status: 401, retryable: false });
    expect(error.message).toContain('Bad credentials.');
  });

  it('reports an unreachable server as a retryable failure', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const offline = new DataCiteClient({
      url: `http://127.0.0.1:${port}`,
      username: USERNAME,
      password: PASSWORD,
      prefix: PREFIX,
    });
    const error = await failure(
      offline.registerDoi('10.5072/x', 'https://cairn.example/r', ATTRIBUTES),
    );
    expect(error).toMatchObject({ status: 0, retryable: true });
    expect(error.message).toMatch(/ECONNREFUSED|fetch failed/);
  });

  it('refuses a DOI outside its prefix without calling DataCite', async () => {
    const error = await failure(
      client.registerDoi('10.9999/elsewhere', 'https://cairn.example/r', ATTRIBUTES),
    );
    expect(error).toMatchObject({ status: 0, retryable: false });
    expect(standIn.seen).toHaveLength(0);
  });

  it('escapes DOI suffix characters that would break the URL', async () => {
    await client.registerDoi('10.5072/a#b?c d', 'https://cairn.example/r', ATTRIBUTES);
    expect(standIn.seen[0]?.path).toBe('/dois/10.5072/a#b?c d');
    expect(standIn.dois.get('10.5072/a#b?c d')?.state).toBe('findable');
  });

  it('hides a findable DOI', async () => {
    await client.registerDoi(
      '10.5072/to-hide',
      'https://cairn.example/records/to-hide',
      ATTRIBUTES,
    );
    await client.hideDoi('10.5072/to-hide');
    expect(standIn.dois.get('10.5072/to-hide')?.state).toBe('registered');
    expect(standIn.seen[1]?.body).toEqual({
      data: { id: '10.5072/to-hide', type: 'dois', attributes: { event: 'hide' } },
    });
  });

  it('deletes a draft DOI, and reports DataCite’s refusal for a findable one', async () => {
    standIn.dois.set('10.5072/draft', { state: 'draft', attributes: {} });
    await client.deleteDraftDoi('10.5072/draft');
    expect(standIn.dois.has('10.5072/draft')).toBe(false);
    expect(standIn.seen[0]?.method).toBe('DELETE');

    await client.registerDoi(
      '10.5072/published',
      'https://cairn.example/records/published',
      ATTRIBUTES,
    );
    const error = await failure(client.deleteDraftDoi('10.5072/published'));
    expect(error).toMatchObject({ status: 405, retryable: false });
    expect(standIn.dois.get('10.5072/published')?.state).toBe('findable');
  });
});
