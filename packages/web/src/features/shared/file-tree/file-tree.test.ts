import { describe, expect, it } from 'vitest';
import {
  buildFileTree,
  extensionOf,
  fileCount,
  filesUnder,
  isFiltering,
  matchingFiles,
  prefixSums,
  sumOf,
  typeOptions,
  visibleRows,
  type TreeRow,
} from './file-tree';

const FILES = [
  { key: 'README.md', size: 10, mimetype: 'text/markdown' },
  { key: 'raw/2024/station-10.csv', size: 100, mimetype: 'text/csv' },
  { key: 'raw/2024/station-2.csv', size: 200, mimetype: 'text/csv' },
  { key: 'raw/2023/station-1.csv', size: 300 },
  { key: 'raw/notes.txt', size: 1, mimetype: 'text/plain' },
  { key: 'figures/map.PNG', size: 5000, mimetype: 'image/png' },
  { key: 'LICENSE', size: 7 },
];
const keys = FILES.map((f) => f.key);

/** Rows as text: folders as `path/ (count)` with `+`/`-`, files as their keys, indented. */
function describeRows(rows: TreeRow[]): string[] {
  return rows.map((row) =>
    row.kind === 'folder'
      ? `${'  '.repeat(row.folder.depth)}${row.open ? '-' : '+'} ${row.folder.path} (${fileCount(row.folder)})`
      : `${'  '.repeat(row.depth)}${keys[row.index]}`,
  );
}

describe('buildFileTree', () => {
  it('nests files in folders, folders first, names in natural order, with counts', () => {
    const tree = buildFileTree(keys);
    expect(describeRows(visibleRows(tree, () => true))).toEqual([
      '- figures/ (1)',
      '  figures/map.PNG',
      '- raw/ (4)',
      '  - raw/2023/ (1)',
      '    raw/2023/station-1.csv',
      '  - raw/2024/ (2)',
      '    raw/2024/station-2.csv',
      '    raw/2024/station-10.csv',
      '  raw/notes.txt',
      'LICENSE',
      'README.md',
    ]);
    expect(fileCount(tree.root)).toBe(7);
  });

  it('shows a closed folder without its contents', () => {
    const tree = buildFileTree(keys);
    const open = new Set(['raw/']);
    expect(describeRows(visibleRows(tree, (path) => open.has(path)))).toEqual([
      '+ figures/ (1)',
      '- raw/ (4)',
      '  + raw/2023/ (1)',
      '  + raw/2024/ (2)',
      '  raw/notes.txt',
      'LICENSE',
      'README.md',
    ]);
  });

  it('sums sizes and any other per-file quantity over a folder, sub-folders included', () => {
    const tree = buildFileTree(keys);
    const sizes = prefixSums(tree, (i) => FILES[i]!.size);
    expect(sumOf(sizes, tree.folders.get('raw/')!)).toBe(601);
    expect(sumOf(sizes, tree.folders.get('raw/2024/')!)).toBe(300);
    expect(sumOf(sizes, tree.root)).toBe(5618);
    const sent = prefixSums(tree, (i) => (i === 1 ? 50 : 0));
    expect(sumOf(sent, tree.folders.get('raw/')!)).toBe(50);
    expect(sumOf(sent, tree.folders.get('figures/')!)).toBe(0);
  });

  it('names every file under a folder by its position in the list given', () => {
    const tree = buildFileTree(keys);
    expect(filesUnder(tree, tree.folders.get('raw/')!).sort()).toEqual([1, 2, 3, 4]);
    expect(filesUnder(tree, tree.folders.get('raw/2023/')!)).toEqual([3]);
  });

  it('skips empty path segments and tells a file from a folder of the same name', () => {
    const tree = buildFileTree(['a//b.txt', 'a', 'a/c/d.txt']);
    expect(
      visibleRows(tree, () => true).map((r) => (r.kind === 'folder' ? r.folder.path : r.name)),
    ).toEqual(['a/', 'a/c/', 'd.txt', 'b.txt', 'a']);
  });

  it('lays out 10,000 files in 100 folders with the right counts and sizes', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({
      key: `run-${i % 100}/part-${Math.floor(i / 1000)}/file-${i}.bin`,
      size: i,
    }));
    const tree = buildFileTree(many.map((f) => f.key));
    expect(tree.root.folders).toHaveLength(100);
    const sizes = prefixSums(tree, (i) => many[i]!.size);
    const run7 = tree.folders.get('run-7/')!;
    expect(fileCount(run7)).toBe(100);
    expect(sumOf(sizes, run7)).toBe(
      many.filter((f) => f.key.startsWith('run-7/')).reduce((s, f) => s + f.size, 0),
    );
    expect(sumOf(sizes, tree.root)).toBe((9999 * 10_000) / 2);
    // Closed folders cost nothing: only the 100 top folders are rows.
    expect(visibleRows(tree, () => false)).toHaveLength(100);
    expect(visibleRows(tree, (p) => p === 'run-7/')).toHaveLength(100 + 10);
    expect(visibleRows(tree, () => true)).toHaveLength(10_000 + 100 + 1000);
  });
});

describe('filters', () => {
  it('finds a part of the path in any case, folders included', () => {
    expect(matchingFiles(FILES, { text: 'STATION' })).toEqual([1, 2, 3]);
    expect(matchingFiles(FILES, { text: ' 2024/ ' })).toEqual([1, 2]);
    expect(matchingFiles(FILES, { text: 'nothing' })).toEqual([]);
  });

  it('finds a type by extension, in any case, or by media type', () => {
    expect(matchingFiles(FILES, { text: '', type: 'csv' })).toEqual([1, 2, 3]);
    expect(matchingFiles(FILES, { text: '', type: 'png' })).toEqual([5]);
    expect(matchingFiles(FILES, { text: '', type: 'text/plain' })).toEqual([4]);
    expect(matchingFiles(FILES, { text: '', type: '' })).toEqual([6]);
    expect(matchingFiles(FILES, { text: '2023', type: 'csv' })).toEqual([3]);
  });

  it('builds the filtered tree from the matches alone, with their counts', () => {
    const tree = buildFileTree(keys, matchingFiles(FILES, { text: 'station' }));
    expect(describeRows(visibleRows(tree, () => true))).toEqual([
      '- raw/ (3)',
      '  - raw/2023/ (1)',
      '    raw/2023/station-1.csv',
      '  - raw/2024/ (2)',
      '    raw/2024/station-2.csv',
      '    raw/2024/station-10.csv',
    ]);
  });

  it('tells an active filter from an empty one', () => {
    expect(isFiltering({ text: '  ' })).toBe(false);
    expect(isFiltering({ text: 'a' })).toBe(true);
    expect(isFiltering({ text: '', type: '' })).toBe(true);
  });

  it('offers each extension present with its count, and the media type they share', () => {
    expect(typeOptions(FILES)).toEqual([
      { extension: '', count: 1 },
      { extension: 'csv', count: 3 },
      { extension: 'md', count: 1, mimetype: 'text/markdown' },
      { extension: 'png', count: 1, mimetype: 'image/png' },
      { extension: 'txt', count: 1, mimetype: 'text/plain' },
    ]);
    expect(extensionOf('a.b/c')).toBe('');
    expect(extensionOf('.hidden')).toBe('');
    expect(extensionOf('x/archive.tar.GZ')).toBe('gz');
  });
});
