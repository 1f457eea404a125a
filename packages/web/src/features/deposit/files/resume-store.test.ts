import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { FileSource } from './file-access';
import { createSourceStore, resumeKey, type SourceRecord } from './resume-store';

/**
 * A handle as IndexedDB gives it back: structured-cloneable data. Chromium's handles clone with
 * their methods; here a plain object stands for one, which is what the store itself sees.
 */
const handleOf = (kind: 'file' | 'directory', name: string) =>
  ({ kind, name }) as unknown as FileSource['handle'];

function record(draftId: string, key: string, size: number, source: FileSource): SourceRecord {
  return { id: resumeKey(draftId, key, size), draftId, key, size, source };
}

describe('createSourceStore', () => {
  it('keeps each file’s handle, or its folder’s and its path, under its resume key, by draft', async () => {
    const store = createSourceStore(new IDBFactory());
    const single = record('d1', 'big.bin', 40, { handle: handleOf('file', 'big.bin'), path: [] });
    const inFolder = record('d1', 'survey/raw/a.csv', 7, {
      handle: handleOf('directory', 'survey'),
      path: ['raw', 'a.csv'],
    });
    const elsewhere = record('d2', 'big.bin', 40, {
      handle: handleOf('file', 'big.bin'),
      path: [],
    });
    await store.put(single);
    await store.put(inFolder);
    await store.put(elsewhere);

    const kept = await store.list('d1');
    expect(kept.map((r) => r.key).sort()).toEqual(['big.bin', 'survey/raw/a.csv']);
    expect(kept.find((r) => r.key === 'survey/raw/a.csv')?.source).toEqual({
      handle: { kind: 'directory', name: 'survey' },
      path: ['raw', 'a.csv'],
    });

    // Put again (a resumed upload keeps its new handle), then forgotten once finished.
    await store.put({ ...single, source: { handle: handleOf('file', 'big.bin'), path: [] } });
    expect(await store.list('d1')).toHaveLength(2);
    await store.remove(single.id);
    expect((await store.list('d1')).map((r) => r.key)).toEqual(['survey/raw/a.csv']);
    expect(await store.list('d2')).toHaveLength(1);
  });

  it('keeps nothing, and fails nothing, where the browser has no IndexedDB', async () => {
    const store = createSourceStore(undefined);
    await store.put(record('d1', 'a.bin', 1, { handle: handleOf('file', 'a.bin'), path: [] }));
    expect(await store.list('d1')).toEqual([]);
  });
});
