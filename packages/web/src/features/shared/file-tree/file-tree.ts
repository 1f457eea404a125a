/*
 * A record's files as a tree of folders, from their keys (relative paths such as
 * `raw/2024/station-1.csv`). Free of React so that it is tested alone; both file tables (the
 * uploader's and the landing page's) draw it through FileTreeTable.
 *
 * The files are laid out once per change in depth-first order (in each folder its sub-folders,
 * then its own files, each by name), so that every folder covers one contiguous range of that
 * order: its count is the range's length, and any per-file quantity (sizes, bytes sent) sums
 * over a folder in constant time from prefix sums taken once per change. Nothing is walked per
 * folder, so 10,000 files cost the same whichever folders are open.
 */

export interface TreeFolder {
  /** The key prefix of its files, ending in `/` (`raw/2024/`); `''` for the root. */
  readonly path: string;
  /** Its own name (`2024`); `''` for the root. */
  readonly name: string;
  /** 0 for the folders at the top; the root is at -1. */
  readonly depth: number;
  readonly parent: TreeFolder | null;
  readonly folders: readonly TreeFolder[];
  /** Its files and those of its sub-folders are `order[start…end)`. */
  readonly start: number;
  /** Its own files (not its sub-folders') are `order[filesStart…end)`. */
  readonly filesStart: number;
  readonly end: number;
}

export interface FileTree {
  readonly root: TreeFolder;
  /** The files' positions in the list the tree was built from, in the tree's order. */
  readonly order: readonly number[];
  /** Each file's own name (its key's last segment), by position in `order`. */
  readonly names: readonly string[];
  readonly folders: ReadonlyMap<string, TreeFolder>;
}

export type TreeRow =
  | { readonly kind: 'folder'; readonly folder: TreeFolder; readonly open: boolean }
  | {
      readonly kind: 'file';
      /** Position in the list the tree was built from. */
      readonly index: number;
      readonly name: string;
      readonly depth: number;
      readonly parent: TreeFolder;
    };

interface Draft {
  name: string;
  path: string;
  folders: Map<string, Draft>;
  files: Array<{ index: number; name: string }>;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
const byName = (a: { name: string }, b: { name: string }) => collator.compare(a.name, b.name);

/**
 * The tree of `keys` (or of those at the positions `only`, for a filtered view): folders from
 * the keys' `/`-separated segments; empty segments are skipped.
 */
export function buildFileTree(keys: readonly string[], only?: readonly number[]): FileTree {
  const top: Draft = { name: '', path: '', folders: new Map(), files: [] };
  const place = (index: number) => {
    const segments = keys[index]!.split('/').filter((s) => s !== '');
    let folder = top;
    for (let i = 0; i < segments.length - 1; i++) {
      const name = segments[i]!;
      let next = folder.folders.get(name);
      if (!next) {
        next = { name, path: `${folder.path}${name}/`, folders: new Map(), files: [] };
        folder.folders.set(name, next);
      }
      folder = next;
    }
    folder.files.push({ index, name: segments[segments.length - 1] ?? keys[index]! });
  };
  if (only) for (const index of only) place(index);
  else for (let index = 0; index < keys.length; index++) place(index);

  const order: number[] = [];
  const names: string[] = [];
  const folders = new Map<string, TreeFolder>();
  const settle = (draft: Draft, depth: number, parent: TreeFolder | null): TreeFolder => {
    const node = {
      path: draft.path,
      name: draft.name,
      depth,
      parent,
      folders: [] as TreeFolder[],
      start: order.length,
      filesStart: 0,
      end: 0,
    };
    for (const sub of [...draft.folders.values()].sort(byName))
      node.folders.push(settle(sub, depth + 1, node));
    node.filesStart = order.length;
    for (const file of draft.files.sort(byName)) {
      order.push(file.index);
      names.push(file.name);
    }
    node.end = order.length;
    folders.set(node.path, node);
    return node;
  };
  const root = settle(top, -1, null);
  return { root, order, names, folders };
}

/** How many files a folder holds, its sub-folders' included. */
export function fileCount(folder: TreeFolder): number {
  return folder.end - folder.start;
}

/**
 * Running totals of a per-file quantity in the tree's order (`valueAt` takes a position in the
 * list the tree was built from), for `sumOf`: one pass per change, then any folder in O(1).
 */
export function prefixSums(tree: FileTree, valueAt: (index: number) => number): Float64Array {
  const sums = new Float64Array(tree.order.length + 1);
  for (let i = 0; i < tree.order.length; i++) sums[i + 1] = sums[i]! + valueAt(tree.order[i]!);
  return sums;
}

/** A folder's total of the quantity `sums` were taken of. */
export function sumOf(sums: Float64Array, folder: TreeFolder): number {
  return sums[folder.end]! - sums[folder.start]!;
}

/** The positions (in the list the tree was built from) of every file under a folder. */
export function filesUnder(tree: FileTree, folder: TreeFolder): number[] {
  return tree.order.slice(folder.start, folder.end);
}

/**
 * The rows to draw: a folder's contents follow it only while `isOpen(path)`; the rest is not
 * visited, so the cost is that of the rows shown.
 */
export function visibleRows(tree: FileTree, isOpen: (path: string) => boolean): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (folder: TreeFolder) => {
    for (const sub of folder.folders) {
      const open = isOpen(sub.path);
      rows.push({ kind: 'folder', folder: sub, open });
      if (open) walk(sub);
    }
    for (let p = folder.filesStart; p < folder.end; p++)
      rows.push({
        kind: 'file',
        index: tree.order[p]!,
        name: tree.names[p]!,
        depth: folder.depth + 1,
        parent: folder,
      });
  };
  walk(tree.root);
  return rows;
}

/** A file's type for the filter: its name's extension in lower case (`csv`), or `''`. */
export function extensionOf(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export interface TypeOption {
  /** The extension, or `''` for files without one. */
  extension: string;
  count: number;
  /** The media type the server gave these files, when they all share one. */
  mimetype?: string;
}

/** The types present among the files, by extension, for the type filter. */
export function typeOptions(
  files: readonly { key: string; mimetype?: string | undefined }[],
): TypeOption[] {
  const found = new Map<string, { count: number; mimetype: string | undefined | null }>();
  for (const file of files) {
    const extension = extensionOf(file.key);
    const seen = found.get(extension);
    const mimetype = file.mimetype || undefined;
    if (!seen) found.set(extension, { count: 1, mimetype });
    else {
      seen.count++;
      // null: files of this extension came with different media types (or some with none).
      if (seen.mimetype !== mimetype) seen.mimetype = null;
    }
  }
  return [...found]
    .map(([extension, { count, mimetype }]) => ({
      extension,
      count,
      ...(mimetype ? { mimetype } : {}),
    }))
    .sort((a, b) => collator.compare(a.extension, b.extension));
}

export interface TreeFilter {
  /** Part of the file's path, in any case; `''` for any. */
  text: string;
  /** An extension (`csv`) or a media type (`text/csv`) the file must have; undefined for any. */
  type?: string | undefined;
}

/** Whether a filter narrows anything. */
export function isFiltering(filter: TreeFilter): boolean {
  return filter.text.trim() !== '' || filter.type !== undefined;
}

/**
 * The positions of the files the filter lets through: the text is looked for in the whole path
 * (so `2024/` finds a folder's files), the type compared with the extension or the media type.
 */
export function matchingFiles(
  files: readonly { key: string; mimetype?: string | undefined }[],
  filter: TreeFilter,
): number[] {
  const text = filter.text.trim().toLowerCase();
  const type = filter.type?.toLowerCase();
  const matches: number[] = [];
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    if (text !== '' && !file.key.toLowerCase().includes(text)) continue;
    if (
      type !== undefined &&
      extensionOf(file.key) !== type &&
      (type === '' || (file.mimetype ?? '').toLowerCase() !== type)
    )
      continue;
    matches.push(i);
  }
  return matches;
}
