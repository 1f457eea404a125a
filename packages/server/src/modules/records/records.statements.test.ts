import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import type { TestApp } from '../../test/app.js';
import {
  createFilesTestApp,
  FilesApi,
  PUBLISHABLE_METADATA,
  type Caller,
} from '../../test/files.js';
import { StatementCounter } from '../../test/statements.js';

// What a draft save (`PUT …/draft` with If-Match) costs the database, counted in statements: each
// is a round trip, and saves are among the commonest writes. Under the parent's lock a save reads
// the draft, writes it with its search vector (PostgreSQL), and rewrites the draft's search terms
// and SQLite's full-text row only when the save changed them; most saves change a text and not
// the terms, an autosave often nothing the search holds. It used to rewrite both every time.

/**
 * Statements per save at most, the caller's token lookup and `begin`/`commit` included: the
 * parent locked, the draft read and locked, the draft written. SQLite sends one more in every
 * transaction (the write that takes its lock at once) and two for its full-text row, when the
 * texts changed.
 */
const BUDGET = { postgres: 6, sqlite: 7 } as const;
const FULL_TEXT_ROW = 2;
const TERMS = 2;

describe.each(ENGINES)('statements of a draft save (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let api: FilesApi;
  let id: string;
  let metadata: Record<string, unknown>;
  const counter = new StatementCounter();

  beforeAll(async () => {
    t = await createFilesTestApp(engine, {}, { observer: counter });
    owner = await t.user();
    api = new FilesApi(t, owner);
    metadata = {
      ...PUBLISHABLE_METADATA,
      languages: [{ id: 'eng' }],
      subjects: [{ subject: 'Glaciology' }],
    };
    id = (await api.createDraft({ metadata })).id;
    await api.upload(id, 'balance.csv', 'a,b\n');
  });
  afterAll(() => t.close());

  /** The statements of one save of the draft with `change` applied to its metadata. */
  async function save(change: Record<string, unknown>): Promise<string[]> {
    metadata = { ...metadata, ...change };
    const revision = (await api.get(`/api/records/${id}/draft`)).json<{ revision_id: number }>()
      .revision_id;
    const { result, statements } = await counter.measure(() =>
      t.request({
        method: 'PUT',
        url: `/api/records/${id}/draft`,
        headers: { ...owner.headers, 'if-match': `"${revision}"` },
        body: { metadata, files: { enabled: true } },
      }),
    );
    expect(result.statusCode, result.body).toBe(200);
    return statements;
  }

  const touching = (statements: string[], table: string) =>
    statements.filter((s) => s.includes(`"${table}"`));

  it('leaves the search terms alone when a save changes only the title', async () => {
    const statements = await save({ title: 'Sediment cores of the Alps' });
    const budget = BUDGET[engine] + (engine === 'sqlite' ? FULL_TEXT_ROW : 0);
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(budget);
    expect(touching(statements, 'draft_terms')).toEqual([]);
  });

  it('writes nothing of the search when a save changes nothing it holds', async () => {
    const statements = await save({});
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(BUDGET[engine]);
    expect(touching(statements, 'draft_terms')).toEqual([]);
    expect(touching(statements, 'drafts_search')).toEqual([]);
    expect(statements.filter((s) => s.includes('search_vector'))).toEqual([]);
  });

  it('rewrites the terms when a save changes them', async () => {
    const statements = await save({ languages: [{ id: 'fra' }] });
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(BUDGET[engine] + TERMS);
    expect(touching(statements, 'draft_terms')).toHaveLength(TERMS);
    expect(touching(statements, 'drafts_search')).toEqual([]);
  });
});
