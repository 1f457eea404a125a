import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectValidationFailed } from '../../test/assertions.js';

// InvenioRDM's PID rules for records and drafts: external DOIs, the managed prefix, duplicates,
// DOIs minted at publish, the publisher DataCite needs, and registration that never blocks a
// publish.

const DATACITE_USER = 'CAIRN.TEST';
const DATACITE_PASSWORD = 's3cret';
const PREFIX_MESSAGE =
  "The prefix '10.5072' is managed by Cairn. Please supply an external DOI or select 'No' to have a DOI generated for you.";

const validMetadata = {
  title: 'Glacier outflow discharge',
  publication_date: '2024-05-01',
  resource_type: { id: 'dataset' },
  publisher: 'Cairn',
  creators: [{ person_or_org: { type: 'personal', family_name: 'Curie', given_name: 'Marie' } }],
};

type Caller = Awaited<ReturnType<TestApp['user']>>;

function external(identifier: string) {
  return { doi: { identifier, provider: 'external' } };
}

function pidRows(t: TestApp, recordId: string) {
  return t.services.database.db
    .selectFrom('pids')
    .selectAll()
    .where('recordId', '=', recordId)
    .execute();
}

function depositor(t: () => TestApp, caller: () => Caller) {
  return {
    async create(body: Record<string, unknown> = {}) {
      const res = await t().request({
        method: 'POST',
        url: '/api/records',
        headers: caller().headers,
        body: { metadata: validMetadata, files: { enabled: false }, ...body },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<Record<string, any>>();
    },
    publish(id: string) {
      return t().request({
        method: 'POST',
        url: `/api/records/${id}/draft/actions/publish`,
        headers: caller().headers,
      });
    },
  };
}

describe.each(ENGINES)('external DOIs (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  const d = depositor(
    () => t,
    () => owner,
  );

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
  });
  afterAll(() => t.close());

  it('normalises a DOI given as a URL', async () => {
    const draft = await d.create({ pids: external('https://doi.org/10.1234/ABC') });
    expect(draft.errors).toBeUndefined();
    expect(draft.pids).toEqual({ doi: { identifier: '10.1234/ABC', provider: 'external' } });
  });

  it('refuses a DOI under the managed prefix as external', async () => {
    const draft = await d.create({ pids: external('10.5072/not-mine') });
    expect(draft.errors).toEqual([{ field: 'pids.doi', messages: [PREFIX_MESSAGE] }]);
    expect(draft.pids).toEqual({});
  });

  it('refuses an invalid DOI, keeps it on the draft, and publish refuses it too', async () => {
    const draft = await d.create({ pids: external('not a doi') });
    expect(draft.errors).toEqual([{ field: 'pids.doi', messages: ['Invalid DOI identifier.'] }]);
    expect(draft.pids).toEqual({ doi: { identifier: 'not a doi', provider: 'external' } });
    const res = await d.publish(draft.id as string);
    expectValidationFailed(res, [{ field: 'pids.doi', messages: ['Invalid DOI identifier.'] }]);
  });

  it('refuses a DOI another published record holds, whatever its case', async () => {
    const waiting = await d.create({ pids: external('10.1234/shared') });
    const first = await d.create({ pids: external('10.1234/shared') });
    expect((await d.publish(first.id as string)).statusCode).toBe(202);

    const later = await d.create({ pids: external('10.1234/SHARED') });
    expect(later.errors).toEqual([
      { field: 'pids.doi', messages: ['doi:10.1234/SHARED already exists.'] },
    ]);
    expect(later.pids).toEqual({});

    const res = await d.publish(waiting.id as string);
    expectValidationFailed(res, [
      { field: 'pids.doi', messages: ['doi:10.1234/shared already exists.'] },
    ]);
    const stillDraft = await t.request({
      method: 'GET',
      url: `/api/records/${waiting.id}/draft`,
      headers: owner.headers,
    });
    expect(stillDraft.statusCode).toBe(200);
  });
});

describe.each(ENGINES)('DOIs required, no DataCite (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  const d = depositor(
    () => t,
    () => owner,
  );

  beforeAll(async () => {
    t = await createTestApp(engine, { CAIRN_DOI_REQUIRED: 'true' });
    owner = await t.user();
  });
  afterAll(() => t.close());

  it('mints {prefix}/{id} at publish for a public record, without asking for a publisher', async () => {
    const draft = await d.create({ metadata: { ...validMetadata, publisher: undefined } });
    const res = await d.publish(draft.id as string);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().pids.doi).toEqual({
      identifier: `10.5072/${draft.id}`,
      provider: 'local',
      client: 'local',
    });
    expect(await pidRows(t, draft.id as string)).toMatchObject([{ status: 'registered' }]);
  });

  it('mints nothing for a restricted record', async () => {
    const draft = await d.create({ access: { record: 'restricted', files: 'restricted' } });
    const res = await d.publish(draft.id as string);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().pids.doi).toBeUndefined();
    expect(await pidRows(t, draft.id as string)).toEqual([]);
  });
});

/**
 * A stand-in for DataCite's REST API: checks Basic auth and the JSON:API body as DataCite does,
 * and answers 201, or 503 while `unavailable`. A `hold` keeps answers back until released, so a
 * test can see that publishing does not wait for DataCite.
 */
class DataCiteStandIn {
  readonly seen: Array<{ method: string; path: string; authorized: boolean; body: any }> = [];
  unavailable = false;
  private held: Array<() => void> = [];
  private holding = false;
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.release();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  hold(): void {
    this.holding = true;
  }

  release(): void {
    this.holding = false;
    for (const go of this.held.splice(0)) go();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const expected = `Basic ${Buffer.from(`${DATACITE_USER}:${DATACITE_PASSWORD}`).toString('base64')}`;
    const seen = {
      method: req.method ?? '',
      path: decodeURIComponent(req.url ?? ''),
      authorized: req.headers.authorization === expected,
      body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as unknown,
    };
    this.seen.push(seen);
    if (this.holding) await new Promise<void>((resolve) => this.held.push(resolve));
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/vnd.api+json' });
      res.end(JSON.stringify(body));
    };
    if (!seen.authorized) return answer(401, { errors: [{ title: 'Bad credentials.' }] });
    if (this.unavailable) return answer(503, { errors: [{ title: 'Service Unavailable' }] });
    if (req.headers['content-type'] !== 'application/vnd.api+json')
      return answer(415, { errors: [{ title: 'The content type is not recognized.' }] });
    const data = (seen.body as { data?: { id?: string; type?: string; attributes?: any } })?.data;
    const doi = seen.path.replace(/^\/dois\//, '');
    const event = data?.attributes?.event as unknown;
    if (data?.type !== 'dois' || data.id !== doi || (event !== 'publish' && event !== 'hide'))
      return answer(422, { errors: [{ title: 'Not a publish or hide of this DOI' }] });
    const state = event === 'hide' ? 'registered' : 'findable';
    return answer(201, { data: { id: doi, type: 'dois', attributes: { state } } });
  }
}

describe.each(ENGINES)('DataCite registration (%s)', (engine) => {
  const datacite = new DataCiteStandIn();
  let t: TestApp;
  let owner: Caller;
  const d = depositor(
    () => t,
    () => owner,
  );

  beforeAll(async () => {
    await datacite.start();
    t = await createTestApp(engine, {
      CAIRN_DOI_REQUIRED: 'true',
      CAIRN_DATACITE_URL: datacite.url,
      CAIRN_DATACITE_USERNAME: DATACITE_USER,
      CAIRN_DATACITE_PASSWORD: DATACITE_PASSWORD,
    });
    owner = await t.user();
  });
  afterEach(async () => {
    datacite.release();
    await t.services.doi.idle();
    datacite.unavailable = false;
    datacite.seen.length = 0;
  });
  afterAll(async () => {
    await t.close();
    await datacite.stop();
  });

  it('requires a publisher when the DOI will be registered', async () => {
    const draft = await d.create({ metadata: { ...validMetadata, publisher: undefined } });
    const res = await d.publish(draft.id as string);
    expectValidationFailed(res, [
      {
        field: 'metadata.publisher',
        messages: ['Missing publisher field required for DOI registration.'],
      },
    ]);
  });

  it.each([
    ['a restricted record', { access: { record: 'restricted', files: 'restricted' } }],
    ['a record with an external DOI', { pids: external('10.1234/brought-along') }],
  ])('does not require a publisher for %s, which DataCite never sees', async (_label, body) => {
    const draft = await d.create({ metadata: { ...validMetadata, publisher: undefined }, ...body });
    const res = await d.publish(draft.id as string);
    expect(res.statusCode, res.body).toBe(202);
    await t.services.doi.idle();
    expect(datacite.seen).toEqual([]);
  });

  it('answers 202 at once and registers the DOI afterwards', async () => {
    const draft = await d.create();
    const doi = `10.5072/${draft.id}`;
    datacite.hold();
    const res = await d.publish(draft.id as string);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().pids.doi).toEqual({
      identifier: doi,
      provider: 'datacite',
      client: 'datacite',
    });
    expect(await pidRows(t, draft.id as string)).toMatchObject([{ status: 'publishing' }]);

    datacite.release();
    await t.services.doi.idle();
    expect(await pidRows(t, draft.id as string)).toMatchObject([
      { identifier: doi.toLowerCase(), status: 'registered', registrationError: null },
    ]);
    // The version's DOI, and the concept DOI of its parent (its own test, below).
    expect(datacite.seen).toHaveLength(2);
    const request = datacite.seen.find((r) => r.path === `/dois/${doi}`);
    expect(request).toMatchObject({ method: 'PUT', path: `/dois/${doi}`, authorized: true });
    expect(request?.body.data).toMatchObject({
      id: doi,
      type: 'dois',
      attributes: {
        event: 'publish',
        doi,
        url: `https://cairn.test/records/${draft.id}`,
        titles: [{ title: validMetadata.title }],
        publisher: expect.anything(),
        types: expect.objectContaining({ resourceTypeGeneral: 'Dataset' }),
      },
    });
  });

  it('registers a concept DOI for all versions, pointing to the latest and naming each', async () => {
    const first = await d.create();
    expect((await d.publish(first.id as string)).statusCode).toBe(202);
    await t.services.doi.idle();
    const v1 = (await t.request({ method: 'GET', url: `/api/records/${first.id}` })).json();
    const concept = v1.parent.pids.doi.identifier as string;
    const v1Doi = v1.pids.doi.identifier as string;
    expect(v1.parent.pids.doi).toEqual({
      identifier: `10.5072/${v1.parent.id}`,
      provider: 'datacite',
      client: 'datacite',
    });
    expect(concept).not.toBe(v1Doi);
    const registration = (doi: string): Record<string, any> =>
      (datacite.seen.filter((r) => r.path === `/dois/${doi}`).at(-1)?.body as Record<string, any>)
        .data.attributes as Record<string, any>;
    expect(registration(v1Doi).relatedIdentifiers).toContainEqual({
      relatedIdentifier: concept,
      relatedIdentifierType: 'DOI',
      relationType: 'IsVersionOf',
    });
    expect(registration(concept)).toMatchObject({
      doi: concept,
      url: `https://cairn.test/records/${first.id}`,
      relatedIdentifiers: [
        { relatedIdentifier: v1Doi, relatedIdentifierType: 'DOI', relationType: 'HasVersion' },
      ],
    });

    const next = await t.request({
      method: 'POST',
      url: `/api/records/${first.id}/versions`,
      headers: owner.headers,
    });
    const second = next.json().id as string;
    const published = await d.publish(second);
    expect(published.statusCode, published.body).toBe(202);
    const v2Doi = published.json().pids.doi.identifier as string;
    expect(published.json().parent.pids.doi.identifier).toBe(concept);
    expect(v2Doi).toBe(`10.5072/${second}`);
    await t.services.doi.idle();
    expect(registration(concept)).toMatchObject({
      url: `https://cairn.test/records/${second}`,
      relatedIdentifiers: [
        { relatedIdentifier: v2Doi, relatedIdentifierType: 'DOI', relationType: 'HasVersion' },
        { relatedIdentifier: v1Doi, relatedIdentifierType: 'DOI', relationType: 'HasVersion' },
      ],
    });
    expect(registration(v2Doi).relatedIdentifiers).toContainEqual({
      relatedIdentifier: concept,
      relatedIdentifierType: 'DOI',
      relationType: 'IsVersionOf',
    });
    expect(await pidRows(t, v1.parent.id as string)).toMatchObject([
      { identifier: concept.toLowerCase(), status: 'registered' },
    ]);
    // The DataCite JSON export carries the same relation.
    const exported = await t.request({
      method: 'GET',
      url: `/api/records/${second}`,
      headers: { accept: 'application/vnd.datacite.datacite+json' },
    });
    expect(exported.json().relatedIdentifiers).toContainEqual({
      relatedIdentifier: concept,
      relatedIdentifierType: 'DOI',
      relationType: 'IsVersionOf',
    });
  });

  it("hides a deleted version's DOI, points the concept DOI at the versions standing, and undoes both on restore", async () => {
    const first = await d.create();
    expect((await d.publish(first.id as string)).statusCode).toBe(202);
    const next = await t.request({
      method: 'POST',
      url: `/api/records/${first.id}/versions`,
      headers: owner.headers,
    });
    const second = next.json().id as string;
    const published = await d.publish(second);
    expect(published.statusCode, published.body).toBe(202);
    await t.services.doi.idle();
    const concept = published.json().parent.pids.doi.identifier as string;
    const v1Doi = `10.5072/${first.id}`;
    const v2Doi = `10.5072/${second}`;
    const last = (doi: string) =>
      (datacite.seen.filter((r) => r.path === `/dois/${doi}`).at(-1)?.body as Record<string, any>)
        .data.attributes as Record<string, any>;

    const admin = await t.user(undefined, { admin: true });
    datacite.seen.length = 0;
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/records/${second}/delete`,
      headers: admin.headers,
      body: { removal_reason: { id: 'retracted' } },
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    await t.services.doi.idle();
    expect(last(v2Doi)).toEqual({ event: 'hide' });
    expect(last(concept)).toMatchObject({
      event: 'publish',
      url: `https://cairn.test/records/${first.id}`,
      relatedIdentifiers: [
        { relatedIdentifier: v1Doi, relatedIdentifierType: 'DOI', relationType: 'HasVersion' },
      ],
    });
    expect(await pidRows(t, second)).toMatchObject([
      { status: 'registered', registrationError: null },
    ]);

    datacite.seen.length = 0;
    const restored = await t.request({
      method: 'POST',
      url: `/api/records/${second}/restore`,
      headers: admin.headers,
    });
    expect(restored.statusCode, restored.body).toBe(200);
    await t.services.doi.idle();
    expect(last(v2Doi)).toMatchObject({
      event: 'publish',
      url: `https://cairn.test/records/${second}`,
    });
    expect(last(concept)).toMatchObject({ url: `https://cairn.test/records/${second}` });
  });

  it('still publishes while DataCite is down, and keeps the DOI queued with the reason', async () => {
    datacite.unavailable = true;
    const draft = await d.create();
    const res = await d.publish(draft.id as string);
    expect(res.statusCode, res.body).toBe(202);
    await t.services.doi.idle();

    const [pid] = await pidRows(t, draft.id as string);
    expect(pid).toMatchObject({ status: 'publishing', registrationAttempts: 1 });
    expect(pid?.registrationError).toContain('503');
    expect(Date.parse(pid?.nextAttemptAt ?? '')).toBeGreaterThan(Date.now());
    const record = await t.request({ method: 'GET', url: `/api/records/${draft.id}` });
    expect(record.statusCode).toBe(200);
  });
});
