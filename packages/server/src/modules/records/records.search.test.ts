import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectValidationFailed } from '../../test/assertions.js';
import { createCommunity, requestAs } from '../../test/communities.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';

// Every facet filter and sort option of the record searches (`/api/records`, a community's
// records, the caller's uploads, a record's versions), results checked on both engines. The
// fixtures' times are set by hand so every order is known.

const FUTURE = '2099-12-31';

function hour(h: number): string {
  return new Date(Date.UTC(2024, 0, 1, h)).toISOString();
}

interface Fixture {
  title: string;
  resourceType: string;
  access: object;
  files: boolean;
  description?: string;
}

/** Published records, in publication order. */
const RECORDS = {
  glacier: {
    title: 'Glacier glacier melt',
    resourceType: 'dataset',
    access: { record: 'public', files: 'public' },
    files: true,
  },
  ocean: {
    title: 'Ocean temperatures',
    resourceType: 'software',
    access: { record: 'public', files: 'public' },
    files: false,
    description: '<p>Buoys, floats and one glacier front.</p>',
  },
  sediment: {
    title: 'Sediment cores',
    resourceType: 'dataset',
    access: { record: 'public', files: 'restricted' },
    files: true,
  },
  hidden: {
    title: 'Hidden survey',
    resourceType: 'dataset',
    access: { record: 'restricted', files: 'restricted' },
    files: true,
  },
  lake: {
    title: 'Embargoed lake',
    resourceType: 'image',
    access: { record: 'public', files: 'restricted', embargo: { active: true, until: FUTURE } },
    files: false,
  },
} satisfies Record<string, Fixture>;
type Name = keyof typeof RECORDS | 'glacierV2' | 'glacierV1' | 'notes';

describe.each(ENGINES)('record searches: every filter and sort (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let admin: Caller;
  let files: FilesApi;
  const ids = {} as Record<Name, string>;
  const nameOf = (id: string) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? id;
  let communityId: string;

  const recordTimes = new Map<string, { createdAt?: string; updatedAt?: string }>();

  async function setTimes(
    table: 'records' | 'drafts',
    id: string,
    times: { createdAt?: string; updatedAt?: string; publishedAt?: string },
  ) {
    if (table === 'records') recordTimes.set(id, times);
    await t.services.database.db
      .updateTable(table)
      .set(times as never)
      .where('id', '=', id)
      .execute();
  }

  async function publishFixture(fixture: Fixture): Promise<string> {
    const { id } = await files.createDraft({
      metadata: {
        ...PUBLISHABLE_METADATA,
        title: fixture.title,
        resource_type: { id: fixture.resourceType },
        ...(fixture.description ? { description: fixture.description } : {}),
      },
      access: fixture.access,
      files: { enabled: fixture.files },
    });
    if (fixture.files) await files.upload(id, 'data.csv', 'a,b\n1,2\n');
    await files.publish(id);
    return id;
  }

  /** The names of the hits of `url`, in order, and the total. */
  async function found(url: string, caller?: Caller): Promise<{ names: string[]; total: number }> {
    const res = await requestAs(t, 'GET', url, caller);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    const body = res.json();
    return {
      names: (body.hits.hits as Array<{ id: string }>).map((h) => nameOf(h.id)),
      total: body.hits.total as number,
    };
  }
  const names = async (url: string, caller?: Caller) => (await found(url, caller)).names;

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    admin = await t.user(undefined, { admin: true });
    files = new FilesApi(t, owner);
    let h = 0;
    for (const [name, fixture] of Object.entries(RECORDS)) {
      ids[name as Name] = await publishFixture(fixture);
      h++;
      await setTimes('records', ids[name as Name], {
        createdAt: hour(h),
        updatedAt: hour(h),
        publishedAt: hour(h),
      });
    }
    // A second version of the glacier record, published last.
    ids.glacierV1 = ids.glacier;
    delete (ids as Partial<typeof ids>).glacier;
    const version = await requestAs(t, 'POST', `/api/records/${ids.glacierV1}/versions`, owner);
    expect(version.statusCode, version.body).toBe(201);
    ids.glacierV2 = version.json().id as string;
    const imported = await requestAs(
      t,
      'POST',
      `/api/records/${ids.glacierV2}/draft/actions/files-import`,
      owner,
    );
    expect(imported.statusCode, imported.body).toBe(201);
    const v2 = await requestAs(t, 'PUT', `/api/records/${ids.glacierV2}/draft`, owner, {
      metadata: { ...PUBLISHABLE_METADATA, title: 'Glacier glacier melt, second version' },
      access: RECORDS.glacier.access,
      files: { enabled: true },
    });
    expect(v2.statusCode, v2.body).toBe(200);
    await files.publish(ids.glacierV2);
    await setTimes('records', ids.glacierV2, {
      createdAt: hour(10),
      updatedAt: hour(10),
      publishedAt: hour(10),
    });
    // An unpublished draft, and an edit of the ocean record (its draft stands for it).
    ids.notes = (await files.createDraft()).id;
    await setTimes('drafts', ids.notes, { createdAt: hour(11), updatedAt: hour(11) });
    expect((await requestAs(t, 'POST', `/api/records/${ids.ocean}/draft`, owner)).statusCode).toBe(
      201,
    );
    await setTimes('drafts', ids.ocean, { createdAt: hour(2), updatedAt: hour(12) });

    // Its owner includes records directly.
    communityId = await createCommunity(t, owner, 'glaciology', { review_policy: 'open' });
    for (const id of [ids.glacierV2, ids.sediment, ids.lake]) {
      const res = await requestAs(t, 'POST', `/api/records/${id}/communities`, owner, {
        communities: [{ id: communityId }],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().errors).toBeUndefined();
    }
    // Joining a community is a change of every version (their OAI-PMH sets change); the sorts
    // below are about the times set above.
    for (const [id, times] of recordTimes) await setTimes('records', id, times);
  });
  afterAll(() => t?.close());

  describe('GET /api/records', () => {
    it('shows the latest public versions, newest first, by default', async () => {
      expect(await found('/api/records')).toEqual({
        names: ['glacierV2', 'lake', 'sediment', 'ocean'],
        total: 4,
      });
      // The owner and administrators also see the restricted record.
      expect(await names('/api/records', owner)).toEqual([
        'glacierV2',
        'lake',
        'hidden',
        'sediment',
        'ocean',
      ]);
      expect(await names('/api/records', admin)).toHaveLength(5);
    });

    it('filters by access_status, one value or several, as each record computes it', async () => {
      for (const [status, expected] of [
        ['open', ['glacierV2']],
        ['metadata-only', ['ocean']],
        ['restricted', ['sediment']],
        ['embargoed', ['lake']],
      ] as const) {
        expect(await names(`/api/records?access_status=${status}`), status).toEqual(expected);
      }
      // A value no record can have is a mistake to say, not an empty page.
      const res = await requestAs(t, 'GET', '/api/records?access_status=nonsense');
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].field).toBe('access_status');
      expect(await names('/api/records?access_status=restricted', owner)).toEqual([
        'hidden',
        'sediment',
      ]);
      expect(await names('/api/records?access_status=open&access_status=embargoed')).toEqual([
        'glacierV2',
        'lake',
      ]);
      for (const record of (await requestAs(t, 'GET', '/api/records', owner)).json().hits
        .hits as Array<{ id: string; access: { status: string } }>) {
        const filtered = await names(`/api/records?access_status=${record.access.status}`, owner);
        expect(filtered).toContain(nameOf(record.id));
      }
    });

    it('filters by resource_type, one value or several', async () => {
      expect(await names('/api/records?resource_type=dataset')).toEqual(['glacierV2', 'sediment']);
      expect(await names('/api/records?resource_type=software')).toEqual(['ocean']);
      expect(await names('/api/records?resource_type=image&resource_type=software')).toEqual([
        'lake',
        'ocean',
      ]);
      expect(await names('/api/records?resource_type=video')).toEqual([]);
      const aggregation = (await requestAs(t, 'GET', '/api/records')).json().aggregations
        .resource_type.buckets as Array<{ key: string; doc_count: number }>;
      expect(Object.fromEntries(aggregation.map((b) => [b.key, b.doc_count]))).toEqual({
        dataset: 2,
        software: 1,
        image: 1,
      });
    });

    it('includes every version with allversions', async () => {
      expect(await names('/api/records?allversions=true')).toEqual([
        'glacierV2',
        'lake',
        'sediment',
        'ocean',
        'glacierV1',
      ]);
      expect(await names('/api/records?allversions=false')).toHaveLength(4);
      expect(await names('/api/records?allversions=true&access_status=open')).toEqual([
        'glacierV2',
        'glacierV1',
      ]);
    });

    it('sorts by newest, oldest, version, bestmatch, mostviewed and mostdownloaded', async () => {
      const newest = ['glacierV2', 'lake', 'sediment', 'ocean'];
      expect(await names('/api/records?sort=newest')).toEqual(newest);
      expect(await names('/api/records?sort=oldest')).toEqual([...newest].reverse());
      // Views and downloads are not counted yet: those sorts keep the newest first.
      expect(await names('/api/records?sort=mostviewed')).toEqual(newest);
      expect(await names('/api/records?sort=mostdownloaded')).toEqual(newest);
      const byVersion = await names('/api/records?sort=version&allversions=true');
      expect(byVersion[0]).toBe('glacierV2');
      expect(byVersion).toHaveLength(5);
      // Best match: the record named for the word before the one mentioning it once.
      expect(await names('/api/records?q=glacier')).toEqual(['glacierV2', 'ocean']);
      expect(await names('/api/records?q=glacier&sort=bestmatch')).toEqual(['glacierV2', 'ocean']);
      expect(await names('/api/records?q=glacier&sort=oldest')).toEqual(['ocean', 'glacierV2']);
      // Without a query, bestmatch is newest.
      expect(await names('/api/records?sort=bestmatch')).toEqual(newest);
      expectValidationFailed(await requestAs(t, 'GET', '/api/records?sort=title'), [
        { field: 'sort', messages: ["Invalid sort option 'title'."] },
      ]);
    });

    it('matches words, and word prefixes written with *, combined with the filters', async () => {
      // A word is a whole word, as InvenioRDM's query syntax reads it; glac* asks for a prefix.
      expect(await names('/api/records?q=glac')).toEqual([]);
      expect(await names('/api/records?q=glac*')).toEqual(['glacierV2', 'ocean']);
      expect(await names('/api/records?q=glac*&resource_type=software')).toEqual(['ocean']);
      expect(await names('/api/records?q=glac*&access_status=open')).toEqual(['glacierV2']);
      expect(await names('/api/records?q=survey')).toEqual([]);
      expect(await names('/api/records?q=survey', owner)).toEqual(['hidden']);
    });

    it('pages with page and size, and links the neighbours', async () => {
      const res = await requestAs(t, 'GET', '/api/records?size=2&page=2');
      const body = res.json();
      expect(body.hits.hits.map((h: { id: string }) => nameOf(h.id))).toEqual([
        'sediment',
        'ocean',
      ]);
      expect(body.hits.total).toBe(4);
      expect(body.links.prev).toContain('page=1');
      expect(body.links.next).toBeUndefined();
      expect(await names('/api/records?size=3&page=2')).toEqual(['ocean']);
      expect(await names('/api/records?size=2&page=3')).toEqual([]);
    });
  });

  describe('GET /api/communities/{id}/records', () => {
    const url = () => `/api/communities/${communityId}/records`;

    it('applies the same filters and sorts within the community', async () => {
      expect(await found(url())).toEqual({ names: ['glacierV2', 'lake', 'sediment'], total: 3 });
      expect(await names(`${url()}?access_status=restricted`)).toEqual(['sediment']);
      expect(await names(`${url()}?access_status=embargoed`)).toEqual(['lake']);
      expect(await names(`${url()}?resource_type=dataset`)).toEqual(['glacierV2', 'sediment']);
      expect(await names(`${url()}?sort=oldest`)).toEqual(['sediment', 'lake', 'glacierV2']);
      expect(await names(`${url()}?q=glacier`)).toEqual(['glacierV2']);
      // Every version of a record is in its communities.
      expect(await names(`${url()}?allversions=true`)).toEqual([
        'glacierV2',
        'lake',
        'sediment',
        'glacierV1',
      ]);
      expect(await names(`${url()}?size=1&page=2`)).toEqual(['lake']);
    });
  });

  describe('GET /api/user/records', () => {
    const url = '/api/user/records';

    it('lists drafts and records, an edited record as its draft, with is_published', async () => {
      // updated-desc by default: the edit of "ocean" (hour 12), the new draft (11), then records.
      expect(await found(url, owner)).toEqual({
        names: ['ocean', 'notes', 'glacierV2', 'lake', 'hidden', 'sediment'],
        total: 6,
      });
      expect(await names(`${url}?is_published=true`, owner)).toEqual([
        'ocean',
        'glacierV2',
        'lake',
        'hidden',
        'sediment',
      ]);
      expect(await names(`${url}?is_published=false`, owner)).toEqual(['notes']);
      const facets = (await requestAs(t, 'GET', url, owner)).json().aggregations;
      expect(facets.is_published.buckets).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ key: 'true', doc_count: 5 }),
          expect.objectContaining({ key: 'false', doc_count: 1 }),
        ]),
      );
    });

    it('sorts by updated-desc, updated-asc, newest, oldest, version and bestmatch', async () => {
      expect(await names(`${url}?sort=updated-asc`, owner)).toEqual([
        'sediment',
        'hidden',
        'lake',
        'glacierV2',
        'notes',
        'ocean',
      ]);
      expect(await names(`${url}?sort=newest`, owner)).toEqual([
        'notes',
        'glacierV2',
        'lake',
        'hidden',
        'sediment',
        'ocean',
      ]);
      expect(await names(`${url}?sort=oldest`, owner)).toEqual([
        'ocean',
        'sediment',
        'hidden',
        'lake',
        'glacierV2',
        'notes',
      ]);
      expect((await names(`${url}?sort=version`, owner))[0]).toBe('glacierV2');
      expect(await names(`${url}?q=glacier`, owner)).toEqual(['ocean', 'glacierV2']);
      expect(await names(`${url}?q=glacier&sort=bestmatch`, owner)).toEqual(['ocean', 'glacierV2']);
      expect(await names(`${url}?q=sediment&is_published=true`, owner)).toEqual(['sediment']);
      expect(await names(`${url}?size=2&page=3`, owner)).toEqual(['hidden', 'sediment']);
    });
  });

  describe('GET /api/records/{id}/versions', () => {
    it('lists the versions, newest version first, and pages them', async () => {
      const url = `/api/records/${ids.glacierV2}/versions`;
      expect(await found(url)).toEqual({ names: ['glacierV2', 'glacierV1'], total: 2 });
      expect(await names(`${url}?sort=version`)).toEqual(['glacierV2', 'glacierV1']);
      expect(await names(`${url}?size=1&page=2`)).toEqual(['glacierV1']);
    });
  });

  // Last: these change the fixtures.
  describe('the access status searched is kept in step with every write that changes access', () => {
    it('follows an edit published with new access, and the embargo sweep', async () => {
      expect(
        (await requestAs(t, 'POST', `/api/records/${ids.sediment}/draft`, owner)).statusCode,
      ).toBe(201);
      const save = await requestAs(t, 'PUT', `/api/records/${ids.sediment}/draft`, owner, {
        metadata: { ...PUBLISHABLE_METADATA, title: 'Sediment cores' },
        access: { record: 'public', files: 'public' },
        files: { enabled: true },
      });
      expect(save.statusCode, save.body).toBe(200);
      await files.publish(ids.sediment);
      expect(await names('/api/records?access_status=restricted')).toEqual([]);
      expect(await names('/api/records?access_status=open')).toContain('sediment');

      // The embargo's day comes: the sweep lifts it, and the record is found as metadata-only.
      const { db } = t.services.database;
      const row = await db
        .selectFrom('records')
        .select('data')
        .where('id', '=', ids.lake)
        .executeTakeFirstOrThrow();
      const data = JSON.parse(typeof row.data === 'string' ? row.data : JSON.stringify(row.data));
      data.access.embargo.until = '2020-01-01';
      await db
        .updateTable('records')
        .set({ embargoUntil: '2020-01-01', data: JSON.stringify(data) })
        .where('id', '=', ids.lake)
        .execute();
      expect(await t.services.recordAccess.liftExpiredEmbargoes()).toBe(1);
      expect(await names('/api/records?access_status=embargoed')).toEqual([]);
      expect(await names('/api/records?access_status=metadata-only')).toEqual(['lake', 'ocean']);
    });
  });
});
