import { describe, expect, it } from 'vitest';
import { checkSelection, type SelectionRules } from './selection-checks';
import type { FileEntry } from './uploader-state';

const MiB = 1024 ** 2;
const RULES: SelectionRules = {
  quota: { maxFiles: 3, maxStorage: 10 * MiB },
  allowEmptyFiles: true,
  enabledTransferTypes: ['L', 'M'],
};
/** Room for a file larger than one 16 MiB part. */
const ROOMY: SelectionRules = { ...RULES, quota: { maxFiles: 3, maxStorage: 100 * MiB } };

function file(name: string, size: number): File {
  return new File([new Uint8Array(size)], name);
}

function entry(key: string, size: number, overrides: Partial<FileEntry> = {}): FileEntry {
  return { key, size, status: 'completed', percent: 100, links: {}, ...overrides };
}

describe('checkSelection', () => {
  it('accepts files within the quota, multipart for those larger than one chunk', () => {
    const outcome = checkSelection([], [file('a.csv', 10), file('b.bin', 17 * MiB)], ROOMY);
    expect(outcome.warnings).toEqual([]);
    expect(outcome.accepted.map((a) => [a.file.name, a.plan])).toEqual([
      ['a.csv', { type: 'L' }],
      ['b.bin', { type: 'M', parts: 2, partSize: 16 * MiB }],
    ]);
  });

  it('refuses the whole selection when the number of files would exceed the quota', () => {
    const outcome = checkSelection(
      [entry('x', 1), entry('y', 1)],
      [file('a', 1), file('b', 1)],
      RULES,
    );
    expect(outcome).toEqual({
      accepted: [],
      warnings: [{ kind: 'too-many-files', count: 4, max: 3 }],
    });
  });

  it('refuses the whole selection when the storage would exceed the quota', () => {
    const outcome = checkSelection([entry('x', 6 * MiB)], [file('a', 5 * MiB)], RULES);
    expect(outcome).toEqual({
      accepted: [],
      warnings: [{ kind: 'storage-exceeded', total: 11 * MiB, limit: 10 * MiB }],
    });
  });

  it('skips files already present by their NFC name, and repeats within the selection', () => {
    const outcome = checkSelection(
      [entry('Caf\u00e9.txt', 1)],
      [file('Cafe\u0301.txt', 1), file('new.txt', 1), file('new.txt', 2)],
      { ...RULES, quota: { maxFiles: 5, maxStorage: 10 * MiB } },
    );
    expect(outcome.accepted.map((a) => a.file.name)).toEqual(['new.txt']);
    expect(outcome.warnings).toEqual([
      { kind: 'duplicates', names: ['Cafe\u0301.txt', 'new.txt'] },
    ]);
  });

  it('lets a failed or interrupted file of the same name be replaced', () => {
    const failed = entry('a.csv', 5, { status: 'failed' });
    const interrupted = entry('b.csv', 5, { status: 'pending', interrupted: true });
    const outcome = checkSelection(
      [failed, interrupted, entry('c', 1)],
      [file('a.csv', 5), file('b.csv', 5)],
      RULES,
    );
    expect(outcome.warnings).toEqual([]);
    expect(outcome.accepted.map((a) => a.replaces)).toEqual([failed, interrupted]);
  });

  it('skips empty files only when empty files are not allowed', () => {
    expect(checkSelection([], [file('empty', 0)], RULES).accepted).toHaveLength(1);
    const outcome = checkSelection([], [file('empty', 0), file('full', 1)], {
      ...RULES,
      allowEmptyFiles: false,
    });
    expect(outcome.accepted.map((a) => a.file.name)).toEqual(['full']);
    expect(outcome.warnings).toEqual([{ kind: 'empty-skipped', names: ['empty'] }]);
  });

  it('rejects a file whose transfer type is not enabled', () => {
    const outcome = checkSelection([], [file('small', 1), file('big', 17 * MiB)], {
      ...ROOMY,
      enabledTransferTypes: ['M'],
    });
    expect(outcome.accepted.map((a) => a.file.name)).toEqual(['big']);
    expect(outcome.warnings).toEqual([
      { kind: 'unsupported-transfer', files: [{ name: 'small', type: 'L' }] },
    ]);
  });

  it('sends a large file in one request when multipart is not enabled', () => {
    const outcome = checkSelection([], [file('big', 17 * MiB)], {
      ...ROOMY,
      enabledTransferTypes: ['L'],
    });
    expect(outcome.accepted[0]?.plan).toEqual({ type: 'L' });
  });

  it('keys files by their path in a chosen or dropped folder, and refuses the same path twice', () => {
    const inFolder = (path: string, via: 'webkitRelativePath' | 'relativePath') => {
      const f = file(path.split('/').pop()!, 10);
      Object.defineProperty(f, via, { value: path });
      return f;
    };
    const chosen = inFolder('survey/raw/a.csv', 'webkitRelativePath');
    const dropped = inFolder('./survey/raw/b.csv', 'relativePath');
    const again = inFolder('/survey/raw/a.csv', 'relativePath');
    const outcome = checkSelection([], [chosen, dropped, again, file('c.csv', 10)], {
      ...ROOMY,
      quota: { maxFiles: 10, maxStorage: 100 * MiB },
    });
    expect(outcome.accepted.map((a) => a.key)).toEqual([
      'survey/raw/a.csv',
      'survey/raw/b.csv',
      'c.csv',
    ]);
    expect(outcome.warnings).toEqual([{ kind: 'duplicates', names: ['survey/raw/a.csv'] }]);
  });

  it('warns of names that differ only in case, and uploads both', () => {
    const existing = [entry('Counts.csv', 10)];
    const outcome = checkSelection(existing, [file('counts.csv', 10), file('notes.txt', 10)], {
      ...ROOMY,
      quota: { maxFiles: 10, maxStorage: 100 * MiB },
    });
    expect(outcome.accepted.map((a) => a.key)).toEqual(['counts.csv', 'notes.txt']);
    expect(outcome.warnings).toEqual([
      { kind: 'case-collision', pairs: [['Counts.csv', 'counts.csv']] },
    ]);
  });
});
