import { RETRY_DELAYS_MS, type DepositFormValues } from '@cairn/shared';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { FormProvider, useForm, type UseFormReturn } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import type { RecordJson } from '../../../api/records';
import { AppProviders } from '../../../app/AppProviders';
import { createQueryClient } from '../../../app/query-client';
import { createI18n } from '../../../i18n/i18n';
import { buildBootstrap, buildDraft, buildRecord } from '../../../test/builders';
import { errorResponse, jsonResponse, stubFetch, type RecordedRequest } from '../../../test/fetch';
import { FileUploader, type FileUploaderProps } from './FileUploader';
import type { FileSource } from './file-access';
import type { ResumeRecord, ResumeStore, SourceRecord, SourceStore } from './resume-store';
import { patternBytes, sendBytesWithFetch, twoPartResumeRecord } from './test-send-bytes';
import { UploadRequestError } from './transport';

const SITE = 'http://127.0.0.1:5000';
const FILES = `${SITE}/api/records/abcde-12345/draft/files`;
const FILES_PATH = '/api/records/abcde-12345/draft/files';
const MiB = 1024 ** 2;
/** A file just over one 16 MiB part: two parts, the second of 1 MiB. */
const BIG = 17 * MiB;

const DRAFT = buildDraft({
  files: { enabled: true },
  links: { ...buildDraft().links, files: FILES },
});

/** The draft as the API returns it with these files (its `files.entries` map, no links). */
function draftWith(entries: Array<Record<string, unknown>>, overrides: Partial<RecordJson> = {}) {
  return {
    ...DRAFT,
    files: {
      enabled: true,
      entries: Object.fromEntries(entries.map((e) => [e.key as string, e])),
    },
    ...overrides,
  } as RecordJson;
}

const summaryEntry = (key: string, size: number, status?: string) => ({
  key,
  size,
  checksum: status ? null : 'md5:0cc175b9c0f1b6a831c399e269772661',
  mimetype: 'text/csv',
  ...(status ? { status } : {}),
});

function memoryStore(initial: Record<string, ResumeRecord> = {}): ResumeStore & {
  data: Map<string, ResumeRecord>;
} {
  const data = new Map(Object.entries(initial));
  return {
    data,
    get: (key) => data.get(key),
    put: (key, record) => void data.set(key, record),
    remove: (key) => void data.delete(key),
  };
}

/** Kept handles in memory: the browser's handles hold functions, which IndexedDB here cannot. */
function memorySources(records: SourceRecord[] = []): SourceStore & { data: SourceRecord[] } {
  const data = [...records];
  return {
    data,
    put: (record) => {
      const at = data.findIndex((r) => r.id === record.id);
      data.splice(at >= 0 ? at : data.length, at >= 0 ? 1 : 0, record);
      return Promise.resolve();
    },
    list: (draftId) => Promise.resolve(data.filter((r) => r.draftId === draftId)),
    remove: (id) => {
      const at = data.findIndex((r) => r.id === id);
      if (at >= 0) data.splice(at, 1);
      return Promise.resolve();
    },
  };
}

/**
 * A file handle as Chromium gives it, over a File; `asked` counts the permission prompts the
 * person would see.
 */
function fileHandle(file: File) {
  const handle = {
    kind: 'file' as const,
    name: file.name,
    asked: 0,
    getFile: () => Promise.resolve(file),
    isSameEntry: (other: unknown) => Promise.resolve(other === handle),
    queryPermission: () => Promise.resolve<PermissionState>('prompt'),
    requestPermission: () => {
      handle.asked++;
      return Promise.resolve<PermissionState>('granted');
    },
  };
  return handle;
}

function fileItem(key: string, overrides: Record<string, unknown> = {}) {
  const self = `${FILES}/${encodeURIComponent(key)}`;
  return {
    key,
    status: 'pending',
    transfer: { type: 'L' },
    links: { self, content: `${self}/content`, commit: `${self}/commit` },
    ...overrides,
  };
}

function completedItem(
  key: string,
  size: number,
  checksum = 'md5:0cc175b9c0f1b6a831c399e269772661',
) {
  return fileItem(key, { status: 'completed', size, checksum, mimetype: 'text/csv' });
}

type Route = (request: RecordedRequest) => Response | Promise<Response> | undefined;

/** Answers each request with the first route that answers; anything else fails the test. */
function serve(...routes: Route[]): RecordedRequest[] {
  return stubFetch((request) => {
    for (const route of routes) {
      const response = route(request);
      if (response) return response;
    }
    throw new Error(`Unexpected request: ${request.method} ${request.url}`);
  });
}

/** A server that takes single-request uploads: init, content (committing it, as Cairn's extension asks), commit. */
function singleUploads(checksum = 'md5:0cc175b9c0f1b6a831c399e269772661'): Route {
  const sizes = new Map<string, number>();
  return (r) => {
    if (r.method === 'POST' && r.url === FILES_PATH) {
      const [entry] = r.body as Array<{ key: string; size: number }>;
      sizes.set(entry!.key, entry!.size);
      return jsonResponse(201, { enabled: true, entries: [fileItem(entry!.key)] });
    }
    const match = /\/draft\/files\/([^/]+)\/(content|commit)(\?commit=true)?$/.exec(r.url);
    if (!match) return undefined;
    const key = decodeURIComponent(match[1]!);
    if (r.method === 'PUT' && match[2] === 'content')
      return jsonResponse(
        200,
        match[3] ? completedItem(key, sizes.get(key) ?? 0, checksum) : fileItem(key),
      );
    if (r.method === 'POST' && match[2] === 'commit')
      return jsonResponse(200, completedItem(key, sizes.get(key) ?? 0, checksum));
    return undefined;
  };
}

/** Part links of `big.bin`, valid for long. */
function partLinks(...urls: string[]) {
  return urls.map((url, index) => ({
    part: index + 1,
    url,
    expiration: '2999-01-01T00:00:00+00:00',
  }));
}

/**
 * A server taking `big.bin` in parts through these part links, answering its announcement and
 * every re-read of the file with them; `first` routes answer before it (a refusing storage).
 */
function serveBigFile(parts: ReturnType<typeof partLinks>, ...first: Route[]) {
  const item = fileItem('big.bin', {
    links: { self: `${FILES}/big.bin`, commit: `${FILES}/big.bin/commit`, parts },
  });
  return serve(
    ...first,
    (r) =>
      r.method === 'POST' && r.url === FILES_PATH
        ? jsonResponse(201, { entries: [item] })
        : undefined,
    (r) => (r.method === 'GET' && r.url.endsWith('/big.bin') ? jsonResponse(200, item) : undefined),
    (r) => (r.method === 'PUT' ? jsonResponse(200, item) : undefined),
  );
}

/** The resume key of `big.bin` in DRAFT. */
const BIG_RESUME_KEY = 'cairn.upload.abcde-12345/17825792/big.bin';

const resumeRecordOf = (file: File) => twoPartResumeRecord(file, `${FILES}/big.bin`);

/** A server holding part 1 of an interrupted multipart upload of `big.bin`, taking the rest. */
function serveInterruptedBig(): RecordedRequest[] {
  const parts = [1, 2].map((part) => ({ part, url: `${FILES}/big.bin/content/${part}` }));
  const pendingBig = fileItem('big.bin', {
    size: BIG,
    transfer: { type: 'M', parts: 2, part_size: 16 * MiB },
    links: { self: `${FILES}/big.bin`, commit: `${FILES}/big.bin/commit`, parts },
  });
  return serve(
    (r) =>
      r.method === 'GET' && r.url.endsWith('/big.bin/parts')
        ? jsonResponse(200, {
            key: 'big.bin',
            received: [
              { part: 1, size: 16 * MiB, checksum: 'md5:86cf57f926ca2598ddf451bb3375ac32' },
            ],
            missing: [2],
          })
        : undefined,
    (r) =>
      r.method === 'GET' && r.url.endsWith('/big.bin') ? jsonResponse(200, pendingBig) : undefined,
    (r) => (r.method === 'PUT' ? jsonResponse(200, pendingBig) : undefined),
    (r) =>
      r.method === 'POST' && r.url.endsWith('/commit')
        ? jsonResponse(200, completedItem('big.bin', BIG))
        : undefined,
  );
}

interface Rendered {
  form: () => UseFormReturn<DepositFormValues>;
  user: ReturnType<typeof userEvent.setup>;
  /** The file input of the dropzone, once its library has arrived (FileDropArea). */
  input: () => Promise<HTMLInputElement>;
}

function renderUploader(
  props: Partial<FileUploaderProps> = {},
  values: Partial<DepositFormValues> = {},
  language = 'en',
): Rendered {
  let form: UseFormReturn<DepositFormValues> | undefined;
  function Harness() {
    const methods = useForm<DepositFormValues>({
      defaultValues: {
        access: { record: 'public', files: 'restricted' },
        files: { enabled: true },
        ...values,
      } as DepositFormValues,
    });
    useEffect(() => {
      form = methods;
    }, [methods]);
    return (
      <FormProvider {...methods}>
        <FileUploader
          draft={DRAFT}
          ensureDraft={() => Promise.resolve(DRAFT)}
          sendBytes={sendBytesWithFetch}
          resumeStore={memoryStore()}
          retryDelaysMs={[0, 0, 0, 0]}
          {...props}
        />
      </FormProvider>
    );
  }
  const { container } = render(
    <AppProviders
      bootstrap={buildBootstrap()}
      queryClient={createQueryClient()}
      i18n={createI18n(language)}
      env="test"
    >
      <Harness />
    </AppProviders>,
  );
  return {
    form: () => form!,
    user: userEvent.setup(),
    input: async () => {
      const selector = '.mantine-Dropzone-root input[type="file"]';
      await waitFor(() => expect(container.querySelector(selector)).not.toBeNull());
      return container.querySelector<HTMLInputElement>(selector)!;
    },
  };
}

const bytes = patternBytes;

describe('FileUploader', () => {
  it('uploads a small file with one PUT: init with transfer L, content that commits it', async () => {
    const requests = serve(singleUploads());
    const { user, input } = renderUploader();
    await user.upload(await input(), new File([bytes(1500)], 'data.csv'));

    const cells = within(await screen.findByRole('row', { name: /data\.csv.*100%/ }));
    expect(cells.getByRole('link', { name: 'data.csv' })).toBeTruthy();
    expect(cells.getByText('1.5 kB')).toBeTruthy();
    expect(cells.getByText('MD5 checksum: 0cc175b9c0f1b6a831c399e269772661')).toBeTruthy();
    const upload = requests.filter((r) => r.url.startsWith(FILES_PATH) && r.method !== 'GET');
    expect(upload.map((r) => `${r.method} ${r.url}`)).toEqual([
      `POST ${FILES_PATH}`,
      `PUT ${FILES_PATH}/data.csv/content?commit=true`,
    ]);
    expect(upload[0]?.body).toEqual([{ key: 'data.csv', size: 1500, transfer: { type: 'L' } }]);
    expect(upload[1]?.headers.get('Content-Type')).toBe('application/octet-stream');
    expect(screen.getByText('1 out of 5 files')).toBeTruthy();
    expect(screen.getByText('1.5 kB out of 10 GB')).toBeTruthy();
  });

  it('opens the file picker from the "Choose files" button, by keyboard too', async () => {
    serve();
    const { user, input } = renderUploader();
    await input();
    // The button opens the uploader's own input, which stays while the dropzone replaces the
    // plain area (FileDropArea).
    const own = screen
      .getAllByLabelText('Files to upload')
      .find((element) => !element.closest('.mantine-Dropzone-root'))!;
    const click = vi.spyOn(own, 'click');
    screen.getByRole('button', { name: 'Choose files' }).focus();
    await user.keyboard('{Enter}');
    expect(click).toHaveBeenCalled();
  });

  it('sends a file larger than one chunk in parts, each with its Content-MD5', async () => {
    const parts = [1, 2].map((part) => ({
      part,
      url: `${FILES}/big.bin/content/${part}`,
      expiration: '2999-01-01T00:00:00+00:00',
    }));
    const requests = serve((r) => {
      if (r.method === 'POST' && r.url === FILES_PATH)
        return jsonResponse(201, {
          entries: [
            fileItem('big.bin', {
              transfer: { type: 'M', parts: 2, part_size: 16 * MiB },
              links: { self: `${FILES}/big.bin`, commit: `${FILES}/big.bin/commit`, parts },
            }),
          ],
        });
      if (r.method === 'PUT' && /\/big\.bin\/content\/\d$/.test(r.url))
        return jsonResponse(200, fileItem('big.bin'));
      if (r.method === 'POST' && r.url.endsWith('/big.bin/commit'))
        return jsonResponse(200, completedItem('big.bin', BIG));
      return undefined;
    });
    const store = memoryStore();
    const { user, input } = renderUploader({
      enabledTransferTypes: ['L', 'M'],
      resumeStore: store,
    });
    await user.upload(await input(), new File([bytes(BIG)], 'big.bin'));

    await screen.findByRole('row', { name: /big\.bin.*100%/ });
    const init = requests.find((r) => r.method === 'POST' && r.url === FILES_PATH);
    expect(init?.body).toEqual([
      { key: 'big.bin', size: BIG, transfer: { type: 'M', parts: 2, part_size: 16 * MiB } },
    ]);
    const puts = requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => [r.url, r.headers.get('Content-MD5')]).sort()).toEqual([
      [`${FILES_PATH}/big.bin/content/1`, 'hs9X+SbKJZjd9FG7M3WsMg=='],
      [`${FILES_PATH}/big.bin/content/2`, 'PyyL2c/eZVD9/0s2YXwyYQ=='],
    ]);
    // Finished uploads leave nothing to resume.
    expect(store.data.size).toBe(0);
  });

  it('resumes a remembered upload by sending only the parts the server lacks', async () => {
    const file = new File([bytes(BIG)], 'big.bin');
    const store = memoryStore({ [BIG_RESUME_KEY]: await resumeRecordOf(file) });
    const requests = serveInterruptedBig();
    const { user, input } = renderUploader({
      draft: draftWith([summaryEntry('big.bin', BIG, 'pending')]),
      enabledTransferTypes: ['L', 'M'],
      resumeStore: store,
    });

    // Without a kept handle the row names the file to choose again, and what the server holds.
    const row = await screen.findByRole('row', { name: /big\.bin/ });
    await within(row).findByText(
      'Upload interrupted. To resume it, choose big.bin (17.8 MB) again.',
    );
    await within(row).findByText('16.8 MB of 17.8 MB safe on the server');
    expect(screen.queryByRole('region', { name: 'Interrupted uploads' })).toBeNull();
    await user.upload(await input(), file);

    await screen.findByRole('row', { name: /big\.bin.*100%/ });
    expect(screen.getByText('Resumed: 1 part was already uploaded.')).toBeTruthy();
    expect(requests.filter((r) => r.method === 'PUT').map((r) => r.url)).toEqual([
      `${FILES_PATH}/big.bin/content/2`,
    ]);
    // Resuming never announces the file again nor deletes what the server holds.
    expect(requests.some((r) => r.method === 'POST' && r.url === FILES_PATH)).toBe(false);
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
  });

  it('resumes every upload whose handle was kept with one click, after one permission prompt', async () => {
    const file = new File([bytes(BIG)], 'big.bin', { lastModified: 1_700_000_000_000 });
    const handle = fileHandle(file);
    const sources = memorySources([
      {
        id: BIG_RESUME_KEY,
        draftId: DRAFT.id,
        key: 'big.bin',
        size: BIG,
        source: { handle, path: [] } as unknown as FileSource,
      },
    ]);
    const requests = serveInterruptedBig();
    const { user } = renderUploader({
      draft: draftWith([summaryEntry('big.bin', BIG, 'pending')]),
      enabledTransferTypes: ['L', 'M'],
      resumeStore: memoryStore({ [BIG_RESUME_KEY]: await resumeRecordOf(file) }),
      sourceStore: sources,
    });

    const banner = await screen.findByRole('region', { name: 'Interrupted uploads' });
    within(banner).getByText('1 upload was interrupted.');
    const row = screen.getByRole('row', { name: /big\.bin/ });
    within(row).getByText('Upload interrupted. Resume it with the button above.');
    await within(row).findByText('16.8 MB of 17.8 MB safe on the server');
    await user.click(within(banner).getByRole('button', { name: 'Resume' }));

    await screen.findByRole('row', { name: /big\.bin.*100%/ });
    expect(handle.asked).toBe(1);
    expect(requests.filter((r) => r.method === 'PUT').map((r) => r.url)).toEqual([
      `${FILES_PATH}/big.bin/content/2`,
    ]);
    expect(requests.some((r) => r.method === 'POST' && r.url === FILES_PATH)).toBe(false);
    expect(screen.queryByRole('region', { name: 'Interrupted uploads' })).toBeNull();
    // A finished upload keeps no handle.
    await waitFor(() => expect(sources.data).toEqual([]));
  });

  it('asks for the file again when its kept handle can no longer be read', async () => {
    const file = new File([bytes(BIG)], 'big.bin', { lastModified: 1_700_000_000_000 });
    const handle = fileHandle(file);
    // Moved or deleted since: Chromium's getFile() then fails with NotFoundError.
    handle.getFile = () => Promise.reject(new DOMException('Gone.', 'NotFoundError'));
    const requests = serveInterruptedBig();
    const { user } = renderUploader({
      draft: draftWith([summaryEntry('big.bin', BIG, 'pending')]),
      enabledTransferTypes: ['L', 'M'],
      resumeStore: memoryStore({ [BIG_RESUME_KEY]: await resumeRecordOf(file) }),
      sourceStore: memorySources([
        {
          id: BIG_RESUME_KEY,
          draftId: DRAFT.id,
          key: 'big.bin',
          size: BIG,
          source: { handle, path: [] } as unknown as FileSource,
        },
      ]),
    });
    const banner = await screen.findByRole('region', { name: 'Interrupted uploads' });
    await user.click(within(banner).getByRole('button', { name: 'Resume' }));

    const row = screen.getByRole('row', { name: /big\.bin/ });
    await within(row).findByText(
      'The browser could not read this file again. Choose it again to resume its upload.',
    );
    within(row).getByText('Upload interrupted. To resume it, choose big.bin (17.8 MB) again.');
    expect(screen.queryByRole('region', { name: 'Interrupted uploads' })).toBeNull();
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('refuses to resume from a file that is not the one whose upload was interrupted', async () => {
    const original = new File([bytes(BIG)], 'big.bin', { lastModified: 1_700_000_000_000 });
    // Same name, size and bytes, saved again since.
    const touched = new File([bytes(BIG)], 'big.bin', { lastModified: 1_800_000_000_000 });
    const requests = serveInterruptedBig();
    const { user, input } = renderUploader({
      draft: draftWith([summaryEntry('big.bin', BIG, 'pending')]),
      enabledTransferTypes: ['L', 'M'],
      resumeStore: memoryStore({ [BIG_RESUME_KEY]: await resumeRecordOf(original) }),
    });
    await screen.findByText('Upload interrupted. To resume it, choose big.bin (17.8 MB) again.');
    await user.upload(await input(), touched);

    await screen.findByText(
      'This is not the file whose upload was interrupted: its date or contents differ. Choose the same file, or delete the interrupted upload to send this one.',
    );
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('fetches fresh links through the file self link when a part link has expired', async () => {
    const stale = [
      { part: 1, url: `${FILES}/big.bin/content/1?old`, expiration: '2000-01-01T00:00:00+00:00' },
      { part: 2, url: `${FILES}/big.bin/content/2?old`, expiration: '2000-01-01T00:00:00+00:00' },
    ];
    const fresh = [1, 2].map((part) => ({
      part,
      url: `${FILES}/big.bin/content/${part}`,
      expiration: '2999-01-01T00:00:00+00:00',
    }));
    const links = (parts: unknown) => ({
      self: `${FILES}/big.bin`,
      commit: `${FILES}/big.bin/commit`,
      parts,
    });
    const requests = serve(
      (r) =>
        r.method === 'POST' && r.url === FILES_PATH
          ? jsonResponse(201, { entries: [fileItem('big.bin', { links: links(stale) })] })
          : undefined,
      (r) =>
        r.method === 'GET' && r.url.endsWith('/big.bin')
          ? jsonResponse(200, fileItem('big.bin', { links: links(fresh) }))
          : undefined,
      (r) => (r.method === 'PUT' ? jsonResponse(200, fileItem('big.bin')) : undefined),
      (r) =>
        r.method === 'POST' && r.url.endsWith('/commit')
          ? jsonResponse(200, completedItem('big.bin', BIG))
          : undefined,
    );
    const { user, input } = renderUploader({ enabledTransferTypes: ['L', 'M'] });
    await user.upload(await input(), new File([bytes(BIG)], 'big.bin'));

    await screen.findByRole('row', { name: /big\.bin.*100%/ });
    expect(
      requests
        .filter((r) => r.method === 'PUT')
        .map((r) => r.url)
        .sort(),
    ).toEqual([`${FILES_PATH}/big.bin/content/1`, `${FILES_PATH}/big.bin/content/2`]);
  });

  it('keeps no file handle for a file in one piece, and deletes none', async () => {
    serve(singleUploads());
    const sources = memorySources();
    const calls: string[] = [];
    const watched: SourceStore = {
      put: (record) => (calls.push('put'), sources.put(record)),
      list: (draftId) => sources.list(draftId),
      remove: (id) => (calls.push('remove'), sources.remove(id)),
    };
    const { user, input } = renderUploader({ sourceStore: watched });
    await user.upload(await input(), new File(['x'], 'small.csv'));
    await screen.findByRole('row', { name: /small\.csv.*100%/ });
    // Each would be an IndexedDB transaction, for every file of a folder.
    expect(calls).toEqual([]);
  });

  it('fails an entry with the server message, trying again only what may pass', async () => {
    let contentAttempts = 0;
    serve((r) => {
      if (r.method === 'POST' && r.url === FILES_PATH) {
        const [entry] = r.body as Array<{ key: string }>;
        return jsonResponse(201, { entries: [fileItem(entry!.key)] });
      }
      if (r.url.endsWith('/refused.csv/content?commit=true'))
        return jsonResponse(400, { status: 400, message: 'File size limit exceeded.' });
      if (r.url.endsWith('/flaky.csv/content?commit=true')) {
        contentAttempts++;
        return new Response(null, { status: 503 });
      }
      return undefined;
    });
    const { user, input } = renderUploader();
    await user.upload(await input(), [
      new File(['x'], 'refused.csv'),
      new File(['y'], 'flaky.csv'),
    ]);

    expect(
      within(await screen.findByRole('row', { name: /refused\.csv.*Failed/ })).getByText(
        'File size limit exceeded.',
      ),
    ).toBeTruthy();
    expect(
      within(await screen.findByRole('row', { name: /flaky\.csv.*Failed/ })).getByText(
        'Upload failed',
      ),
    ).toBeTruthy();
    // The first attempt and one after each of the four retry delays.
    expect(contentAttempts).toBe(5);
  });

  it('tries a failing part again after 0, 1, 3 and 5 seconds by default', async () => {
    // Only the clock and timeouts are the test's: the rest of the page runs as it does.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    serve(singleUploads());
    const attemptsAt: number[] = [];
    renderUploader({
      retryDelaysMs: undefined,
      sendBytes: () => {
        attemptsAt.push(Date.now());
        return Promise.reject(new UploadRequestError('http', 'Unavailable', { status: 503 }));
      },
    });
    // With the clock stopped, the dropzone library has not come: the plain input takes the file.
    const plainInput = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    fireEvent.change(plainInput, { target: { files: [new File(['x'], 'later.csv')] } });
    for (let step = 0; step < 2000 && attemptsAt.length < 5; step++) {
      await vi.advanceTimersByTimeAsync(50);
      // Module loading and the like take real time, which the fake clock does not give.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await vi.advanceTimersByTimeAsync(6000);

    expect(attemptsAt.slice(1).map((at, index) => at - attemptsAt[index]!)).toEqual(
      RETRY_DELAYS_MS,
    );
    vi.useRealTimers();
    expect(await screen.findByRole('row', { name: /later\.csv.*Failed/ })).toBeTruthy();
  });

  it('shows the progress of many files a few times a second, not at every event', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const requests = serve(singleUploads());
    const reports: number[] = [];
    let last: readonly { status: string }[] = [];
    renderUploader({
      quota: { maxFiles: 100, maxStorage: 1e10 },
      // Each file's bytes answered in a task of its own, as a browser's requests are.
      sendBytes: async (request) => {
        await new Promise((resolve) => setImmediate(resolve));
        return sendBytesWithFetch(request);
      },
      onFilesChange: (entries) => {
        reports.push(entries.length);
        last = entries;
      },
    });
    const plainInput = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    const files = Array.from({ length: 40 }, (_, i) => new File([`${i}`], `f${i}.csv`));
    fireEvent.change(plainInput, { target: { files } });
    const commits = () => requests.filter((r) => r.url.endsWith('commit=true')).length;
    const deadline = performance.now() + 20_000;
    while (commits() < files.length && performance.now() < deadline) {
      await vi.advanceTimersByTimeAsync(1);
      // Module loading and the requests take real time, which the fake clock does not give.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await vi.advanceTimersByTimeAsync(1000);
    vi.useRealTimers();

    expect(await screen.findByText('40 out of 100 files')).toBeTruthy();
    // The table renders the rows in view only (virtualised): the entries tell of all 40.
    await waitFor(() =>
      expect(last.filter((entry) => entry.status === 'completed')).toHaveLength(40),
    );
    expect((await screen.findAllByRole('row', { name: /f\d+\.csv.*100%/ })).length).toBeGreaterThan(
      0,
    );
    // Each file reports its creation, progress and end, each in a task of its own: taken one at
    // a time they were dozens of renders of the whole list (17 here), taken together a handful.
    expect(reports.length).toBeLessThan(files.length / 4);
  });

  it('says how long an upload stalled when every attempt stalled', async () => {
    serve(singleUploads());
    let attempts = 0;
    const { user, input } = renderUploader({
      stallMs: 30_000,
      sendBytes: ({ stallMs }) => {
        attempts++;
        const seconds = stallMs / 1000;
        return Promise.reject(
          new UploadRequestError('stalled', 'no progress', { stalledSeconds: seconds }),
        );
      },
    });
    await user.upload(await input(), new File(['x'], 'stuck.csv'));
    const failed = await screen.findByRole('row', { name: /stuck\.csv.*Failed/ });
    expect(within(failed).getByText('Upload stalled for 30 seconds.')).toBeTruthy();
    expect(attempts).toBe(5);
  });

  it('asks for fresh links when the storage refuses a presigned part URL, then says so', async () => {
    // Part 1 goes to a storage that refuses it; part 2 arrives.
    const requests = serveBigFile(
      partLinks(
        'http://storage.example/bucket/big.bin?partNumber=1&X-Amz-Expires=900',
        `${FILES}/big.bin/content/2`,
      ),
      (r) =>
        r.method === 'PUT' && r.url.startsWith('http://storage.example/')
          ? new Response('<Error><Code>AccessDenied</Code></Error>', { status: 403 })
          : undefined,
    );
    document.cookie = 'csrftoken=t0ken';
    const { user, input } = renderUploader({ enabledTransferTypes: ['L', 'M'] });
    await user.upload(await input(), new File([bytes(BIG)], 'big.bin'));

    const failed = await screen.findByRole('row', { name: /big\.bin.*Failed/ }, { timeout: 5000 });
    expect(
      within(failed).getByText('The upload link expired and fresh links did not help either.'),
    ).toBeTruthy();
    const part1 = requests.filter((r) => r.url.includes('partNumber=1'));
    expect(part1).toHaveLength(5);
    // The CSRF token goes to Cairn only, never to the storage.
    expect(requests.find((r) => r.method === 'POST')?.headers.get('X-CSRFToken')).toBe('t0ken');
    expect(part1[0]?.headers.get('X-CSRFToken')).toBeNull();
    expect(
      requests.filter((r) => r.method === 'GET' && r.url.endsWith('/big.bin')).length,
    ).toBeGreaterThanOrEqual(3);
  });

  it('says a part was too large when the storage refuses it as such, without trying again', async () => {
    const requests = serveBigFile(
      partLinks(
        'http://storage.example/bucket/big.bin?partNumber=1&X-Amz-Expires=900',
        'http://storage.example/bucket/big.bin?partNumber=2&X-Amz-Expires=900',
      ),
      (r) =>
        r.method === 'PUT' && r.url.includes('partNumber=1')
          ? new Response(
              '<Error><Code>EntityTooLarge</Code><Message>Your proposed upload exceeds the maximum allowed size</Message></Error>',
              { status: 400, statusText: 'Bad Request' },
            )
          : undefined,
    );
    const { user, input } = renderUploader({ enabledTransferTypes: ['L', 'M'] });
    await user.upload(await input(), new File([bytes(BIG)], 'big.bin'));

    const failed = await screen.findByRole('row', { name: /big\.bin.*Failed/ });
    expect(
      within(failed).getByText('The part is larger than the largest part allowed.'),
    ).toBeTruthy();
    expect(requests.filter((r) => r.url.includes('partNumber=1'))).toHaveLength(1);
  });

  it('says a part number is not valid when the server has no link for it, even afresh', async () => {
    // The server knows one part of the two the upload was announced with.
    const requests = serveBigFile(partLinks(`${FILES}/big.bin/content/1`));
    const { user, input } = renderUploader({ enabledTransferTypes: ['L', 'M'] });
    await user.upload(await input(), new File([bytes(BIG)], 'big.bin'));

    const failed = await screen.findByRole('row', { name: /big\.bin.*Failed/ });
    expect(within(failed).getByText('The part number is not valid for this upload.')).toBeTruthy();
    // Fresh links were asked for before giving up; nothing was committed.
    expect(requests.some((r) => r.method === 'GET' && r.url.endsWith('/big.bin'))).toBe(true);
    expect(requests.some((r) => r.url.endsWith('/commit'))).toBe(false);
  });

  it('words the upload errors in German', async () => {
    serveBigFile(partLinks());
    const { user, input } = renderUploader({ enabledTransferTypes: ['L', 'M'] }, {}, 'de');
    await user.upload(await input(), new File([bytes(BIG)], 'big.bin'));
    const failed = await screen.findByRole('row', { name: /big\.bin/ });
    await waitFor(() =>
      expect(failed.textContent).toContain('Die Teilnummer ist für diesen Upload ungültig.'),
    );
  });

  it('refuses a selection over the file count with "Could not upload files."', async () => {
    const requests = serve();
    const { user, input } = renderUploader({ quota: { maxFiles: 2, maxStorage: 1e10 } });
    await user.upload(await input(), [
      new File(['a'], 'a'),
      new File(['b'], 'b'),
      new File(['c'], 'c'),
    ]);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not upload files.');
    expect(alert.textContent).toContain(
      'Uploading the selected files would result in 3 files (max. 2).',
    );
    expect(screen.getByText('No files yet.')).toBeTruthy();
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('refuses a selection over the storage quota, in decimal units', async () => {
    serve();
    const { user, input } = renderUploader({ quota: { maxFiles: 5, maxStorage: 2000 } });
    await user.upload(await input(), [new File([bytes(1500)], 'a'), new File([bytes(1000)], 'b')]);

    expect((await screen.findByRole('alert')).textContent).toContain(
      'Uploading the selected files would result in 2.5 kB of storage use, exceeding the limit of 2 kB.',
    );
  });

  it('skips files already part of the upload and empty files when those are not allowed', async () => {
    serve(singleUploads());
    const { user, input } = renderUploader({
      draft: draftWith([summaryEntry('data.csv', 12)]),
      allowEmptyFiles: false,
    });
    await screen.findByRole('link', { name: 'data.csv' });
    await user.upload(await input(), [
      new File(['x'], 'data.csv'),
      new File([], 'empty.txt'),
      new File(['z'], 'new.txt'),
    ]);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The following files already exist');
    expect(alert.textContent).toContain('data.csv is already part of this upload.');
    expect(alert.textContent).toContain('Could not upload all files.');
    expect(alert.textContent).toContain('Empty files were skipped.');
    expect(alert.textContent).toContain('empty.txt');
    await screen.findByRole('row', { name: /new\.txt.*100%/ });
    expect(screen.queryByRole('row', { name: /empty\.txt/ })).toBeNull();
  });

  it('rejects a file whose transfer type the repository does not enable', async () => {
    serve();
    const { user, input } = renderUploader({ enabledTransferTypes: ['M'] });
    await user.upload(await input(), new File(['x'], 'small.txt'));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'small.txt: the transfer type L is not enabled on this repository.',
    );
  });

  it('counts a 404 on deleting an interrupted upload as deleted', async () => {
    const requests = serve((r) =>
      r.method === 'DELETE'
        ? errorResponse('NOT_FOUND', { message: 'File with key half.bin not found.' })
        : undefined,
    );
    const { user } = renderUploader({
      draft: draftWith([summaryEntry('half.bin', 10, 'pending')]),
    });
    await user.click(await screen.findByRole('button', { name: 'Delete file half.bin' }));
    await screen.findByText('No files yet.');
    expect(requests.at(-1)?.url).toBe(`${FILES_PATH}/half.bin`);
  });

  it('reads the files of a draft that leaves them out of its JSON from the listing, page by page', async () => {
    const keys = Array.from({ length: 7 }, (_, i) => `raw/f${i}.csv`);
    // The server's pages are smaller than asked for here: the uploader follows `links.next`.
    const requests = serve((r) => {
      const url = new URL(r.url, SITE);
      if (r.method !== 'GET' || url.pathname !== FILES_PATH) return undefined;
      const page = Number(url.searchParams.get('page') ?? 1);
      return jsonResponse(200, {
        enabled: true,
        entries: keys.slice((page - 1) * 3, page * 3).map((k) => completedItem(k, 1)),
        total: keys.length,
        links: page * 3 < keys.length ? { next: `${FILES}?page=${page + 1}&size=3` } : {},
      });
    });
    renderUploader({
      draft: { ...DRAFT, files: { enabled: true, count: 7, entries: {}, entries_omitted: true } },
    });
    const raw = await screen.findByRole('button', { name: 'Folder raw/' });
    expect(screen.getByRole('row', { name: /^raw\/ 7 files/ })).toBeTruthy();
    fireEvent.click(raw);
    expect(screen.getByRole('link', { name: 'raw/f6.csv' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'raw/f0.csv' })).toBeTruthy();
    expect(requests.map((r) => r.url)).toEqual([
      `${FILES_PATH}?page=1&size=1000`,
      `${FILES_PATH}?page=2&size=3`,
      `${FILES_PATH}?page=3&size=3`,
    ]);
  });

  it('asks for the pages after the first a few at once, and lists each file once', async () => {
    const keys = Array.from({ length: 10 }, (_, i) => `f${i}.csv`);
    let answerPage2: (() => void) | undefined;
    const requests = serve((r) => {
      const url = new URL(r.url, SITE);
      if (r.method !== 'GET' || url.pathname !== FILES_PATH) return undefined;
      const page = Number(url.searchParams.get('page') ?? 1);
      const body = {
        enabled: true,
        // Page 4 repeats the last entry of page 3, as after a file was deleted meanwhile.
        entries: keys
          .slice(page === 4 ? 8 : (page - 1) * 3, page * 3)
          .map((k) => completedItem(k, 1)),
        total: keys.length,
        links: page * 3 < keys.length ? { next: `${FILES}?page=${page + 1}&size=3` } : {},
      };
      if (page !== 2) return jsonResponse(200, body);
      // Held until the later pages were asked for: one page at a time would never get there.
      return new Promise<Response>((resolve) => {
        answerPage2 = () => resolve(jsonResponse(200, body));
      });
    });
    renderUploader({
      draft: { ...DRAFT, files: { enabled: true, count: 10, entries: {}, entries_omitted: true } },
    });
    await waitFor(() => expect(requests).toHaveLength(4));
    expect(requests.map((r) => r.url)).toEqual([
      `${FILES_PATH}?page=1&size=1000`,
      `${FILES_PATH}?page=2&size=3`,
      `${FILES_PATH}?page=3&size=3`,
      `${FILES_PATH}?page=4&size=3`,
    ]);
    answerPage2!();
    const links = await screen.findAllByRole('link', { name: /^f\d\.csv$/ });
    expect(links.map((link) => link.textContent)).toEqual(keys);
  });

  it('cancels an upload: aborts it, removes the row and deletes the pending file', async () => {
    let release: (() => void) | undefined;
    const requests = serve((r) => {
      if (r.method === 'POST' && r.url === FILES_PATH)
        return jsonResponse(201, { entries: [fileItem('slow.csv')] });
      if (r.method === 'PUT')
        return new Promise<Response>((resolve) => {
          release = () => resolve(jsonResponse(200, fileItem('slow.csv')));
        });
      if (r.method === 'DELETE') return new Response(null, { status: 204 });
      return undefined;
    });
    const onUploadingChange = vi.fn();
    const { user, input } = renderUploader({ onUploadingChange });
    await user.upload(await input(), new File(['x'], 'slow.csv'));
    await waitFor(() => expect(release).toBeDefined());
    expect(onUploadingChange).toHaveBeenLastCalledWith(true);

    // Leaving the page during an upload triggers the browser's warning.
    const leave = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(leave);
    expect(leave.defaultPrevented).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Cancel the upload of slow.csv' }));
    await screen.findByText('No files yet.');
    await waitFor(() => expect(requests.at(-1)?.method).toBe('DELETE'));
    expect(requests.at(-1)?.url).toBe(`${FILES_PATH}/slow.csv`);
    expect(onUploadingChange).toHaveBeenLastCalledWith(false);
    const after = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(false);
  });

  it('shows files in folders with counts, sizes and progress, and removes a folder once confirmed', async () => {
    const requests = serve((r) =>
      r.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined,
    );
    renderUploader({
      draft: draftWith([
        summaryEntry('raw/2024/a.csv', 1000),
        summaryEntry('raw/2024/b.csv', 2000),
        // Interrupted: nothing of it counts as sent.
        summaryEntry('raw/notes.txt', 500, 'pending'),
        summaryEntry('top.csv', 10),
      ]),
    });
    const table = screen.getByRole('table', { name: 'Files of this upload' });
    const raw = within(table).getByRole('row', { name: /^raw\/ 3 files 3\.5 kB 85%/ });
    expect(
      within(raw).getByRole('progressbar', { name: 'Upload progress of the folder raw/' }),
    ).toBeTruthy();
    expect(within(table).getByRole('row', { name: /top\.csv.*10 bytes.*100%/ })).toBeTruthy();
    fireEvent.click(within(raw).getByRole('button', { name: 'Folder raw/' }));
    const y2024 = within(table).getByRole('row', { name: /^2024\/ 2 files 3 kB 100%/ });
    fireEvent.click(within(y2024).getByRole('button', { name: 'Folder raw/2024/' }));
    expect(within(table).getByRole('row', { name: /a\.csv.*1 kB.*100%/ })).toBeTruthy();
    expect(
      within(table).getByText(
        'Upload interrupted. To resume it, choose the folder raw again, or the file raw/notes.txt (500 bytes).',
      ),
    ).toBeTruthy();

    // Kept: nothing is asked of the server.
    fireEvent.click(within(y2024).getByRole('button', { name: 'Remove folder raw/2024/' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove the folder raw/2024/?' });
    expect(
      within(dialog).getByText(
        'All 2 files in it will be removed from this upload; those still being sent are stopped.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requests).toEqual([]);

    fireEvent.click(within(y2024).getByRole('button', { name: 'Remove folder raw/2024/' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove the folder raw/2024/?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove folder' }));
    await waitFor(() =>
      expect(within(table).queryByRole('button', { name: 'Folder raw/2024/' })).toBeNull(),
    );
    expect(requests.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      `DELETE ${FILES_PATH}/raw/2024/a.csv`,
      `DELETE ${FILES_PATH}/raw/2024/b.csv`,
    ]);
    expect(within(table).getByRole('row', { name: /^raw\/ 1 file / })).toBeTruthy();
    expect(screen.getByText('2 out of 5 files')).toBeTruthy();
  });

  it('stops the uploads of a folder removed while they are sent', async () => {
    const requests = serve((r) => {
      if (r.method === 'POST' && r.url === FILES_PATH) {
        const [entry] = r.body as Array<{ key: string }>;
        return jsonResponse(201, { entries: [fileItem(entry!.key)] });
      }
      if (r.method === 'PUT') return new Promise<Response>(() => undefined);
      if (r.method === 'DELETE') return new Response(null, { status: 204 });
      return undefined;
    });
    const { user, input } = renderUploader({ concurrency: 1 });
    const inFolder = (path: string) => {
      const file = new File(['x'], path.split('/').pop()!);
      Object.defineProperty(file, 'webkitRelativePath', { value: path });
      return file;
    };
    await user.upload(await input(), [inFolder('survey/a.csv'), inFolder('survey/b.csv')]);
    await waitFor(() => expect(requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(await screen.findByRole('row', { name: /^survey\/ 2 files/ })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Remove folder survey/' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the folder survey/?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove folder' }));
    await screen.findByText('No files yet.');
    // The one announced is deleted by the engine as it cancels; the other never left.
    await waitFor(() => expect(requests.some((r) => r.method === 'DELETE')).toBe(true));
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });

  it('binds metadata-only to files.enabled and makes the files public', async () => {
    serve();
    const { user, form } = renderUploader();
    await user.click(screen.getByRole('checkbox', { name: 'Metadata-only record' }));
    expect(form().getValues('files.enabled')).toBe(false);
    expect(form().getValues('access.files')).toBe('public');
    expect(screen.getByText('This is a Metadata-only record.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Choose files' })).toBeNull();
  });

  it('chooses the default preview, and clears it when chosen again', async () => {
    serve();
    const { user, form } = renderUploader({
      draft: draftWith([summaryEntry('a.csv', 1), summaryEntry('b.csv', 1)]),
    });
    const preview = await screen.findByRole('radio', { name: 'Preview b.csv' });
    await user.click(preview);
    expect(form().getValues('files.default_preview')).toBe('b.csv');
    await user.click(preview);
    expect(form().getValues('files.default_preview')).toBeUndefined();
    expect(screen.getByRole('checkbox', { name: 'Metadata-only record' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('imports the files of the previous version, or reports the failure to the core', async () => {
    const newVersion = { ...DRAFT, versions: { index: 2 } } as RecordJson;
    let fail = true;
    const requests = serve((r) => {
      if (r.method !== 'POST' || !r.url.endsWith('/draft/actions/files-import')) return undefined;
      if (fail) return jsonResponse(500, { status: 500, message: 'Boom' });
      return jsonResponse(201, { enabled: true, entries: [completedItem('old.csv', 3000)] });
    });
    const onImportFailed = vi.fn();
    const { user } = renderUploader({ draft: newVersion, onImportFailed });
    expect(screen.getByText('You can import files from the previous version.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Import files' }));
    await waitFor(() => expect(onImportFailed).toHaveBeenCalledOnce());

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Import files' }));
    await screen.findByRole('row', { name: /old\.csv.*3 kB.*100%/ });
    expect(requests.at(-1)?.url).toBe('/api/records/abcde-12345/draft/actions/files-import');
    expect(screen.queryByText('You can import files from the previous version.')).toBeNull();
  });

  it('locks the files of a published record behind a new version', async () => {
    const published = draftWith([summaryEntry('a.csv', 1)], {
      ...buildRecord(),
      is_draft: true,
    });
    published.files = draftWith([summaryEntry('a.csv', 1)]).files;
    serve();
    const onNewVersion = vi.fn();
    const { user } = renderUploader({ draft: published, onNewVersion });
    expect(
      screen.getByText('You must create a new version to add, modify or delete files.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Choose files' })).toBeNull();
    const button = screen.getByRole('button', { name: 'New version' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    await user.hover(button);
    expect(
      await screen.findByText("You don't have permissions to create a new version."),
    ).toBeTruthy();
    await user.click(button);
    expect(onNewVersion).not.toHaveBeenCalled();
  });

  it('offers the new version to those who may make one', async () => {
    const published = { ...buildRecord(), files: { enabled: true } } as RecordJson;
    serve();
    const onNewVersion = vi.fn();
    const { user } = renderUploader({ draft: published, canNewVersion: true, onNewVersion });
    await user.click(screen.getByRole('button', { name: 'New version' }));
    expect(onNewVersion).toHaveBeenCalledOnce();
  });

  it('saves the draft first when there is none, and drops the batch if that fails', async () => {
    const requests = serve(singleUploads());
    const ensureDraft = vi
      .fn()
      .mockRejectedValueOnce(new Error('save failed'))
      .mockResolvedValue(DRAFT);
    const { user, input } = renderUploader({ draft: null, ensureDraft });
    await user.upload(await input(), new File(['x'], 'a.csv'));
    await waitFor(() => expect(screen.getByText('No files yet.')).toBeTruthy());
    expect(requests).toEqual([]);

    await user.upload(await input(), new File(['x'], 'a.csv'));
    await screen.findByRole('row', { name: /a\.csv.*100%/ });
    expect(ensureDraft).toHaveBeenCalledTimes(2);
  });

  it('speaks German', () => {
    serve();
    renderUploader({}, {}, 'de');
    expect(screen.getByRole('button', { name: 'Dateien auswählen' })).toBeTruthy();
    expect(screen.getByText('0 von 5 Dateien')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Nur Metadaten' }));
    expect(screen.getByText('Dieser Datensatz enthält nur Metadaten.')).toBeTruthy();
  });
});
