import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordData } from '@cairn/shared';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectValidationFailed } from '../../test/assertions.js';
import { readJson } from '../../database/schema.js';

// InvenioRDM's access rules: embargo dates, restricted records forcing restricted files, the grace
// period for restricting a published record, and the embargo sweep.

const GRACE_MESSAGE =
  'Record visibility can not be changed to restricted anymore. Please contact support if you still need to make these changes.';

const validMetadata = {
  title: 'Seabird colony counts',
  publication_date: '2024-05-01',
  resource_type: { id: 'dataset' },
  creators: [{ person_or_org: { type: 'personal', family_name: 'Curie', given_name: 'Marie' } }],
};

function isoDay(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

type Caller = Awaited<ReturnType<TestApp['user']>>;

/** Draft and publish helpers bound to one app and one depositor. */
function depositor(t: () => TestApp, caller: () => Caller) {
  return {
    async create(body: Record<string, unknown>) {
      const res = await t().request({
        method: 'POST',
        url: '/api/records',
        headers: caller().headers,
        body: { metadata: validMetadata, files: { enabled: false }, ...body },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<Record<string, any>>();
    },
    async publish(id: string) {
      const res = await t().request({
        method: 'POST',
        url: `/api/records/${id}/draft/actions/publish`,
        headers: caller().headers,
      });
      expect(res.statusCode, res.body).toBe(202);
      return res.json<Record<string, any>>();
    },
    async edit(id: string) {
      const res = await t().request({
        method: 'POST',
        url: `/api/records/${id}/draft`,
        headers: caller().headers,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<Record<string, any>>();
    },
    save(id: string, body: Record<string, unknown>) {
      return t().request({
        method: 'PUT',
        url: `/api/records/${id}/draft`,
        headers: caller().headers,
        body: { metadata: validMetadata, files: { enabled: false }, ...body },
      });
    },
  };
}

describe.each(ENGINES)('access rules (%s)', (engine) => {
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

  it('reports an active embargo ending in the past on access.embargo.until, and publish refuses it', async () => {
    const draft = await d.create({
      access: {
        record: 'public',
        files: 'restricted',
        embargo: { active: true, until: isoDay(-1), reason: 'Field season' },
      },
    });
    expect(draft.errors).toEqual([
      {
        field: 'access.embargo.until',
        messages: ['Embargo end date must be set to a future date.'],
      },
    ]);
    const res = await t.request({
      method: 'POST',
      url: `/api/records/${draft.id}/draft/actions/publish`,
      headers: owner.headers,
    });
    expectValidationFailed(res, [
      {
        field: 'access.embargo.until',
        messages: ['Embargo end date must be set to a future date.'],
      },
    ]);
  });

  it('forces restricted files on a restricted record', async () => {
    const draft = await d.create({ access: { record: 'restricted', files: 'public' } });
    expect(draft.errors).toBeUndefined();
    expect(draft.access).toMatchObject({
      record: 'restricted',
      files: 'restricted',
      status: 'restricted',
    });
  });

  it('lets a record younger than the grace period become restricted', async () => {
    const record = await d.publish((await d.create({})).id as string);
    await d.edit(record.id as string);
    const res = await d.save(record.id as string, {
      access: { record: 'restricted', files: 'restricted' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().errors).toBeUndefined();
    expect(res.json().access.record).toBe('restricted');
    const republished = await d.publish(record.id as string);
    expect(republished.access.record).toBe('restricted');
  });

  it('lifts an embargo whose date has passed: public record and files, revision bumped', async () => {
    const until = isoDay(1);
    const record = await d.publish(
      (
        await d.create({
          metadata: { ...validMetadata, title: 'Embargoed until tomorrow' },
          access: { record: 'public', files: 'restricted', embargo: { active: true, until } },
        })
      ).id as string,
    );
    expect(record.access.status).toBe('embargoed');
    expect(await t.services.recordAccess.liftExpiredEmbargoes()).toBe(0);

    // Time passes: the embargo date moves into the past, as a day of waiting would leave it.
    const { db } = t.services.database;
    const row = await db
      .selectFrom('records')
      .selectAll()
      .where('id', '=', record.id as string)
      .executeTakeFirstOrThrow();
    const data = readJson<RecordData>(row.data);
    data.access.embargo = { ...data.access.embargo, until: isoDay(-1) };
    await db
      .updateTable('records')
      .set({ embargoUntil: isoDay(-1), data: JSON.stringify(data) })
      .where('id', '=', row.id)
      .execute();

    expect(await t.services.recordAccess.liftExpiredEmbargoes()).toBe(1);
    const lifted = await t.request({ method: 'GET', url: `/api/records/${record.id}` });
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json().revision_id).toBe(record.revision_id + 1);
    expect(lifted.json().access).toEqual({
      record: 'public',
      files: 'public',
      embargo: { active: false, until: isoDay(-1) },
      status: 'metadata-only',
    });
    expect(await t.services.recordAccess.liftExpiredEmbargoes()).toBe(0);
  });
});

describe.each(ENGINES)('restriction grace period of 0 days (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  const d = depositor(
    () => t,
    () => owner,
  );

  beforeAll(async () => {
    t = await createTestApp(engine, { CAIRN_RESTRICTION_GRACE_DAYS: '0' });
    owner = await t.user();
  });
  afterAll(() => t.close());

  it('keeps a published record past the grace period public and says why', async () => {
    const record = await d.publish((await d.create({})).id as string);
    const draft = await d.edit(record.id as string);
    const res = await d.save(record.id as string, {
      metadata: { ...validMetadata, title: 'Retitled while trying to restrict' },
      access: { record: 'restricted', files: 'restricted' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().errors).toEqual([{ field: 'access.record', messages: [GRACE_MESSAGE] }]);
    expect(res.json().access).toMatchObject({ record: 'public', files: 'public' });
    expect(res.json().revision_id).toBe(draft.revision_id + 1);
    expect(res.json().metadata.title).toBe('Retitled while trying to restrict');

    const republished = await d.publish(record.id as string);
    expect(republished.access).toMatchObject({ record: 'public', files: 'public' });
    const anonymous = await t.request({ method: 'GET', url: `/api/records/${record.id}` });
    expect(anonymous.statusCode).toBe(200);
  });

  it('lets a draft that was never published become restricted, however old', async () => {
    const draft = await d.create({});
    const res = await d.save(draft.id as string, {
      access: { record: 'restricted', files: 'restricted' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().errors).toBeUndefined();
    expect(res.json().access).toMatchObject({ record: 'restricted', files: 'restricted' });
  });

  it('lets a new version, not yet published, become restricted', async () => {
    const record = await d.publish((await d.create({})).id as string);
    const version = await t.request({
      method: 'POST',
      url: `/api/records/${record.id}/versions`,
      headers: owner.headers,
    });
    expect(version.statusCode, version.body).toBe(201);
    const res = await d.save(version.json().id as string, {
      access: { record: 'restricted', files: 'restricted' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().errors).toBeUndefined();
    expect(res.json().access).toMatchObject({ record: 'restricted', files: 'restricted' });
  });

  it('still lets a restricted record become public, and files alone be restricted', async () => {
    const record = await d.publish(
      (await d.create({ access: { record: 'restricted', files: 'restricted' } })).id as string,
    );
    await d.edit(record.id as string);
    const opened = await d.save(record.id as string, {
      access: { record: 'public', files: 'restricted' },
    });
    expect(opened.statusCode).toBe(200);
    expect(opened.json().errors).toBeUndefined();
    expect(opened.json().access).toMatchObject({ record: 'public', files: 'restricted' });
  });
});
