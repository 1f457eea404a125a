import { Group, NativeSelect, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { KeyboardEvent, ReactNode } from 'react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { observeFixedHeight, SCROLL_BOX_STYLE } from '../virtual-box';
import {
  buildFileTree,
  fileCount,
  isFiltering,
  matchingFiles,
  typeOptions,
  visibleRows,
  type TreeFilter,
  type TreeFolder,
  type TreeRow,
} from './file-tree';

/** The scroll box's greatest height; the rows beyond it scroll (and are not rendered). */
export const TREE_MAX_HEIGHT = 480;
/** Rows rendered beyond each edge of the scroll box, so fast scrolling shows no gap. */
const OVERSCAN = 6;
const INDENT_REM = 1.25;
const observeTreeHeight = observeFixedHeight(TREE_MAX_HEIGHT);

export interface TreeFile {
  key: string;
  mimetype?: string | undefined;
}

/**
 * A file table's tree, filter and open folders. The tree is laid out again only when the keys
 * change (not on every progress event of an upload), and the filtered tree when the filter
 * does. Folders start closed; while a filter is on they start open, and what is closed then is
 * forgotten with the filter.
 */
export function useFileTree(files: readonly TreeFile[]) {
  const keys = useStableKeys(files);
  const [filter, setFilter] = useState<TreeFilter>({ text: '' });
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const [closedWhileFiltering, setClosedWhileFiltering] = useState<ReadonlySet<string>>(
    () => new Set(),
  );
  const filtering = isFiltering(filter);
  // Media types change without the keys (an upload's completion brings one): the filter reads
  // them afresh, the layout only when the keys change.
  const tree = useMemo(
    () => (filtering ? buildFileTree(keys, matchingFiles(files, filter)) : buildFileTree(keys)),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `files` matters only through the filter's matches
    [keys, filtering, filter, filtering ? files : null],
  );
  const isOpen = useCallback(
    (path: string) => (filtering ? !closedWhileFiltering.has(path) : open.has(path)),
    [filtering, closedWhileFiltering, open],
  );
  const rows = useMemo(() => visibleRows(tree, isOpen), [tree, isOpen]);
  const toggle = useCallback(
    (folder: TreeFolder, makeOpen: boolean) => {
      const change = (set: ReadonlySet<string>, add: boolean) => {
        const next = new Set(set);
        if (add) next.add(folder.path);
        else next.delete(folder.path);
        return next;
      };
      if (filtering) setClosedWhileFiltering((set) => change(set, !makeOpen));
      else setOpen((set) => change(set, makeOpen));
    },
    [filtering],
  );
  const changeFilter = useCallback((next: TreeFilter) => {
    setFilter(next);
    setClosedWhileFiltering(new Set());
  }, []);
  const types = useMemo(() => typeOptions(files), [files]);
  return { tree, rows, toggle, filter, setFilter: changeFilter, filtering, types };
}

/**
 * The same array as long as the keys are the same, in the same order (a progress event gives a
 * new list of entries with the same keys). Kept in state, adjusted during render when the keys
 * change, as React advises for values derived from the previous render.
 */
function useStableKeys(files: readonly TreeFile[]): readonly string[] {
  const [keys, setKeys] = useState<readonly string[]>(() => files.map((f) => f.key));
  const same = keys.length === files.length && files.every((f, i) => f.key === keys[i]);
  if (same) return keys;
  const next = files.map((f) => f.key);
  setKeys(next);
  return next;
}

/** Name and type filters of a file tree. */
export function FileTreeFilter({
  filter,
  onChange,
  types,
}: {
  filter: TreeFilter;
  onChange: (filter: TreeFilter) => void;
  types: ReturnType<typeof typeOptions>;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <TextInput
        label={t('fileTree.filterName')}
        type="search"
        size="sm"
        value={filter.text}
        onChange={(event) => onChange({ ...filter, text: event.currentTarget.value })}
        style={{ flex: '1 1 14rem' }}
      />
      <NativeSelect
        label={t('fileTree.filterType')}
        size="sm"
        value={filter.type === undefined ? '*' : `.${filter.type}`}
        onChange={(event) => {
          const value = event.currentTarget.value;
          onChange({ ...filter, type: value === '*' ? undefined : value.slice(1) });
        }}
        data={[
          { value: '*', label: t('fileTree.anyType') },
          ...types.map((type) => ({
            value: `.${type.extension}`,
            label: t(type.mimetype ? 'fileTree.typeOptionMime' : 'fileTree.typeOption', {
              type: type.extension ? `.${type.extension}` : t('fileTree.noExtension'),
              n: type.count,
              mimetype: type.mimetype ?? '',
            }),
          })),
        ]}
      />
    </Group>
  );
}

export interface FileTreeColumn {
  header: ReactNode;
  /** Its CSS grid track, e.g. `minmax(12rem, 1fr)` or `7rem`. */
  width: string;
}

export interface FileTreeTableProps {
  /** The table's accessible name. */
  label: string;
  rows: readonly TreeRow[];
  onToggle: (folder: TreeFolder, open: boolean) => void;
  /** The name column first, then the others. */
  columns: readonly FileTreeColumn[];
  /** A folder row's cells after its name. */
  folderCells: (folder: TreeFolder) => ReactNode[];
  /** A file row's name cell content (its first focusable element is its row's stop). */
  fileName: (row: Extract<TreeRow, { kind: 'file' }>) => ReactNode;
  /** A file row's cells after its name. */
  fileCells: (row: Extract<TreeRow, { kind: 'file' }>) => ReactNode[];
  /** Each row's height in pixels: fixed per row, so nothing is measured. */
  rowHeight: (row: TreeRow) => number;
  /** Shown instead of rows when there are none. */
  empty?: ReactNode;
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), [tabindex="0"]';

/**
 * A file tree as a table whose folder rows are disclosure buttons (Enter and Space open and
 * close them, as any button; Right and Left do too, Left from a file goes to its folder), Up
 * and Down move between rows, Home and End to the first and last. Only the rows in view are
 * rendered (fixed heights, a scroll box of bounded height), so 10,000 files cost what 10 do;
 * the table says how many rows it has so that assistive technology counts them all.
 */
export function FileTreeTable({
  label,
  rows,
  onToggle,
  columns,
  folderCells,
  fileName,
  fileCells,
  rowHeight,
  empty,
}: FileTreeTableProps) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const pendingFocus = useRef<number | null>(null);
  const template = columns.map((c) => c.width).join(' ');
  // The rows' heights are known from their data; the virtualiser reads them at its pace.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => rowHeight(rows[index]!),
    overscan: OVERSCAN,
    observeElementRect: observeTreeHeight,
  });
  // Heights change with the rows (a file that fails gets a line for its error).
  useEffect(() => virtualizer.measure(), [rows, rowHeight, virtualizer]);

  const focusRow = useCallback(
    (index: number) => {
      const target = Math.max(0, Math.min(rows.length - 1, index));
      const element = scrollRef.current?.querySelector<HTMLElement>(`[data-tree-row="${target}"]`);
      const control = element?.querySelector<HTMLElement>(FOCUSABLE);
      if (control) {
        control.focus();
        return;
      }
      // Not rendered yet: scrolled into view first, focused once drawn (the effect below).
      pendingFocus.current = target;
      virtualizer.scrollToIndex(target, { align: 'auto' });
    },
    [rows.length, virtualizer],
  );
  const items = virtualizer.getVirtualItems();
  useEffect(() => {
    const target = pendingFocus.current;
    if (target === null) return;
    const control = scrollRef.current
      ?.querySelector(`[data-tree-row="${target}"]`)
      ?.querySelector<HTMLElement>(FOCUSABLE);
    if (control) {
      pendingFocus.current = null;
      control.focus();
    }
  });

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const element = (event.target as HTMLElement).closest<HTMLElement>('[data-tree-row]');
    if (!element || (event.target as HTMLElement).tagName === 'INPUT') return;
    const index = Number(element.dataset.treeRow);
    const row = rows[index];
    if (!row) return;
    let handled = true;
    switch (event.key) {
      case 'ArrowDown':
        focusRow(index + 1);
        break;
      case 'ArrowUp':
        focusRow(index - 1);
        break;
      case 'Home':
        focusRow(0);
        break;
      case 'End':
        focusRow(rows.length - 1);
        break;
      case 'ArrowRight':
        if (row.kind === 'folder') {
          if (row.open) focusRow(index + 1);
          else onToggle(row.folder, true);
        } else handled = false;
        break;
      case 'ArrowLeft': {
        if (row.kind === 'folder' && row.open) {
          onToggle(row.folder, false);
          break;
        }
        const parent = row.kind === 'folder' ? row.folder.parent : row.parent;
        const at = rows.findIndex((r) => r.kind === 'folder' && r.folder === parent);
        if (at >= 0) focusRow(at);
        else handled = false;
        break;
      }
      default:
        handled = false;
    }
    if (handled) event.preventDefault();
  }

  const rowStyle = { display: 'grid', gridTemplateColumns: template, alignItems: 'center' };
  return (
    <div role="table" aria-label={label} aria-rowcount={rows.length + 1}>
      <div
        role="row"
        aria-rowindex={1}
        style={{
          ...rowStyle,
          borderBottom: '1px solid var(--mantine-color-default-border)',
          paddingBlock: 4,
        }}
      >
        {columns.map((column, i) => (
          <Text key={i} role="columnheader" size="sm" fw={600} px="xs">
            {column.header}
          </Text>
        ))}
      </div>
      {rows.length === 0 ? (
        <Text c="dimmed" size="sm" p="xs">
          {empty}
        </Text>
      ) : (
        <div
          ref={scrollRef}
          onKeyDown={onKeyDown}
          style={{
            ...SCROLL_BOX_STYLE,
            borderTop: 0,
            height: Math.min(virtualizer.getTotalSize(), TREE_MAX_HEIGHT),
          }}
        >
          <div style={{ position: 'relative', height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const row = rows[item.index]!;
              const depth = row.kind === 'folder' ? row.folder.depth : row.depth;
              const cells = row.kind === 'folder' ? folderCells(row.folder) : fileCells(row);
              return (
                <div
                  key={row.kind === 'folder' ? `d:${row.folder.path}` : `f:${row.index}`}
                  role="row"
                  aria-rowindex={item.index + 2}
                  data-tree-row={item.index}
                  style={{
                    ...rowStyle,
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    width: '100%',
                    height: item.size,
                    transform: `translateY(${item.start}px)`,
                    borderBottom: '1px solid var(--mantine-color-default-border)',
                  }}
                >
                  <div
                    role="cell"
                    style={{
                      paddingInlineStart: `calc(${depth * INDENT_REM}rem + var(--mantine-spacing-xs))`,
                      minWidth: 0,
                    }}
                  >
                    {row.kind === 'folder' ? (
                      <div style={{ display: 'flex', gap: 6, alignItems: 'center', minWidth: 0 }}>
                        <UnstyledButton
                          aria-expanded={row.open}
                          aria-label={t('fileTree.folder', { path: row.folder.path })}
                          onClick={() => onToggle(row.folder, !row.open)}
                          style={{ display: 'flex', gap: 6, alignItems: 'center', minWidth: 0 }}
                        >
                          <span aria-hidden style={{ display: 'inline-block', width: '1em' }}>
                            {row.open ? '▾' : '▸'}
                          </span>
                          <Text span fw={500} truncate>
                            {row.folder.name}/
                          </Text>
                        </UnstyledButton>
                        {/* Beside the button, not in it: its name is the folder's path alone. */}
                        <Text span size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                          {t('fileTree.fileCount', { count: fileCount(row.folder) })}
                        </Text>
                      </div>
                    ) : (
                      <div style={{ paddingInlineStart: '1em', minWidth: 0 }}>{fileName(row)}</div>
                    )}
                  </div>
                  {cells.map((cell, i) => (
                    <div key={i} role="cell" style={{ paddingInline: 'var(--mantine-spacing-xs)' }}>
                      {cell}
                    </div>
                  ))}
                </div>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}
