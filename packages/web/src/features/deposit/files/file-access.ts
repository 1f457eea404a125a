/*
 * Files chosen through the File System Access API (Chromium's file and folder pickers, and
 * dropped items), whose handles can be kept in IndexedDB and read again after a reload or a
 * restart: an interrupted upload then resumes with one click instead of a search for the file.
 * Elsewhere files come from a plain file input, which leaves nothing to read again.
 */

/** Where a chosen file can be read again: its own handle, or the folder's and its path there. */
export interface FileSource {
  handle: FileSystemFileHandle | FileSystemDirectoryHandle;
  /** The file's path below a folder handle, one name a segment; empty for a file handle. */
  path: string[];
}

type PermissionMode = { mode: 'read' };

/** The parts of a handle the API's draft adds to the DOM's types (Chromium has them). */
interface PermissionHandle {
  queryPermission?: (options: PermissionMode) => Promise<PermissionState>;
  requestPermission?: (options: PermissionMode) => Promise<PermissionState>;
}

interface Pickers {
  showOpenFilePicker?: (options: { multiple: boolean }) => Promise<FileSystemFileHandle[]>;
  showDirectoryPicker?: (options: { mode: 'read' }) => Promise<FileSystemDirectoryHandle>;
}

const sources = new WeakMap<File, FileSource>();

/** The handle a file was read from, when it came through the File System Access API. */
export function sourceOf(file: File): FileSource | undefined {
  return sources.get(file);
}

/** True where the browser has the pickers that give handles (Chromium on a secure origin). */
export function canPickHandles(): boolean {
  const pickers = window as Pickers;
  return (
    typeof pickers.showOpenFilePicker === 'function' &&
    typeof pickers.showDirectoryPicker === 'function'
  );
}

/** The person closed the picker: nothing was chosen. */
function isCancel(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** A file read from a folder handle, keyed by its path as a folder input would key it. */
function withRelativePath(file: File, relativePath: string): File {
  // file-selector names dropped files' paths `relativePath`; uploadKey reads it.
  Object.defineProperty(file, 'relativePath', { value: relativePath });
  return file;
}

async function readSource(source: FileSource, rootName: string): Promise<File> {
  if (source.handle.kind === 'file') {
    const file = await source.handle.getFile();
    sources.set(file, source);
    return file;
  }
  let folder = source.handle;
  const names = [...source.path];
  const name = names.pop();
  if (name === undefined) throw new DOMException('No file in the folder.', 'NotFoundError');
  for (const segment of names) folder = await folder.getDirectoryHandle(segment);
  const file = withRelativePath(
    await (await folder.getFileHandle(name)).getFile(),
    [rootName, ...source.path].join('/'),
  );
  sources.set(file, source);
  return file;
}

/** Every file below a folder handle, with its path inside it. */
async function filesBelow(
  root: FileSystemDirectoryHandle,
  folder: FileSystemDirectoryHandle = root,
  path: string[] = [],
): Promise<File[]> {
  const files: File[] = [];
  for await (const entry of folder.values()) {
    const entryPath = [...path, entry.name];
    if (entry.kind === 'directory') files.push(...(await filesBelow(root, entry, entryPath)));
    else files.push(await readSource({ handle: root, path: entryPath }, root.name));
  }
  return files;
}

/** The file picker's files, each remembered with its handle; an empty list when cancelled. */
export async function pickFiles(): Promise<File[]> {
  try {
    const handles = await (window as Pickers).showOpenFilePicker!({ multiple: true });
    return await Promise.all(handles.map((handle) => readSource({ handle, path: [] }, '')));
  } catch (error) {
    if (isCancel(error)) return [];
    throw error;
  }
}

/** Every file of the folder picked, keyed by its path as the folder input keys it. */
export async function pickFolder(): Promise<File[]> {
  try {
    const root = await (window as Pickers).showDirectoryPicker!({ mode: 'read' });
    return await filesBelow(root);
  } catch (error) {
    if (isCancel(error)) return [];
    throw error;
  }
}

/**
 * Handles of dropped items, asked for while the drop event runs (its items are gone after it).
 * Resolves to the files they hold, each remembered with its handle, or to nothing where the
 * browser has no handles for drops.
 */
export function droppedFiles(transfer: DataTransfer | null): Promise<File[]> | undefined {
  const items = [...(transfer?.items ?? [])].filter((item) => item.kind === 'file');
  type WithHandle = DataTransferItem & {
    getAsFileSystemHandle?: () => Promise<FileSystemHandle | null>;
  };
  if (items.length === 0 || !items.every((item) => (item as WithHandle).getAsFileSystemHandle))
    return undefined;
  const handles = items.map((item) => (item as WithHandle).getAsFileSystemHandle!());
  return (async () => {
    const files: File[] = [];
    for (const handle of await Promise.all(handles)) {
      if (handle?.kind === 'file')
        files.push(await readSource({ handle: handle as FileSystemFileHandle, path: [] }, ''));
      else if (handle?.kind === 'directory') {
        const folder = handle as FileSystemDirectoryHandle;
        files.push(...(await filesBelow(folder)));
      }
    }
    return files;
  })();
}

/**
 * Reads kept sources again. The browser asks once per distinct file or folder handle (the first
 * request rides on the click that started it); a source whose permission is refused, or whose
 * file is gone, comes back as an error.
 */
export async function reopenSources<T extends { source: FileSource }>(
  wanted: readonly T[],
): Promise<Array<{ wanted: T; file?: File; error?: unknown }>> {
  const roots: Array<{ handle: FileSource['handle']; granted: Promise<boolean> }> = [];
  async function granted(handle: FileSource['handle']): Promise<boolean> {
    for (const root of roots) if (await root.handle.isSameEntry(handle)) return root.granted;
    const asking = askRead(handle);
    roots.push({ handle, granted: asking });
    return asking;
  }
  const results: Array<{ wanted: T; file?: File; error?: unknown }> = [];
  for (const item of wanted) {
    try {
      if (!(await granted(item.source.handle)))
        throw new DOMException('Permission to read the file was refused.', 'NotAllowedError');
      results.push({ wanted: item, file: await readSource(item.source, item.source.handle.name) });
    } catch (error) {
      results.push({ wanted: item, error });
    }
  }
  return results;
}

async function askRead(handle: FileSource['handle']): Promise<boolean> {
  const withPermission = handle as FileSource['handle'] & PermissionHandle;
  const mode: PermissionMode = { mode: 'read' };
  if ((await withPermission.queryPermission?.(mode)) === 'granted') return true;
  if (!withPermission.requestPermission) return true;
  return (await withPermission.requestPermission(mode)) === 'granted';
}
