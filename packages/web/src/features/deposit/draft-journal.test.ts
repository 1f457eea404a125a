import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildFormValues } from '../../test/renderInDepositForm';
import { toCreatorEntry } from './creators/creator-entry';
import { createDraftJournal } from './draft-journal';

const ada = {
  person_or_org: {
    type: 'personal' as const,
    family_name: 'Lovelace',
    given_name: 'Ada',
    name: '',
    identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
  },
  role: '',
  affiliations: [{ name: 'Analytical Engine Society' }],
};

function valuesWithCreators() {
  const values = buildFormValues();
  values.metadata.title = 'Gulls';
  values.metadata.creators = [toCreatorEntry(ada), toCreatorEntry({ ...ada, role: 'editor' })];
  values.metadata.contributors = [ada];
  return values;
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** The keys of the records each write puts into IndexedDB. */
function watchPuts() {
  const keys: string[] = [];
  const put = Reflect.get<IDBObjectStore, 'put'>(IDBObjectStore.prototype, 'put');
  vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (
    this: IDBObjectStore,
    value: { key: string },
    key?: IDBValidKey,
  ) {
    keys.push(value.key);
    return Reflect.apply<IDBObjectStore, [unknown, IDBValidKey?], IDBRequest<IDBValidKey>>(
      put,
      this,
      [value, key],
    );
  });
  return keys;
}

describe('the edit journal', () => {
  it('writes the creator lists again only when they changed', async () => {
    const journal = createDraftJournal();
    const values = valuesWithCreators();
    const entry = { key: 'j2', writtenAt: '2026-01-01T00:00:00Z', baseRevision: 3 };
    await journal.write({ ...entry, values });
    const puts = watchPuts();

    // Typing in the title: the 10,000 creators of a large draft are not copied again.
    values.metadata.title = 'Gulls of the Baltic';
    await journal.write({ ...entry, values });
    expect(puts).toEqual(['j2']);

    values.metadata.creators = [...values.metadata.creators, toCreatorEntry(ada)];
    puts.length = 0;
    await journal.write({ ...entry, values });
    expect(puts.filter((key) => key.includes('creators'))).toHaveLength(1);
    expect(puts.filter((key) => key.includes('contributors'))).toHaveLength(0);
    expect((await journal.read('j2'))?.values).toEqual(JSON.parse(JSON.stringify(values)));
  });

  it('holds whole values when two tabs write the same entry in turn', async () => {
    const [tab1, tab2] = [createDraftJournal(), createDraftJournal()];
    const entry = { key: 'j3', writtenAt: '2026-01-01T00:00:00Z', baseRevision: 3 };
    const mine = valuesWithCreators();
    const theirs = valuesWithCreators();
    theirs.metadata.creators = [toCreatorEntry({ ...ada, role: 'other' })];
    await tab1.write({ ...entry, values: mine });
    await tab2.write({ ...entry, values: theirs });
    mine.metadata.title = 'Typed in the first tab after the second wrote';
    await tab1.write({ ...entry, values: mine });

    expect((await tab2.read('j3'))?.values).toEqual(JSON.parse(JSON.stringify(mine)));
    await tab2.remove('j3');
    expect(await tab1.read('j3')).toBeUndefined();
  });

  it('gives back the values it was given, creator entries as plain values', async () => {
    const journal = createDraftJournal();
    const values = valuesWithCreators();
    await journal.write({ key: 'j1', values, writtenAt: '2026-01-01T00:00:00Z', baseRevision: 3 });

    expect(await journal.read('j1')).toEqual({
      key: 'j1',
      values: JSON.parse(JSON.stringify(values)),
      writtenAt: '2026-01-01T00:00:00Z',
      baseRevision: 3,
    });
  });

  it('writes a creator replaced in place in the same list', async () => {
    const journal = createDraftJournal();
    const values = valuesWithCreators();
    const entry = { key: 'j4', writtenAt: '2026-01-01T00:00:00Z', baseRevision: 3 };
    await journal.write({ ...entry, values });
    // As the creators list does on an edit: the same array, another entry at the index.
    values.metadata.creators[1] = toCreatorEntry({ ...ada, role: 'supervisor' });
    await journal.write({ ...entry, values });

    const roles = (await journal.read('j4'))?.values.metadata.creators.map((c) => c.role);
    expect(roles).toEqual(['', 'supervisor']);
  });

  it('still reads entries written as one JSON text by earlier versions', async () => {
    const values = valuesWithCreators();
    const { creators, contributors, ...metadata } = values.metadata;
    const json = JSON.stringify({ creators, contributors, rest: { ...values, metadata } });
    await putRaw({ key: 'old-json', json, writtenAt: 'then', baseRevision: 1 });

    expect((await createDraftJournal().read('old-json'))?.values).toEqual(
      JSON.parse(JSON.stringify(values)),
    );
  });

  it('still reads entries written as values by earlier versions', async () => {
    const values = valuesWithCreators();
    await putRaw({ key: 'old', values, writtenAt: 'then', baseRevision: null });

    expect((await createDraftJournal().read('old'))?.values).toEqual(structuredClone(values));
  });
});

/** Puts `record` into the journal's store as it is, as an earlier version would have. */
function putRaw(record: object) {
  return new Promise<void>((resolve, reject) => {
    const open = indexedDB.open('cairn-deposit', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('journal', { keyPath: 'key' });
    open.onsuccess = () => {
      const put = open.result
        .transaction('journal', 'readwrite')
        .objectStore('journal')
        .put(record);
      put.onsuccess = () => resolve();
      put.onerror = () => reject(put.error ?? new Error('put failed'));
    };
  });
}
