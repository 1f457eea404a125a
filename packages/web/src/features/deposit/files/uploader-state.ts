import type { FileItem } from './files-api';

/** File states: pending → uploading (percent) → completed, or failed; removed on cancel. */
export type EntryStatus = 'pending' | 'uploading' | 'completed' | 'failed';

export interface FileEntry {
  key: string;
  size: number;
  status: EntryStatus;
  /** Whole percent. */
  percent: number;
  checksum?: string;
  mimetype?: string;
  links: FileItem['links'];
  /** The failure as the person reads it. */
  error?: string;
  /** A pending entry found on the server, not being sent by this page: an interrupted upload. */
  interrupted?: boolean;
  /** Bytes of a multipart upload the server holds whole, once its parts were listed or sent. */
  safeBytes?: number;
  /** An interrupted upload whose file this browser can read again (a kept handle). */
  reopenable?: boolean;
  /** A delete request is on its way. */
  deleting?: boolean;
}

export interface UploaderState {
  /** In the order files were added; keys are unique by their NFC form. */
  entries: FileEntry[];
  /** The import-in-progress flag. */
  importing: boolean;
}

export type UploaderEvent =
  | { type: 'loaded'; items: FileItem[] }
  | { type: 'added'; files: Array<{ key: string; size: number }> }
  | { type: 'created'; key: string; item: FileItem }
  | { type: 'progress'; key: string; percent: number }
  | { type: 'safe'; key: string; bytes: number }
  | { type: 'reopenable'; keys: string[] }
  | { type: 'finished'; key: string; item: FileItem }
  | { type: 'failed'; key: string; message: string }
  | { type: 'deleting'; key: string }
  | { type: 'delete-failed'; key: string; message: string }
  | { type: 'removed'; key: string }
  | { type: 'import-started' }
  | { type: 'imported'; items: FileItem[] }
  | { type: 'import-failed' }
  | { type: 'batch'; events: EntryEvent[] };

/** What happens to one entry while it is sent: many a second while many files are sent. */
export type EntryEvent = Extract<
  UploaderEvent,
  { type: 'created' | 'progress' | 'safe' | 'finished' | 'failed' }
>;

export const initialUploaderState: UploaderState = { entries: [], importing: false };

/** A file's key as the server compares keys (NFC): for looking entries up by name. */
export function nfcKey(key: string): string {
  return key.normalize('NFC');
}

export function sameKey(a: string, b: string): boolean {
  return nfcKey(a) === nfcKey(b);
}

/** An entry as the server describes it: completed ones at 100 %, others interrupted. */
export function entryFromItem(item: FileItem): FileEntry {
  const completed = item.status === 'completed';
  return {
    key: item.key,
    size: item.size ?? 0,
    status: completed ? 'completed' : item.status === 'failed' ? 'failed' : 'pending',
    percent: completed ? 100 : 0,
    links: item.links,
    ...(item.checksum ? { checksum: item.checksum } : {}),
    ...(item.mimetype ? { mimetype: item.mimetype } : {}),
    ...(completed ? {} : { interrupted: true }),
  };
}

function update(
  state: UploaderState,
  key: string,
  change: (entry: FileEntry) => FileEntry,
): UploaderState {
  return {
    ...state,
    entries: state.entries.map((entry) => (sameKey(entry.key, key) ? change(entry) : entry)),
  };
}

function changeOf(event: EntryEvent): (entry: FileEntry) => FileEntry {
  switch (event.type) {
    case 'created':
      return (e) => ({ ...e, links: event.item.links });
    case 'progress':
      return (e) => {
        const { interrupted: _, error: __, reopenable: ___, ...rest } = e;
        return { ...rest, status: 'uploading', percent: event.percent };
      };
    case 'safe':
      return (e) => ({ ...e, safeBytes: event.bytes });
    case 'finished':
      return (e) => ({ ...entryFromItem(event.item), key: e.key });
    case 'failed':
      // A file that could not be read again is to be chosen again: the row says which.
      return (e) => {
        const { reopenable: _, ...rest } = e;
        return { ...rest, status: 'failed', error: event.message };
      };
  }
}

/**
 * Many entries' events in one pass over the entries, rather than one pass per event: with
 * 10,000 files on their way, that is the difference between a few passes a second and 40,000.
 */
function applyAll(state: UploaderState, events: readonly EntryEvent[]): UploaderState {
  const index = new Map(state.entries.map((entry, i) => [entry.key.normalize('NFC'), i]));
  const entries = [...state.entries];
  for (const event of events) {
    const i = index.get(event.key.normalize('NFC'));
    if (i !== undefined) entries[i] = changeOf(event)(entries[i]!);
  }
  return { ...state, entries };
}

/** The uploader's state machine, free of React and the network so it is tested alone. */
export function uploaderReducer(state: UploaderState, event: UploaderEvent): UploaderState {
  switch (event.type) {
    case 'loaded': {
      // Entries this page is sending stay as they are; the server's view fills in the rest.
      const active = state.entries.filter((e) => !e.interrupted && e.status !== 'completed');
      const loaded = event.items
        .filter((item) => !active.some((e) => sameKey(e.key, item.key)))
        .map(entryFromItem);
      return { ...state, entries: [...loaded, ...active] };
    }
    case 'added': {
      // By NFC name: thousands of files added beside thousands of entries, pair by pair, took seconds.
      const adding = new Set(event.files.map((f) => nfcKey(f.key)));
      const existing = new Map<string, FileEntry>();
      for (const e of state.entries)
        if (!existing.has(nfcKey(e.key))) existing.set(nfcKey(e.key), e);
      const kept = state.entries.filter((e) => !adding.has(nfcKey(e.key)));
      const added = event.files.map((f): FileEntry => {
        // What the server holds of an interrupted upload of the same file stays in view.
        const same = existing.get(nfcKey(f.key));
        const before = same?.size === f.size ? same : undefined;
        return {
          key: f.key,
          size: f.size,
          status: 'pending',
          percent: 0,
          links: {},
          ...(before?.safeBytes === undefined ? {} : { safeBytes: before.safeBytes }),
        };
      });
      return { ...state, entries: [...kept, ...added] };
    }
    case 'created':
    case 'progress':
    case 'safe':
    case 'finished':
    case 'failed':
      return update(state, event.key, changeOf(event));
    case 'reopenable':
      return {
        ...state,
        entries: state.entries.map((e) =>
          e.interrupted && event.keys.some((key) => sameKey(key, e.key))
            ? { ...e, reopenable: true }
            : e,
        ),
      };
    case 'batch':
      return event.events.length === 0 ? state : applyAll(state, event.events);
    case 'deleting':
      return update(state, event.key, (e) => ({ ...e, deleting: true }));
    case 'delete-failed':
      return update(state, event.key, (e) => {
        const { deleting: _, ...rest } = e;
        return { ...rest, error: event.message };
      });
    case 'removed':
      return { ...state, entries: state.entries.filter((e) => !sameKey(e.key, event.key)) };
    case 'import-started':
      return { ...state, importing: true };
    case 'imported':
      return {
        importing: false,
        entries: event.items.map((item) => ({
          ...entryFromItem(item),
          status: 'completed',
          percent: 100,
        })),
      };
    case 'import-failed':
      return { ...state, importing: false };
  }
}

/** Whether this page is sending the file or about to (cancelled, not deleted, to remove it). */
export function isInFlight(entry: FileEntry): boolean {
  return entry.status === 'uploading' || (entry.status === 'pending' && !entry.interrupted);
}

/** True while any entry is uploading or waiting its turn (leaving the page would stop it). */
export function isUploading(state: { entries: readonly FileEntry[] }): boolean {
  return state.entries.some(isInFlight);
}
