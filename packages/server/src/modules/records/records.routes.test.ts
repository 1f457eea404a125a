import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';

const validMetadata = {
  title: 'Ocean temperature profiles',
  publication_date: '2024-05-01',
  resource_type: { id: 'dataset' },
  creators: [{ person_or_org: { type: 'personal', family_name: 'Curie', given_name: 'Marie' } }],
};

describe.each(ENGINES)('records and drafts API on %s', (engine) => {
  let t: TestApp;
  let owner: Awaited<ReturnType<TestApp['user']>>;
  let other: Awaited<ReturnType<TestApp['user']>>;

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    other = await t.user();
  });
  afterAll(() => t.close());

  async function create(
    metadata: Record<string, unknown> = validMetadata,
    extra: Record<string, unknown> = { files: { enabled: false } },
  ) {
    const res = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: owner.headers,
      body: { metadata, ...extra },
    });
    expect(res.statusCode).toBe(201);
    return res.json<Record<string, any>>();
  }

  it('creates a draft with the contract links, status and ETag', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: owner.headers,
      body: { metadata: validMetadata },
    });
    expect(res.statusCode).toBe(201);
    const draft = res.json();
    expect(draft.id).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
    expect(res.headers.etag).toBe(`"${draft.revision_id}"`);
    expect(draft.status).toBe('draft');
    expect(draft.is_draft).toBe(true);
    expect(draft.is_published).toBe(false);
    expect(draft.pids).toEqual({});
    expect(draft.access).toMatchObject({ record: 'public', files: 'public', status: 'open' });
    expect(draft.parent.access.owned_by).toEqual({ user: String(owner.id) });
    expect(Object.keys(draft.links).sort()).toEqual(
      [
        'self',
        'self_html',
        'publish',
        'review',
        'versions',
        'access_links',
        'access_grants',
        'access_users',
        'access',
        // No access_request: a draft never published has no files anyone could ask for.
        'files',
        'archive',
        'reserve_doi',
        'communities',
        'requests',
        'preview_html',
      ].sort(),
    );
    expect(draft.links.self).toBe(`https://cairn.test/api/records/${draft.id}/draft`);
    expect(draft.links.self_html).toBe(`https://cairn.test/uploads/${draft.id}`);
    expect(draft.metadata.resource_type).toMatchObject({ id: 'dataset', title: { en: 'Dataset' } });
    expect(draft.metadata.creators[0].person_or_org.name).toBe('Curie, Marie');
  });

  it('saves partially invalid drafts and reports every problem', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: owner.headers,
      body: { metadata: { title: '' } },
    });
    expect(res.statusCode).toBe(201);
    const draft = res.json();
    expect(draft.metadata.title).toBeUndefined();
    const fields = (draft.errors as Array<{ field: string }>).map((e) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'metadata.title',
        'metadata.creators',
        'metadata.publication_date',
        'metadata.resource_type',
      ]),
    );
  });

  it('reads, updates with If-Match, and refuses a stale revision with 412', async () => {
    const draft = await create();
    const read = await t.request({
      method: 'GET',
      url: `/api/records/${draft.id}/draft`,
      headers: owner.headers,
    });
    expect(read.statusCode).toBe(200);
    const updated = await t.request({
      method: 'PUT',
      url: `/api/records/${draft.id}/draft`,
      headers: { ...owner.headers, 'if-match': String(draft.revision_id) },
      body: { metadata: { ...validMetadata, title: 'Renamed' } },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().metadata.title).toBe('Renamed');
    expect(updated.json().revision_id).toBe(draft.revision_id + 1);
    const stale = await t.request({
      method: 'PUT',
      url: `/api/records/${draft.id}/draft`,
      headers: { ...owner.headers, 'if-match': `"${draft.revision_id}"` },
      body: { metadata: validMetadata },
    });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().message).toBe(
      `Revision id provided(${draft.revision_id}) doesn't match record's one(${draft.revision_id + 1})`,
    );
  });

  it('keeps drafts private to their owner', async () => {
    const draft = await create();
    expect(
      (
        await t.request({
          method: 'GET',
          url: `/api/records/${draft.id}/draft`,
          headers: other.headers,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.request({ method: 'GET', url: `/api/records/${draft.id}/draft` })).statusCode,
    ).toBe(403);
    expect(
      (await t.request({ method: 'GET', url: `/api/records/${draft.id}` })).json().message,
    ).toBe('The persistent identifier is not registered.');
  });

  it('publishes (202), then edits, versions and lists versions', async () => {
    const draft = await create();
    const published = await t.request({
      method: 'POST',
      url: `/api/records/${draft.id}/draft/actions/publish`,
      headers: owner.headers,
    });
    expect(published.statusCode, published.body).toBe(202);
    const record = published.json();
    expect(record.status).toBe('published');
    expect(record.is_published).toBe(true);
    expect(record.pids.oai.identifier).toBe(`oai:cairn.test:${draft.id}`);
    expect(record.versions).toEqual({ index: 1, is_latest: true });

    expect(
      (
        await t.request({
          method: 'GET',
          url: `/api/records/${draft.id}/draft`,
          headers: owner.headers,
        })
      ).statusCode,
    ).toBe(404);
    const anonymous = await t.request({ method: 'GET', url: `/api/records/${draft.id}` });
    expect(anonymous.statusCode).toBe(200);

    const edit = await t.request({
      method: 'POST',
      url: `/api/records/${draft.id}/draft`,
      headers: owner.headers,
    });
    expect(edit.statusCode).toBe(201);
    expect(edit.json().is_published).toBe(true);
    expect(edit.json().status).toBe('published');

    const version = await t.request({
      method: 'POST',
      url: `/api/records/${draft.id}/versions`,
      headers: owner.headers,
    });
    expect(version.statusCode).toBe(201);
    const v2 = version.json();
    expect(v2.id).not.toBe(draft.id);
    expect(v2.versions.index).toBe(2);
    expect(v2.status).toBe('new_version_draft');
    expect(v2.pids).toEqual({});
    expect(v2.metadata.publication_date).toBe(new Date().toISOString().slice(0, 10));
    expect(v2.parent.id).toBe(record.parent.id);
    const again = await t.request({
      method: 'POST',
      url: `/api/records/${draft.id}/versions`,
      headers: owner.headers,
    });
    expect(again.json().id).toBe(v2.id);

    await t.request({
      method: 'POST',
      url: `/api/records/${v2.id}/draft/actions/publish`,
      headers: owner.headers,
    });
    const versions = await t.request({ method: 'GET', url: `/api/records/${draft.id}/versions` });
    expect(versions.json().hits.total).toBe(2);
    expect(versions.json().sortBy).toBe('version');
    expect(versions.json().links.self).toBe(
      `https://cairn.test/api/records/${draft.id}/versions?page=1&size=25&sort=version`,
    );
    const latest = await t.request({
      method: 'GET',
      url: `/api/records/${draft.id}/versions/latest`,
    });
    expect(latest.statusCode).toBe(301);
    expect(latest.headers.location).toBe(`https://cairn.test/api/records/${v2.id}`);
    expect(latest.json()).toEqual({
      status: 301,
      message: 'Redirecting...',
      location: `https://cairn.test/api/records/${v2.id}`,
    });
  });

  it('refuses to publish an invalid draft with every error', async () => {
    const draft = await create({ title: 'ab' });
    const res = await t.request({
      method: 'POST',
      url: `/api/records/${draft.id}/draft/actions/publish`,
      headers: owner.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('A validation error occurred.');
    const fields = (res.json().errors as Array<{ field: string }>).map((e) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'metadata.title',
        'metadata.creators',
        'metadata.publication_date',
        'metadata.resource_type',
      ]),
    );
  });

  it('keeps a person sent with only a name and refuses to publish it until a family name is given', async () => {
    // What API clients and imports often send: the display name alone, with or without a type.
    const people = [
      { person_or_org: { type: 'personal', name: 'Doe, Jane' } },
      { person_or_org: { type: 'personal', given_name: 'Jane', name: 'Doe, Jane' } },
      { person_or_org: { name: 'Roe, Richard' } },
    ];
    const draft = await create({ ...validMetadata, creators: people });
    // The save reports what is missing; the draft keeps every name it was sent.
    const fields = (draft.errors as Array<{ field: string }>).map((e) => e.field).sort();
    expect(fields).toEqual([
      'metadata.creators.0.person_or_org.family_name',
      'metadata.creators.1.person_or_org.family_name',
      'metadata.creators.2.person_or_org.type',
    ]);
    const read = await t.request({
      method: 'GET',
      url: `/api/records/${draft.id}/draft`,
      headers: owner.headers,
    });
    expect(read.json().metadata.creators).toEqual(people);

    const published = await t.request({
      method: 'POST',
      url: `/api/records/${draft.id}/draft/actions/publish`,
      headers: owner.headers,
    });
    expect(published.statusCode).toBe(400);
    expect(published.json().errors).toEqual(
      expect.arrayContaining([
        {
          field: 'metadata.creators.0.person_or_org.family_name',
          messages: ['Family name cannot be blank.'],
        },
      ]),
    );
  });

  it('reserves (201) and discards (200) a DOI', async () => {
    const draft = await create();
    const reserved = await t.request({
      method: 'POST',
      url: `/api/records/${draft.id}/draft/pids/doi`,
      headers: owner.headers,
    });
    expect(reserved.statusCode).toBe(201);
    expect(reserved.json().pids.doi).toEqual({
      identifier: `10.5072/${draft.id}`,
      provider: 'local',
      client: 'local',
    });
    const twice = await t.request({
      method: 'POST',
      url: `/api/records/${draft.id}/draft/pids/doi`,
      headers: owner.headers,
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().errors).toEqual([
      { field: 'pids.doi', messages: ['A PID already exists for type doi'] },
    ]);
    const discarded = await t.request({
      method: 'DELETE',
      url: `/api/records/${draft.id}/draft/pids/doi`,
      headers: owner.headers,
    });
    expect(discarded.statusCode).toBe(200);
    expect(discarded.json().pids).toEqual({});
    const none = await t.request({
      method: 'DELETE',
      url: `/api/records/${draft.id}/draft/pids/doi`,
      headers: owner.headers,
    });
    expect(none.statusCode).toBe(404);
  });

  it('searches published records and the user’s uploads with the contract envelope', async () => {
    const mine = await create({ ...validMetadata, title: 'Zebrafish swimming kinematics' });
    await t.request({
      method: 'POST',
      url: `/api/records/${mine.id}/draft/actions/publish`,
      headers: owner.headers,
    });
    const found = await t.request({ method: 'GET', url: '/api/records?q=zebrafish' });
    expect(found.statusCode).toBe(200);
    expect(found.json().hits.total).toBe(1);
    expect(found.json().sortBy).toBe('bestmatch');
    expect(found.json().aggregations).toBeDefined();
    const sizeZero = await t.request({ method: 'GET', url: '/api/records?size=0' });
    expect(sizeZero.statusCode).toBe(400);
    const user = await t.request({
      method: 'GET',
      url: '/api/user/records?is_published=false',
      headers: owner.headers,
    });
    expect(user.statusCode).toBe(200);
    expect(
      (user.json().hits.hits as Array<{ is_published: boolean }>).every((h) => !h.is_published),
    ).toBe(true);
    expect((await t.request({ method: 'GET', url: '/api/user/records' })).statusCode).toBe(403);
  });

  it('discards a new draft (204) and then it is gone', async () => {
    const draft = await create();
    const del = await t.request({
      method: 'DELETE',
      url: `/api/records/${draft.id}/draft`,
      headers: owner.headers,
    });
    expect(del.statusCode).toBe(204);
    expect(
      (
        await t.request({
          method: 'GET',
          url: `/api/records/${draft.id}/draft`,
          headers: owner.headers,
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('rendered bodies are never stale', () => {
  it('a read after a save, an edit and a new version shows the new state', async () => {
    const t = await createTestApp('sqlite');
    try {
      const owner = await t.user();
      const created = await t.request({
        method: 'POST',
        url: '/api/records',
        headers: owner.headers,
        body: { metadata: validMetadata, files: { enabled: false } },
      });
      const id = created.json().id as string;
      const read = () =>
        t.request({ method: 'GET', url: `/api/records/${id}/draft`, headers: owner.headers });
      expect((await read()).json().metadata.title).toBe(validMetadata.title);
      expect((await read()).json().metadata.title).toBe(validMetadata.title);
      await t.request({
        method: 'PUT',
        url: `/api/records/${id}/draft`,
        headers: owner.headers,
        body: { metadata: { ...validMetadata, title: 'Second title' }, files: { enabled: false } },
      });
      const after = await read();
      expect(after.json().metadata.title).toBe('Second title');
      expect(after.headers.etag).toBe(`"${after.json().revision_id}"`);
      const vnd = await t.request({
        method: 'GET',
        url: `/api/records/${id}/draft`,
        headers: { ...owner.headers, accept: 'application/vnd.inveniordm.v1+json' },
      });
      expect(vnd.json().ui).toBeDefined();
      expect(vnd.headers['content-type']).toContain('application/vnd.inveniordm.v1+json');

      await t.request({
        method: 'POST',
        url: `/api/records/${id}/draft/actions/publish`,
        headers: owner.headers,
      });
      const record = () => t.request({ method: 'GET', url: `/api/records/${id}` });
      expect((await record()).json().versions.is_latest).toBe(true);
      const v2 = await t.request({
        method: 'POST',
        url: `/api/records/${id}/versions`,
        headers: owner.headers,
      });
      await t.request({
        method: 'POST',
        url: `/api/records/${v2.json().id}/draft/actions/publish`,
        headers: owner.headers,
      });
      expect((await record()).json().versions.is_latest).toBe(false);
    } finally {
      await t.close();
    }
  });
});
