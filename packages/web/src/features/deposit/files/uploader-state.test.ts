import { describe, expect, it } from 'vitest';
import type { FileItem } from './files-api';
import {
  initialUploaderState,
  isUploading,
  uploaderReducer,
  type EntryEvent,
  type UploaderEvent,
  type UploaderState,
} from './uploader-state';

const completed: FileItem = {
  key: 'data.csv',
  size: 12,
  status: 'completed',
  checksum: 'md5:0cc175b9c0f1b6a831c399e269772661',
  links: { self: '/f/data.csv', content: '/f/data.csv/content' },
};
const pending: FileItem = {
  key: 'big.bin',
  size: 99,
  status: 'pending',
  links: { self: '/f/big' },
};

function run(...events: UploaderEvent[]): UploaderState {
  return events.reduce(uploaderReducer, initialUploaderState);
}

describe('uploaderReducer', () => {
  it('shows completed files at 100 % and pending ones as interrupted uploads', () => {
    const state = run({ type: 'loaded', items: [completed, pending] });
    expect(state.entries.map((e) => [e.key, e.status, e.percent, e.interrupted])).toEqual([
      ['data.csv', 'completed', 100, undefined],
      ['big.bin', 'pending', 0, true],
    ]);
    expect(isUploading(state)).toBe(false);
  });

  it("takes many entries' events in one batch as it takes them one by one", () => {
    const added: UploaderEvent = {
      type: 'added',
      files: [
        { key: 'data.csv', size: 12 },
        { key: 'big.bin', size: 99 },
        { key: 'Cafe\u0301.txt', size: 3 },
      ],
    };
    const events: EntryEvent[] = [
      { type: 'created', key: 'big.bin', item: pending },
      { type: 'progress', key: 'data.csv', percent: 40 },
      { type: 'progress', key: 'big.bin', percent: 10 },
      { type: 'finished', key: 'data.csv', item: completed },
      { type: 'failed', key: 'Café.txt', message: 'Upload failed' },
      { type: 'progress', key: 'gone.csv', percent: 5 },
    ];
    const batched = run(added, { type: 'batch', events });
    expect(batched).toEqual(run(added, ...events));
    expect(batched.entries.map((e) => [e.key, e.status, e.percent])).toEqual([
      ['data.csv', 'completed', 100],
      ['big.bin', 'uploading', 10],
      ['Cafe\u0301.txt', 'failed', 0],
    ]);
  });

  it('goes from pending to uploading with whole percents to completed', () => {
    let state = run({ type: 'added', files: [{ key: 'data.csv', size: 12 }] });
    expect(state.entries[0]?.status).toBe('pending');
    expect(isUploading(state)).toBe(true);
    state = uploaderReducer(state, { type: 'progress', key: 'data.csv', percent: 42 });
    expect(state.entries[0]).toMatchObject({ status: 'uploading', percent: 42 });
    state = uploaderReducer(state, { type: 'finished', key: 'data.csv', item: completed });
    expect(state.entries[0]).toMatchObject({
      status: 'completed',
      percent: 100,
      checksum: completed.checksum,
    });
    expect(isUploading(state)).toBe(false);
  });

  it('keeps the message of a failure and removes a cancelled entry', () => {
    let state = run(
      {
        type: 'added',
        files: [
          { key: 'a', size: 1 },
          { key: 'b', size: 1 },
        ],
      },
      { type: 'failed', key: 'a', message: 'Upload failed' },
      { type: 'removed', key: 'b' },
    );
    expect(state.entries).toEqual([
      { key: 'a', size: 1, status: 'failed', percent: 0, links: {}, error: 'Upload failed' },
    ]);
    state = uploaderReducer(state, { type: 'added', files: [{ key: 'a', size: 2 }] });
    expect(state.entries).toEqual([
      { key: 'a', size: 2, status: 'pending', percent: 0, links: {} },
    ]);
  });

  it('keeps the entries being sent when the server list arrives', () => {
    const state = run(
      { type: 'added', files: [{ key: 'big.bin', size: 99 }] },
      { type: 'progress', key: 'big.bin', percent: 10 },
      { type: 'loaded', items: [completed, pending] },
    );
    expect(state.entries.map((e) => [e.key, e.status])).toEqual([
      ['data.csv', 'completed'],
      ['big.bin', 'uploading'],
    ]);
  });

  it('raises the import flag and replaces the entries with the imported ones', () => {
    let state = run({ type: 'import-started' });
    expect(state.importing).toBe(true);
    state = uploaderReducer(state, { type: 'imported', items: [completed] });
    expect(state).toMatchObject({ importing: false, entries: [{ key: 'data.csv', percent: 100 }] });
    expect(run({ type: 'import-started' }, { type: 'import-failed' }).importing).toBe(false);
  });
});
