import { FILES_EMBEDDED_MAX, FILES_LIST_MAX } from '@cairn/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import type { TestApp } from '../../test/app.js';
import { readJson } from '../../database/schema.js';
import {
  createFilesTestApp,
  FilesApi,
  PUBLISHABLE_METADATA,
  type Caller,
} from '../../test/files.js';
import { FilesRepository } from './files.repository.js';
import { entriesOf, summarise, type FilesSummary } from './files.summary.js';

// Issue 20: a draft of thousands of files. Its own JSON leaves the entries out past
// FILES_EMBEDDED_MAX, its summary stays small (a file change reads and writes it whole), the
// listing answers InvenioRDM's unpaginated form up to FILES_LIST_MAX and pages beyond, and the
// counts stay exact under changes at once.

type T = TestApp & { storeRoot: string };
type Listing = {
  entries: Array<{ key: string; status: string; size?: number }>;
  total: number;
  links: Record<string, string>;
};

const key = (i: number) =>
  `raw/${String(Math.floor(i / 100)).padStart(2, '0')}/f${String(i).padStart(4, '0')}.csv`;

describe.each(ENGINES)('a draft of many files (%s)', (engine) => {
  let t: T;
  let owner: Caller;
  let api: FilesApi;
  let repo: FilesRepository;

  beforeAll(async () => {
    t = await createFilesTestApp(engine, {
      CAIRN_FILES_MAX_PER_RECORD: String(FILES_LIST_MAX + 100),
      CAIRN_FILES_MAX_BYTES_PER_RECORD: '10000000',
    });
    owner = await t.user();
    api = new FilesApi(t, owner);
    repo = new FilesRepository(t.services.database.db, engine);
  });
  afterAll(() => t.close());

  async function storedSummary(id: string): Promise<{ text: string; summary: FilesSummary }> {
    const row = await t.services.database.db
      .selectFrom('drafts')
      .select('filesSummary')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const summary = readJson<FilesSummary>(row.filesSummary);
    return { text: JSON.stringify(summary), summary };
  }

  async function list(url: string): Promise<Listing> {
    const res = await api.get(url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Listing>();
  }

  /** Every entry, a page of `size` at a time, following `links.next`. */
  async function listAll(base: string, size: number): Promise<Listing['entries']> {
    const entries: Listing['entries'] = [];
    let url: string | undefined = `${base}?size=${size}`;
    while (url) {
      const page = await list(url.replace(t.config.siteUrl, ''));
      expect(page.entries.length).toBeLessThanOrEqual(size);
      entries.push(...page.entries);
      url = page.links.next;
    }
    return entries;
  }

  /** The stored summary is a count of the bucket, and the draft shows what the listing holds. */
  async function expectCounted(id: string): Promise<FilesSummary> {
    const { summary } = await storedSummary(id);
    expect(summary).toEqual(summarise(await repo.listStored(`draft:${id}`)));
    const listed = await listAll(`/api/records/${id}/draft/files`, 37);
    const files = (await api.draft(id)).files as Record<string, any>;
    expect(files.count).toBe(listed.length);
    const completed = listed.filter((f) => f.status === 'completed');
    expect(files.total_bytes).toBe(completed.reduce((sum, f) => sum + f.size!, 0));
    if (listed.length > FILES_EMBEDDED_MAX) {
      expect(files.entries).toEqual({});
      expect(files.entries_omitted).toBe(true);
    } else {
      expect(Object.keys(files.entries).sort()).toEqual(listed.map((f) => f.key).sort());
      expect(files.entries_omitted).toBeUndefined();
    }
    return summary;
  }

  it('announces 1,001 files in two requests and lists them whole up to 1,000, then a page at a time', async () => {
    const { id } = await api.createDraft();
    const base = `/api/records/${id}/draft/files`;
    const first = await api.init(
      id,
      Array.from({ length: 600 }, (_, i) => ({ key: key(i), size: 10 })),
    );
    expect(first.statusCode, first.body).toBe(201);
    // Up to the listing's limit the answer is every entry, as InvenioRDM's.
    expect(first.json<Listing>().entries).toHaveLength(600);
    expect(first.json<Listing>().total).toBe(600);
    const second = await api.init(
      id,
      Array.from({ length: 401 }, (_, i) => ({ key: key(600 + i), size: 10 })),
    );
    expect(second.statusCode, second.body).toBe(201);
    // Past it, the entries this request announced, and how many the draft holds.
    const announced = second.json<Listing>();
    expect(announced.entries.map((e) => e.key)).toEqual(
      Array.from({ length: 401 }, (_, i) => key(600 + i)),
    );
    expect(announced.total).toBe(FILES_LIST_MAX + 1);
    expect(announced.links.next).toBeUndefined();

    const whole = await list(base);
    expect(whole.entries).toHaveLength(FILES_LIST_MAX);
    expect(whole.total).toBe(FILES_LIST_MAX + 1);
    expect(whole.links.next).toBe(`${t.config.siteUrl}${base}?page=2&size=${FILES_LIST_MAX}`);
    const rest = await list(`${base}?page=2&size=${FILES_LIST_MAX}`);
    expect(rest.entries.map((e) => e.key)).toEqual([key(FILES_LIST_MAX)]);
    expect(rest.links.next).toBeUndefined();
    expect(rest.links.prev).toBe(`${t.config.siteUrl}${base}?page=1&size=${FILES_LIST_MAX}`);

    // Pages in the listing's order (by creation, then key), each entry once.
    const page = await list(`${base}?size=300&page=2`);
    expect(page.entries.map((e) => e.key)).toEqual(
      Array.from({ length: 300 }, (_, i) => key(300 + i)),
    );
    expect(page.links.self).toBe(`${t.config.siteUrl}${base}?page=2&size=300`);
    const all = await listAll(base, 300);
    expect(all.map((e) => e.key)).toEqual(
      Array.from({ length: FILES_LIST_MAX + 1 }, (_, i) => key(i)),
    );
    const past = await list(`${base}?page=9&size=300`);
    expect(past.entries).toEqual([]);
    expect(past.total).toBe(FILES_LIST_MAX + 1);
    expect(past.links.next).toBeUndefined();

    // The draft's JSON and its stored summary hold no entries: as small as a draft of 101.
    const draft = await api.draft(id);
    expect(draft.files).toMatchObject({ count: FILES_LIST_MAX + 1, total_bytes: 0 });
    expect(draft.files.entries).toEqual({});
    expect(draft.files.entries_omitted).toBe(true);
    const { text, summary } = await storedSummary(id);
    expect(summary.entries).toBeUndefined();
    expect(summary).toMatchObject({ pending: FILES_LIST_MAX + 1, types: { csv: 1001 } });
    expect(text.length).toBeLessThan(200);
  });

  it('counts a summary stored with every entry and no types again at its next change', async () => {
    const { id } = await api.createDraft();
    const n = FILES_EMBEDDED_MAX + 20;
    const init = await api.init(
      id,
      Array.from({ length: n }, (_, i) => ({ key: i % 2 ? key(i) : `${key(i)}.txt`, size: 3 })),
    );
    expect(init.statusCode, init.body).toBe(201);
    // As the previous release wrote it: every entry, and no count of types.
    const files = await repo.listStored(`draft:${id}`);
    const { types: _, ...older } = { ...summarise(files), entries: entriesOf(files) };
    await t.services.database.db
      .updateTable('drafts')
      .set({ filesSummary: JSON.stringify(older) })
      .where('id', '=', id)
      .execute();

    expect((await api.init(id, [{ key: 'notes.md', size: 3 }])).statusCode).toBe(201);
    const summary = await expectCounted(id);
    expect(summary.entries).toBeUndefined();
    expect(summary.types).toEqual({ csv: n / 2, txt: n / 2, md: 1 });
    // The search's file types follow the counted summary.
    const { rows: terms } = await sql<{ value: string }>`
      select value from draft_terms where draft_id = ${id} and facet = 'file_type' order by value
    `.execute(t.services.database.db);
    expect(terms.map((r) => r.value)).toEqual(['csv', 'md', 'txt']);
  });

  it('refuses pages and sizes out of range with the contract’s 400', async () => {
    const { id } = await api.createDraft();
    for (const query of [
      'size=0',
      `size=${FILES_LIST_MAX + 1}`,
      'page=0',
      'page=x',
      'size=-3',
      'size=1.5',
    ]) {
      const res = await api.get(`/api/records/${id}/draft/files?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toBeTruthy();
    }
  });

  it('keeps counts and totals exact under uploads, commits and deletes at once past the embedded entries', async () => {
    const { id } = await api.createDraft();
    const n = FILES_EMBEDDED_MAX + 30;
    const init = await api.init(
      id,
      Array.from({ length: n }, (_, i) => ({ key: key(i), size: 5 + (i % 7) })),
    );
    expect(init.statusCode, init.body).toBe(201);
    await expectCounted(id);

    const uploaded = Array.from({ length: 24 }, (_, i) => i * 5);
    const puts = await Promise.all(
      uploaded.map((i) => api.put(id, key(i), 'x'.repeat(5 + (i % 7)))),
    );
    for (const put of puts) expect(put.statusCode, put.body).toBe(200);
    const commits = await Promise.all(uploaded.map((i) => api.commit(id, key(i))));
    for (const commit of commits) expect(commit.statusCode, commit.body).toBe(200);
    expect(await expectCounted(id)).toMatchObject({
      count: n,
      pending: n - uploaded.length,
      total_bytes: uploaded.reduce((sum, i) => sum + 5 + (i % 7), 0),
    });

    // Completed and pending files deleted at once, down past the limit: the entries come back.
    const doomed = Array.from({ length: 40 }, (_, i) => key(i * 3));
    const deletes = await Promise.all(doomed.map((k) => api.delete(id, k)));
    for (const deleted of deletes) expect(deleted.statusCode, deleted.body).toBe(204);
    const summary = await expectCounted(id);
    expect(summary.count).toBe(n - doomed.length);
    expect(summary.entries).toBeDefined();
  });

  it('publishes a draft past the embedded entries, with a default preview, and lists the record’s files in pages', async () => {
    const n = FILES_EMBEDDED_MAX + 1;
    const { id } = await api.createDraft({ metadata: PUBLISHABLE_METADATA });
    expect(
      (
        await api.init(
          id,
          Array.from({ length: n }, (_, i) => ({ key: key(i) })),
        )
      ).statusCode,
    ).toBe(201);
    for (let start = 0; start < n; start += 20) {
      const batch = Array.from({ length: Math.min(20, n - start) }, (_, i) => key(start + i));
      for (const put of await Promise.all(batch.map((k) => api.put(id, k, 'abc'))))
        expect(put.statusCode, put.body).toBe(200);
      for (const commit of await Promise.all(batch.map((k) => api.commit(id, k))))
        expect(commit.statusCode, commit.body).toBe(200);
    }
    // The default preview is looked up in the bucket, the summary no longer holding the names.
    const save = async (preview: string) => {
      const res = await t.request({
        method: 'PUT',
        url: `/api/records/${id}/draft`,
        headers: owner.headers,
        body: {
          metadata: PUBLISHABLE_METADATA,
          files: { enabled: true, default_preview: preview },
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Record<string, any>>();
    };
    expect((await save('raw/00/missing.csv')).errors).toEqual([
      expect.objectContaining({ field: 'files.default_preview' }),
    ]);
    const saved = await save(key(7));
    expect(saved.errors).toBeUndefined();
    expect(saved.files.default_preview).toBe(key(7));

    const record = await api.publish(id);
    expect(record.files).toMatchObject({ count: n, total_bytes: 3 * n, entries_omitted: true });
    expect(record.files.entries).toEqual({});
    const files = await listAll(`/api/records/${id}/files`, 40);
    expect(files.map((f) => f.key)).toEqual(Array.from({ length: n }, (_, i) => key(i)));
    expect(files.every((f) => f.status === 'completed' && f.size === 3)).toBe(true);
    // 303 requests: on a shared machine PostgreSQL needs more than the default 30 s.
  }, 180_000);
});
