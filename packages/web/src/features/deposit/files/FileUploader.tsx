import '@mantine/dropzone/styles.css';
import { Alert, Button, Checkbox, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import {
  DEFAULT_MAX_FILES,
  DEFAULT_MAX_STORAGE,
  DEFAULT_TRANSFER_TYPE,
  RETRY_DELAYS_MS,
  UPLOAD_CONCURRENCY,
  FILES_UPLOAD_BATCH_BYTES,
  FILE_BATCHED_MAX_BYTES,
  type DepositFormValues,
} from '@cairn/shared';
import {
  startTransition,
  useCallback,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import type { RecordJson } from '../../../api/records';
import { useApiClient } from '../../../api/useApiClient';
import { useBootstrap } from '../../../bootstrap';
import { formatBytes } from '../../../lib/format-bytes';
import { reopenSources, sourceOf } from './file-access';
import { FileDropArea } from './FileDropArea';
import {
  deleteFile,
  FileItemSchema,
  FilesListSchema,
  readFilesListing,
  ReceivedPartsSchema,
  type FileItem,
} from './files-api';
import { FileTable } from './FileTable';
import {
  createLocalResumeStore,
  createSourceStore,
  resumeKey,
  type ResumeStore,
  type SourceRecord,
  type SourceStore,
} from './resume-store';
import { ResumeBanner } from './ResumeBanner';
import { checkSelection, type Quota, type SelectionWarning } from './selection-checks';
import { sendBytesWithXhr, UploadRequestError, type SendBytes } from './transport';
import type { UploadEngine } from './upload-contract';
import {
  initialUploaderState,
  isInFlight,
  isUploading,
  sameKey,
  uploaderReducer,
  type EntryEvent,
  type FileEntry,
  type UploaderEvent,
} from './uploader-state';
import { UploadWarnings } from './UploadWarnings';

/** Without progress for this long, a request carrying bytes is abandoned and retried (Uppy's). */
export const UPLOAD_STALL_MS = 30_000;

/** How long the entries' events of files on their way are gathered before they are shown. */
const ENTRY_EVENTS_MS = 250;

export interface FileUploaderProps {
  /** The draft as last saved, or null for a new upload that has not been saved yet. */
  draft: RecordJson | null;
  /**
   * Called before each batch of uploads: resolves with a saved draft whose `files.enabled`
   * matches the form (the core saves first when the draft has no id yet or the toggle changed;
   * a failure is the core's "Draft save failed before file upload" banner, and the batch is
   * dropped).
   */
  ensureDraft: () => Promise<RecordJson>;
  /** Files and bytes per record (by default 5 files, 1e10 bytes). */
  quota?: Quota;
  /** Requests carrying bytes at once, across files (config `fileUploadConcurrency`). */
  concurrency?: number;
  /**
   * Small files sent together, at most this many a request (config `fileUploadBatchFiles`); by
   * default none, each file in a request of its own as InvenioRDM's files API has it.
   */
  batchFiles?: number;
  /** Config `enabled_transfer_types` (default `[DEFAULT_TRANSFER_TYPE]`); `M` enables multipart. */
  enabledTransferTypes?: readonly string[];
  /** Server's `allowEmptyFiles`; when false, empty files are skipped with a warning. */
  allowEmptyFiles?: boolean;
  /** Permission `can_new_version`: without it the new-version button is disabled. */
  canNewVersion?: boolean;
  /** The core's new-version action (shown when files are locked on a published record). */
  onNewVersion?: () => void;
  /** The upload-in-progress flag, for the core's button enablement. */
  onUploadingChange?: (uploading: boolean) => void;
  /** Every change of the entries, for publish enablement (all finished, none missing). */
  onFilesChange?: (entries: readonly FileEntry[]) => void;
  /**
   * The draft's files changed on the server (a file announced, committed, deleted, imported),
   * which raises the draft's revision: the core re-reads it before its next `If-Match` save.
   */
  onFilesSaved?: () => void;
  /** The import failed: the core shows "Files import from the previous version failed…". */
  onImportFailed?: (error: unknown) => void;
  /** Waits before the second, third… attempt of a part (by default 0, 1, 3, 5 s). */
  retryDelaysMs?: readonly number[];
  /** A byte request with no progress for this long is abandoned and tried again. */
  stallMs?: number;
  /** Replaces XMLHttpRequest as the carrier of the bytes (tests, other environments). */
  sendBytes?: SendBytes;
  /** Replaces localStorage as the memory of unfinished multipart uploads. */
  resumeStore?: ResumeStore;
  /** Replaces IndexedDB as the keeper of chosen files' handles (File System Access API). */
  sourceStore?: SourceStore;
}

/**
 * The deposit form's files: metadata-only toggle (`files.enabled`), drop area and "Choose files"
 * button, storage summary, file table with default preview (`files.default_preview`), progress,
 * cancel and delete, import from the previous version, and the lock of published records.
 * Uploads go to Cairn's files API through Uppy (single PUT or multipart with resume); see
 * upload-engine.ts.
 */
export function FileUploader({
  draft,
  ensureDraft,
  quota = { maxFiles: DEFAULT_MAX_FILES, maxStorage: DEFAULT_MAX_STORAGE },
  concurrency = UPLOAD_CONCURRENCY,
  batchFiles = 0,
  enabledTransferTypes = [DEFAULT_TRANSFER_TYPE],
  allowEmptyFiles = true,
  canNewVersion = false,
  onNewVersion,
  onUploadingChange,
  onFilesChange,
  onFilesSaved,
  onImportFailed,
  retryDelaysMs = RETRY_DELAYS_MS,
  stallMs = UPLOAD_STALL_MS,
  sendBytes = sendBytesWithXhr,
  resumeStore,
  sourceStore,
}: FileUploaderProps) {
  const { t, i18n } = useTranslation();
  const client = useApiClient();
  const { config } = useBootstrap();
  const { control, setValue } = useFormContext<DepositFormValues>();
  const enabled = useWatch({ control, name: 'files.enabled' }) ?? true;
  const defaultPreview = useWatch({ control, name: 'files.default_preview' });
  const [state, dispatchNow] = useReducer(uploaderReducer, initialUploaderState);
  // Files on their way report several times each: their events are taken in together, a few
  // times a second, and rendered as a transition that yields to the uploads' own work. One
  // render of the whole list per event made 10,000 files crawl.
  const pendingEvents = useRef<EntryEvent[]>([]);
  const flushTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const flushEvents = () => {
    clearTimeout(flushTimer.current);
    flushTimer.current = undefined;
    if (pendingEvents.current.length === 0) return;
    const events = pendingEvents.current;
    pendingEvents.current = [];
    dispatchNow({ type: 'batch', events });
  };
  /** Any other change comes after the entries' events so far, in order. */
  const dispatch = (event: UploaderEvent) => {
    flushEvents();
    dispatchNow(event);
  };
  const dispatchSoon = (event: EntryEvent) => {
    pendingEvents.current.push(event);
    flushTimer.current ??= setTimeout(() => startTransition(flushEvents), ENTRY_EVENTS_MS);
  };
  useEffect(() => () => clearTimeout(flushTimer.current), []);
  const [warnings, setWarnings] = useState<SelectionWarning[]>([]);
  const [notice, setNotice] = useState('');
  const store = useMemo(() => resumeStore ?? createLocalResumeStore(), [resumeStore]);
  const sources = useMemo(() => sourceStore ?? createSourceStore(), [sourceStore]);
  /** Kept handles of this draft's interrupted uploads, read when the draft was loaded. */
  const [kept, setKept] = useState<SourceRecord[]>([]);
  const [resuming, setResuming] = useState(false);

  // Made on the first upload and kept while the form is open, whatever re-renders bring. Its
  // code (Uppy) is fetched then too: most visits to the form upload nothing.
  const engineRef = useRef<Promise<UploadEngine> | null>(null);
  const engine = () => {
    if (engineRef.current) return engineRef.current;
    const made = import('./upload-engine').then(({ createUploadEngine }) =>
      createUploadEngine({
        api: client,
        sendBytes,
        csrf: { csrfCookieName: config.csrfCookieName, csrfHeaderName: config.csrfHeaderName },
        concurrency,
        retryDelaysMs,
        stallMs,
        resumeStore: store,
        ...(batchFiles > 0
          ? {
              batch: {
                files: batchFiles,
                bytes: FILES_UPLOAD_BATCH_BYTES,
                fileBytes: FILE_BATCHED_MAX_BYTES,
              },
            }
          : {}),
      }),
    );
    // A chunk that could not be fetched (a dropped connection, a new release) is asked for
    // again by the next upload instead of failing every one until the page is reloaded.
    void made.catch(() => {
      if (engineRef.current === made) engineRef.current = null;
    });
    engineRef.current = made;
    return made;
  };

  const locked = draft?.is_published === true;
  const filesLink = draft ? filesLinkOf(draft) : undefined;
  const uploading = isUploading(state);

  /** The draft whose entries were loaded (see the effect below). */
  const loadedId = useRef<string | undefined>(undefined);

  /**
   * For the draft's interrupted uploads: which files this browser can read again (kept handles)
   * and, for those it began (a resume record says they go in parts), what the server holds.
   */
  const inspectInterrupted = useCallback(
    async (draftId: string, items: FileItem[]) => {
      const interrupted = items.filter((item) => item.status !== 'completed' && item.size);
      if (interrupted.length === 0) return;
      const matching = (record: SourceRecord) =>
        interrupted.some((item) => sameKey(item.key, record.key) && item.size === record.size);
      const found = (await sources.list(draftId)).filter(matching);
      if (loadedId.current !== draftId) return;
      setKept(found);
      // Fields of interrupted entries only, which no gathered event touches: no need to flush.
      if (found.length > 0) dispatchNow({ type: 'reopenable', keys: found.map((r) => r.key) });
      for (const item of interrupted) {
        const saved = store.get(resumeKey(draftId, item.key, item.size ?? 0));
        if (!saved) continue;
        try {
          const listing = ReceivedPartsSchema.parse(await client.get(`${saved.self}/parts`));
          const bytes = listing.received.reduce((sum, part) => sum + part.size, 0);
          if (loadedId.current === draftId) dispatchNow({ type: 'safe', key: item.key, bytes });
        } catch {
          // The row then only lacks its figure of bytes held.
        }
      }
    },
    [sources, store, client],
  );

  // The draft's entries as it was loaded, interrupted uploads included; afterwards this page
  // knows better than a save's answer, which may predate an upload that finished meanwhile.
  useEffect(() => {
    if (!draft || !filesLink || loadedId.current === draft.id) return;
    loadedId.current = draft.id;
    const id = draft.id;
    const loaded = (items: FileItem[]) => {
      // Entries' events still gathered apply by key afterwards, to the entries this keeps.
      dispatchNow({ type: 'loaded', items });
      void inspectInterrupted(id, items);
    };
    if (!(draft.files as { entries_omitted?: boolean } | undefined)?.entries_omitted) {
      loaded(itemsOfDraft(draft, filesLink));
      return;
    }
    // Too many files for the draft's JSON to carry: the listing has them, a page at a time.
    readFilesListing(client, filesLink).then(
      (items) => {
        if (loadedId.current === id) loaded(items);
      },
      () => undefined,
    );
  }, [draft, filesLink, client, inspectInterrupted]);

  useEffect(() => onUploadingChange?.(uploading), [uploading, onUploadingChange]);
  useEffect(() => onFilesChange?.(state.entries), [state.entries, onFilesChange]);

  // Leaving during an upload triggers the browser's leave warning.
  useEffect(() => {
    if (!uploading) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [uploading]);

  // Leaving the form stops its uploads; their parts stay on the server for a resume.
  useEffect(
    () => () => {
      void engineRef.current?.then((made) => made.destroy());
      engineRef.current = null;
    },
    [],
  );

  function messageOf(error: unknown): string {
    if (
      (error instanceof UploadRequestError || error instanceof ApiError) &&
      error.hasServerMessage
    )
      return error.message;
    if (error instanceof UploadRequestError) {
      if (error.reason) return t(`uploader.errors.${error.reason}`);
      if (error.kind === 'stalled')
        return t('uploader.errors.uploadStalled', { seconds: error.stalledSeconds ?? 0 });
    } else if (error instanceof Error && !(error instanceof ApiError) && error.message) {
      return error.message;
    }
    return t('uploader.errors.uploadFailed');
  }

  async function handleFiles(files: File[]) {
    if (locked || !enabled || files.length === 0) return;
    const outcome = checkSelection(state.entries, files, {
      quota,
      allowEmptyFiles,
      enabledTransferTypes,
    });
    setWarnings(outcome.warnings);
    setNotice('');
    if (outcome.accepted.length === 0) return;
    dispatch({
      type: 'added',
      files: outcome.accepted.map(({ file, key }) => ({ key, size: file.size })),
    });
    let target: RecordJson;
    try {
      target = await ensureDraft();
    } catch {
      for (const { key } of outcome.accepted) dispatch({ type: 'removed', key });
      return;
    }
    const link = filesLinkOf(target);
    for (const { file, key, plan, replaces } of outcome.accepted) {
      const sourceId = resumeKey(target.id, key, file.size);
      const source = sourceOf(file);
      engine()
        .then((made) =>
          made.upload({
            file,
            key,
            draftId: target.id,
            filesLink: link,
            plan,
            ...(replaces?.links.self ? { existing: replaces } : {}),
            onProgress: (percent) => dispatchSoon({ type: 'progress', key, percent }),
            onCreated: (item) => {
              dispatchSoon({ type: 'created', key, item });
              onFilesSaved?.();
              // Kept beside the resume record, so that an interruption resumes with one click.
              if (plan.type === 'M' && source)
                void sources.put({
                  id: sourceId,
                  draftId: target.id,
                  key,
                  size: file.size,
                  source,
                });
            },
            onSafe: (bytes) => dispatchSoon({ type: 'safe', key, bytes }),
            onResumed: (count) => setNotice(t('uploader.resumed', { count })),
            onDeleted: () => onFilesSaved?.(),
          }),
        )
        .then((item) => {
          dispatchSoon({ type: 'finished', key, item });
          // Only a multipart upload kept its file's handle: a folder of small files would pay an
          // IndexedDB transaction a file for nothing.
          if (plan.type === 'M') void sources.remove(sourceId);
          onFilesSaved?.();
        })
        .catch((error: unknown) => {
          if (error instanceof UploadRequestError && error.kind === 'aborted') return;
          dispatchSoon({ type: 'failed', key, message: messageOf(error) });
        });
    }
  }

  /**
   * The banner's one click: reads every kept file again (the browser asks for permission on
   * the first), and hands those of the very size whose upload was interrupted to the uploads,
   * whose engine checks modification time and fingerprint before sending a byte.
   */
  async function handleResumeAll() {
    const wanted = kept.filter((record) =>
      state.entries.some((e) => e.interrupted && sameKey(e.key, record.key)),
    );
    setResuming(true);
    try {
      const reopened = await reopenSources(wanted);
      const files: File[] = [];
      for (const { wanted: record, file } of reopened) {
        if (file && file.size === record.size) files.push(file);
        else
          dispatch({
            type: 'failed',
            key: record.key,
            message: file ? t('uploader.errors.differentFile') : t('uploader.errors.reopenFailed'),
          });
      }
      setKept([]);
      await handleFiles(files);
    } finally {
      setResuming(false);
    }
  }

  function forget(entry: FileEntry) {
    if (draft) {
      const id = resumeKey(draft.id, entry.key, entry.size);
      store.remove(id);
      void sources.remove(id);
    }
    if (defaultPreview !== undefined && sameKey(defaultPreview, entry.key))
      setValue('files.default_preview', undefined, { shouldDirty: true });
  }

  /** Stops the upload; the engine deletes the pending file it announced. */
  function handleCancel(entry: FileEntry) {
    // Queued behind the engine's code when that is still on its way: after the upload starts.
    void engineRef.current?.then((made) => made.cancel(entry.key));
    dispatch({ type: 'removed', key: entry.key });
    forget(entry);
  }

  async function handleDelete(entry: FileEntry) {
    const self = entry.links.self;
    if (!self) {
      dispatch({ type: 'removed', key: entry.key });
      return;
    }
    dispatch({ type: 'deleting', key: entry.key });
    try {
      await deleteFile(client, self);
      dispatch({ type: 'removed', key: entry.key });
      forget(entry);
      onFilesSaved?.();
    } catch (error) {
      dispatch({
        type: 'delete-failed',
        key: entry.key,
        message:
          error instanceof ApiError && error.hasServerMessage
            ? error.message
            : t('uploader.errors.deleteFailed'),
      });
    }
  }

  /**
   * Every file under a folder: those on their way cancelled, the others deleted through the
   * per-file path, `concurrency` requests at a time (a folder may hold thousands).
   */
  async function handleRemoveFolder(entries: FileEntry[]) {
    const stored: FileEntry[] = [];
    for (const entry of entries) {
      if (isInFlight(entry)) handleCancel(entry);
      else if (!entry.deleting) stored.push(entry);
    }
    let next = 0;
    const worker = async () => {
      while (next < stored.length) await handleDelete(stored[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, stored.length) }, worker));
  }

  async function handleImport() {
    if (!draft?.links.self) return;
    dispatch({ type: 'import-started' });
    try {
      const body = await client.post(`${draft.links.self}/actions/files-import`);
      const list = FilesListSchema.parse(body);
      dispatch({
        type: 'imported',
        items: (list.entries ?? []).map((e) => FileItemSchema.parse(e)),
      });
      onFilesSaved?.();
    } catch (error) {
      dispatch({ type: 'import-failed' });
      onImportFailed?.(error);
    }
  }

  function handleMetadataOnly(metadataOnly: boolean) {
    setValue('files.enabled', !metadataOnly, { shouldDirty: true });
    // Switching files to metadata-only sets access.files to public: there are none to restrict.
    if (metadataOnly) setValue('access.files', 'public', { shouldDirty: true });
  }

  const used = state.entries.reduce((sum, e) => sum + e.size, 0);
  const quotaReached = state.entries.length >= quota.maxFiles || used >= quota.maxStorage;
  const versionIndex = (draft as { versions?: { index?: number } } | null)?.versions?.index ?? 1;
  const canImport =
    enabled && !locked && draft !== null && versionIndex > 1 && state.entries.length === 0;
  const size = (bytes: number) => formatBytes(bytes, i18n.language);

  return (
    <Stack component="section" id="files" tabIndex={-1} aria-labelledby="files-heading" gap="md">
      <Group justify="space-between" align="flex-start">
        <Title order={2} size="h3" id="files-heading">
          {t('uploader.title')}
        </Title>
        {enabled && (
          <Stack gap={0} align="flex-end" aria-label={t('uploader.storage.label')} role="group">
            <Text size="sm" fw={600}>
              {t('uploader.storage.label')}
            </Text>
            <Text size="sm" c={state.entries.length >= quota.maxFiles ? 'blue.8' : undefined}>
              {t('uploader.storage.files', { count: state.entries.length, max: quota.maxFiles })}
            </Text>
            <Text size="sm" c={used >= quota.maxStorage ? 'blue.8' : undefined}>
              {t('uploader.storage.bytes', { used: size(used), max: size(quota.maxStorage) })}
            </Text>
          </Stack>
        )}
      </Group>

      {!locked && (
        <Checkbox
          label={t('uploader.metadataOnly')}
          description={
            state.entries.length > 0
              ? t('uploader.metadataOnlyHasFiles')
              : t('uploader.metadataOnlyHelp')
          }
          checked={!enabled}
          disabled={state.entries.length > 0}
          onChange={(event) => handleMetadataOnly(event.currentTarget.checked)}
        />
      )}

      {canImport && (
        <Alert color="blue" variant="light">
          <Group justify="space-between">
            <Text>{t('uploader.import.info')}</Text>
            <Button loading={state.importing} onClick={() => void handleImport()}>
              {t('uploader.import.button')}
            </Button>
          </Group>
        </Alert>
      )}

      <UploadWarnings warnings={warnings} onDismiss={() => setWarnings([])} />

      {!enabled ? (
        <Text>{t('uploader.metadataOnlyNotice')}</Text>
      ) : (
        <>
          {!locked && (
            <FileDropArea
              onFiles={(files) => void handleFiles(files)}
              disabled={quotaReached}
              labels={{
                title: quotaReached ? t('uploader.quotaReached') : t('uploader.dropTitle'),
                hint: t('uploader.dropOr'),
                choose: t('uploader.chooseFiles'),
                chooseFolder: t('uploader.chooseFolder'),
                input: t('uploader.fileInput'),
                folderInput: t('uploader.folderInput'),
              }}
            />
          )}
          <ResumeBanner
            count={
              kept.filter((r) => state.entries.some((e) => e.reopenable && sameKey(e.key, r.key)))
                .length
            }
            resuming={resuming}
            onResume={() => void handleResumeAll()}
          />
          <Text aria-live="polite" size="sm">
            {notice}
          </Text>
          <FileTable
            entries={state.entries}
            locked={locked}
            defaultPreview={defaultPreview ?? undefined}
            onPreviewChange={(key) => setValue('files.default_preview', key, { shouldDirty: true })}
            onDelete={(entry) => void handleDelete(entry)}
            onCancel={handleCancel}
            onRemoveFolder={(entries) => void handleRemoveFolder(entries)}
          />
        </>
      )}

      {locked ? (
        <Alert color="blue" variant="light">
          <Group justify="space-between">
            <Text>{t('uploader.locked.notice')}</Text>
            {canNewVersion ? (
              <Button onClick={onNewVersion}>{t('uploader.locked.newVersion')}</Button>
            ) : (
              <Tooltip label={t('uploader.locked.noPermission')}>
                <Button data-disabled aria-disabled onClick={(event) => event.preventDefault()}>
                  {t('uploader.locked.newVersion')}
                </Button>
              </Tooltip>
            )}
          </Group>
        </Alert>
      ) : (
        enabled && (
          <Text size="sm" c="dimmed">
            {t('uploader.draftNote')}
          </Text>
        )
      )}
    </Stack>
  );
}

/** The draft's `files.entries` (a map without links) as file items with their links. */
function itemsOfDraft(draft: RecordJson, filesLink: string): FileItem[] {
  const entries = draft.files?.entries ?? {};
  return Object.entries(entries).flatMap(([key, value]) => {
    const fields = Object.entries(value as object).filter(([, v]) => v !== null);
    const parsed = FileItemSchema.safeParse({ ...Object.fromEntries(fields), key });
    if (!parsed.success) return [];
    const self = `${filesLink}/${key.split('/').map(encodeURIComponent).join('/')}`;
    return [
      {
        ...parsed.data,
        status: parsed.data.status ?? 'completed',
        links: { self, content: `${self}/content`, commit: `${self}/commit` },
      },
    ];
  });
}

function filesLinkOf(draft: RecordJson): string {
  const links = draft.links as Record<string, unknown>;
  if (typeof links.files === 'string') return links.files;
  return `${draft.links.self ?? `/api/records/${encodeURIComponent(draft.id)}/draft`}/files`;
}

export type { FileEntry, FileItem, Quota };
