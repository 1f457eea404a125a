import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { buildFormValues } from '../../test/renderInDepositForm';
import { toCreatorEntry } from './creators/creator-entry';
import { createDraftJournal, valuesJson } from './draft-journal';

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

describe('the edit journal', () => {
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

  it('writes JSON that parses to the same text as the values themselves', () => {
    const values = valuesWithCreators();
    const { creators, contributors, rest } = JSON.parse(valuesJson(values)) as {
      creators: unknown;
      contributors: unknown;
      rest: { metadata: object };
    };
    expect({ ...rest, metadata: { ...rest.metadata, creators, contributors } }).toEqual(
      JSON.parse(JSON.stringify(values)),
    );
  });

  it('writes a creator replaced in place in the same list', () => {
    const values = valuesWithCreators();
    expect(valuesJson(values)).toContain('"role":"editor"');
    // As the creators list does on an edit: the same array, another entry at the index.
    values.metadata.creators[1] = toCreatorEntry({ ...ada, role: 'supervisor' });
    const json = valuesJson(values);
    expect(json).toContain('"role":"supervisor"');
    expect(json).not.toContain('"role":"editor"');
  });

  it('still reads entries written as values by earlier versions', async () => {
    const values = valuesWithCreators();
    await new Promise<void>((resolve, reject) => {
      const open = indexedDB.open('cairn-deposit', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('journal', { keyPath: 'key' });
      open.onsuccess = () => {
        const put = open.result
          .transaction('journal', 'readwrite')
          .objectStore('journal')
          .put({ key: 'old', values, writtenAt: 'then', baseRevision: null });
        put.onsuccess = () => resolve();
        put.onerror = () => reject(put.error ?? new Error('put failed'));
      };
    });

    expect((await createDraftJournal().read('old'))?.values).toEqual(structuredClone(values));
  });
});
