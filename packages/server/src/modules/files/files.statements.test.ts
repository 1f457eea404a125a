import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import type { TestApp } from '../../test/app.js';
import { createFilesTestApp, FilesApi, type Caller } from '../../test/files.js';
import { StatementCounter, type Cost } from '../../test/statements.js';

// What a file request costs the database, counted in statements (each a round trip) and in rows
// returned. A file change reads the draft's files summary under the draft's lock and changes
// what that one file contributes, so its cost must not depend on how many files the draft holds:
// it used to list the whole bucket two or three times per request.

const REQUESTS = ['init', 'content', 'commit', 'metadata', 'item', 'delete', 'list'] as const;
type Request = (typeof REQUESTS)[number];

/** Requests whose answer is every entry of the draft (InvenioRDM's init answers so too). */
const LISTING: ReadonlySet<Request> = new Set(['init', 'list']);

/**
 * Statements per request at most: the files summary patched in the transaction, the owner's
 * quota read with the draft, RETURNING instead of a read after a write, and the route's own
 * lookup of the file handed to the service. SQLite sends one more in every transaction, the
 * write that takes its lock at once. The file measured is the draft's first of its type, so its
 * init and delete also add and remove that type among the draft's search terms.
 */
const BUDGET: Record<Request, number> = {
  init: 9,
  content: 9,
  commit: 10,
  metadata: 8,
  item: 3,
  delete: 10,
  list: 3,
};
const TRANSACTIONAL: ReadonlySet<Request> = new Set([
  'init',
  'content',
  'commit',
  'metadata',
  'delete',
]);

describe.each(ENGINES)('statements per file request (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let api: FilesApi;
  const counter = new StatementCounter();

  beforeAll(async () => {
    t = await createFilesTestApp(
      engine,
      { CAIRN_FILES_MAX_PER_RECORD: '1000' },
      { observer: counter },
    );
    owner = await t.user();
    api = new FilesApi(t, owner);
  });
  afterAll(() => t.close());

  /** A draft holding `n` committed files. */
  async function draftWith(n: number): Promise<string> {
    const { id } = await api.createDraft();
    const keys = Array.from({ length: n }, (_, i) => `data/${String(i).padStart(4, '0')}.csv`);
    await api.uploadAll(id, keys);
    return id;
  }

  /** One more file's life in the draft, each request measured alone. */
  async function costs(id: string): Promise<Record<Request, Cost>> {
    const measured = {} as Record<Request, Cost>;
    const measure = async (
      request: Request,
      send: () => PromiseLike<{ statusCode: number; body: string }>,
    ) => {
      const { result, ...cost } = await counter.measure(async () => await send());
      expect(result.statusCode, result.body).toBeLessThan(300);
      measured[request] = cost;
    };
    const file = `/api/records/${id}/draft/files/new.txt`;
    await measure('init', () => api.init(id, [{ key: 'new.txt', metadata: { a: 1 } }]));
    await measure('content', () => api.put(id, 'new.txt', 'one more file'));
    await measure('commit', () => api.commit(id, 'new.txt'));
    await measure('metadata', () =>
      t.request({ method: 'PUT', url: file, headers: owner.headers, body: { metadata: { a: 2 } } }),
    );
    await measure('item', () => api.get(file));
    await measure('delete', () => api.delete(id, 'new.txt'));
    await measure('list', () => api.get(`/api/records/${id}/draft/files`));
    return measured;
  }

  it('costs the same statements and rows for one more file in a draft of 20 files or of 200', async () => {
    const small = await costs(await draftWith(20));
    const large = await costs(await draftWith(200));
    for (const request of REQUESTS) {
      expect(large[request].statements, request).toEqual(small[request].statements);
      // Only the answers that list every entry read more rows: one per file.
      const listed = LISTING.has(request) ? 180 : 0;
      expect(large[request].rows - listed, request).toBe(small[request].rows);
    }
  }, 300_000);

  it('keeps every file request within its budget of statements', async () => {
    const cost = await costs(await draftWith(3));
    for (const request of REQUESTS) {
      const budget = BUDGET[request] + (engine === 'sqlite' && TRANSACTIONAL.has(request) ? 1 : 0);
      expect(
        cost[request].statements.length,
        cost[request].statements.join('\n'),
      ).toBeLessThanOrEqual(budget);
    }
  });
});
