import { MULTIPART_MAX_PART, planTransfer } from '@cairn/shared';
import Uppy from '@uppy/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../../api/client';
import { errorResponse, jsonResponse, stubFetch, type RecordedRequest } from '../../../test/fetch';
import { createLocalResumeStore, fingerprintOf, resumeKey } from './resume-store';
import { patternBytes, sendBytesWithFetch, twoPartResumeRecord } from './test-send-bytes';
import type { SendBytes } from './transport';
import type { EngineSettings, UploadEngine, UploadJob } from './upload-contract';
import { createUploadEngine, expiresOf, percentOf, uppyWindow } from './upload-engine';

const FILES = 'http://127.0.0.1:5000/api/records/r1/draft/files';
const FILES_PATH = '/api/records/r1/draft/files';
const MiB = 1024 ** 2;
const CSRF = { csrfCookieName: 'csrftoken', csrfHeaderName: 'X-CSRFToken' };

interface ServedFile {
  key: string;
  size: number;
  parts?: number;
  status: 'pending' | 'completed';
}

/**
 * Cairn's files API as far as the engine uses it, behind the stubbed `fetch`: init, content and
 * part PUTs, the file's self link, its parts listing (`received` as given), commit and delete.
 * `hold` lets a test keep a request waiting; `refuse` answers a request instead of the server.
 */
function filesApi(
  options: {
    hold?: (r: RecordedRequest) => Promise<void> | undefined;
    refuse?: (r: RecordedRequest) => Response | undefined;
    received?: Array<{ part: number; size: number; checksum: string }>;
    /** A batch's answer for this file instead of committing it. */
    refuseInBatch?: (key: string) => { status: number; message: string } | undefined;
  } = {},
) {
  const files = new Map<string, ServedFile>();
  const itemOf = (file: ServedFile) => {
    const self = `${FILES}/${encodeURIComponent(file.key)}`;
    return {
      key: file.key,
      size: file.size,
      status: file.status,
      links: {
        self,
        content: `${self}/content`,
        commit: `${self}/commit`,
        ...(file.parts
          ? {
              parts: Array.from({ length: file.parts }, (_, i) => ({
                part: i + 1,
                url: `${self}/content/${i + 1}`,
                expiration: '2999-01-01T00:00:00+00:00',
              })),
            }
          : {}),
      },
    };
  };
  const requests = stubFetch(async (r) => {
    await options.hold?.(r);
    const refusal = options.refuse?.(r);
    if (refusal) return refusal;
    if (r.method === 'POST' && r.url === FILES_PATH) {
      const entries = r.body as Array<{ key: string; size: number; transfer: { parts?: number } }>;
      // As the server: a batch with one name taken is refused whole.
      if (entries.some((entry) => files.has(entry.key))) return errorResponse('VALIDATION_FAILED');
      const created = entries.map((entry): ServedFile => ({
        key: entry.key,
        size: entry.size,
        status: 'pending',
        ...(entry.transfer.parts ? { parts: entry.transfer.parts } : {}),
      }));
      for (const file of created) files.set(file.key, file);
      return jsonResponse(201, { entries: created.map(itemOf) });
    }
    if (r.method === 'POST' && r.url === `${FILES_PATH}-upload`) {
      // As the server: each announced file committed with its content, the others refused.
      const listed = JSON.parse(r.form!.get('files') as string) as Array<{ key: string }>;
      const contents = r.form!.getAll('content');
      const entries = [];
      const errors = [];
      for (const [i, { key }] of listed.entries()) {
        const file = files.get(key);
        const refusal =
          options.refuseInBatch?.(key) ??
          (!file
            ? { status: 404, message: `File with key ${key} not found.` }
            : file.status !== 'pending' || !contents[i]
              ? { status: 400, message: `File with key "${key}" is already committed.` }
              : undefined);
        if (refusal) errors.push({ key, ...refusal });
        else {
          file!.status = 'completed';
          entries.push(itemOf(file!));
        }
      }
      return jsonResponse(200, { entries, errors });
    }
    const match =
      /^\/api\/records\/r1\/draft\/files\/([^/?]+)(?:\/(\w+))?(?:\/(\d+))?(\?commit=true)?$/.exec(
        r.url,
      );
    const file = match && files.get(decodeURIComponent(match[1]!));
    if (!match || !file) return errorResponse('NOT_FOUND');
    const action = `${r.method} ${match[2] ?? 'self'}`;
    if (action === 'GET self') return jsonResponse(200, itemOf(file));
    if (action === 'PUT content') {
      // `?commit=true` (Cairn's extension): committed with its content.
      if (match[4]) file.status = 'completed';
      return jsonResponse(200, itemOf(file));
    }
    if (action === 'GET parts')
      return jsonResponse(200, { key: file.key, received: options.received ?? [], missing: [] });
    if (action === 'POST commit') {
      file.status = 'completed';
      return jsonResponse(200, itemOf(file));
    }
    if (action === 'DELETE self') {
      files.delete(file.key);
      return new Response(null, { status: 204 });
    }
    throw new Error(`Unexpected request: ${r.method} ${r.url}`);
  });
  return { requests, files, add: (file: ServedFile) => files.set(file.key, file) };
}

/** The files API with its init held until the test calls `init.answer`. */
function filesApiHoldingInit() {
  const init: { answer?: () => void } = {};
  const server = filesApi({
    hold: (r) =>
      r.method === 'POST' && r.url === FILES_PATH
        ? new Promise<void>((resolve) => (init.answer = resolve))
        : undefined,
  });
  return { server, init };
}

/** Byte requests held until the test releases them (`waiting`), and the most held at once. */
function heldBytes() {
  const waiting: Array<() => void> = [];
  let inFlight = 0;
  let most = 0;
  const sendBytes: SendBytes = async (request) => {
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise<void>((resolve) => waiting.push(resolve));
    inFlight--;
    return sendBytesWithFetch(request);
  };
  return { waiting, sendBytes, peak: () => most };
}

const wire = (requests: RecordedRequest[]) => requests.map((r) => `${r.method} ${r.url}`);

const engines: UploadEngine[] = [];

/** An engine on the stubbed network, stopped after the test so none outlives it. */
function engineWith(overrides: Partial<EngineSettings> = {}): UploadEngine {
  const engine = createUploadEngine({
    api: new ApiClient(CSRF),
    sendBytes: sendBytesWithFetch,
    csrf: CSRF,
    concurrency: 3,
    retryDelaysMs: [0, 0, 0, 0],
    stallMs: 30_000,
    resumeStore: createLocalResumeStore(),
    ...overrides,
  });
  engines.push(engine);
  return engine;
}

function job(file: File, overrides: Partial<UploadJob> = {}): UploadJob {
  const plan = planTransfer(file.size, true);
  if (plan.type === 'too-large') throw new Error('too large');
  return {
    file,
    key: file.name,
    draftId: 'r1',
    filesLink: FILES,
    plan,
    onProgress: () => undefined,
    onCreated: () => undefined,
    ...overrides,
  };
}

const bytes = patternBytes;

/** The browser's resume store, remembering an interrupted two-part upload of `big.bin`. */
async function rememberingBig(file: File) {
  const store = createLocalResumeStore();
  store.put(
    resumeKey('r1', 'big.bin', 17 * MiB),
    await twoPartResumeRecord(file, `${FILES}/big.bin`),
  );
  return store;
}

beforeEach(() => window.localStorage.clear());
afterEach(() => {
  for (const engine of engines.splice(0)) engine.destroy();
});

describe('createUploadEngine', () => {
  it('hands Uppy a bounded window of files at a time, however many are started together', async () => {
    // Uppy copies its table of files on every change to one file: 10,000 at once took hours.
    const held: number[] = [];
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with Uppy's own `this`
    const real = Uppy.prototype.addFiles;
    const spy = vi.spyOn(Uppy.prototype, 'addFiles').mockImplementation(function (
      this: Uppy,
      files,
    ) {
      held.push(this.getFiles().length + files.length);
      real.call(this, files);
    });
    try {
      const server = filesApi();
      const engine = engineWith({ concurrency: 3 });
      const names = Array.from({ length: 200 }, (_, i) => `f${i}.csv`);
      const items = await Promise.all(
        names.map((name) => engine.upload(job(new File([name], name)))),
      );
      expect(items.map((item) => item.status)).toEqual(names.map(() => 'completed'));
      // Each committed by the PUT of its content: one request a file besides the inits.
      expect(wire(server.requests).filter((r) => r.endsWith('/content?commit=true'))).toHaveLength(
        200,
      );
      expect(wire(server.requests).filter((r) => r.endsWith('/commit'))).toHaveLength(0);
      expect(Math.max(...held)).toBe(uppyWindow(3));
      expect(held.length).toBeLessThan(200);
      // Each window's files are announced together, half a window at a time after the first.
      const inits = wire(server.requests).filter((r) => r === `POST ${FILES_PATH}`);
      expect(inits.length).toBeLessThanOrEqual(1 + Math.ceil((200 - 32) / 16));
    } finally {
      spy.mockRestore();
    }
  });

  it('never has more byte requests in flight than the concurrency allows, across files', async () => {
    const server = filesApi();
    const { waiting, sendBytes, peak } = heldBytes();
    const engine = engineWith({ concurrency: 2, sendBytes });
    const names = ['a.csv', 'b.csv', 'c.csv', 'd.csv'];
    const done = Promise.all(names.map((name) => engine.upload(job(new File(['x'], name)))));
    for (let released = 0; released < names.length;) {
      await vi.waitFor(() => expect(waiting).toHaveLength(2));
      released += waiting.length;
      for (const release of waiting.splice(0)) release();
    }
    const items = await done;
    expect(items.map((item) => item.status)).toEqual(names.map(() => 'completed'));
    expect(peak()).toBe(2);
    expect(wire(server.requests).filter((r) => r.startsWith('PUT'))).toHaveLength(4);
  });

  describe('small files in batches', () => {
    const BATCH = { files: 4, bytes: 1000, fileBytes: 100 };
    const posts = (server: ReturnType<typeof filesApi>) =>
      server.requests
        .filter((r) => r.url === `${FILES_PATH}-upload`)
        .map((r) =>
          (JSON.parse(r.form!.get('files') as string) as Array<{ key: string }>).map((f) => f.key),
        );

    it('sends small files many a request, each announced batch then its contents', async () => {
      const server = filesApi();
      const engine = engineWith({ batch: BATCH });
      const names = Array.from({ length: 10 }, (_, i) => `f${i}.csv`);
      const items = await Promise.all(
        names.map((name) => engine.upload(job(new File([name], name)))),
      );
      expect(items.map((item) => [item.key, item.status])).toEqual(
        names.map((n) => [n, 'completed']),
      );
      expect(posts(server)).toEqual([names.slice(0, 4), names.slice(4, 8), names.slice(8)]);
      // No request a file: three inits and three forms.
      expect(wire(server.requests).filter((r) => r.startsWith('PUT'))).toEqual([]);
      expect(wire(server.requests).filter((r) => r === `POST ${FILES_PATH}`)).toHaveLength(3);
      const form = server.requests.find((r) => r.form)!.form!;
      expect(await (form.getAll('content')[1] as File).text()).toBe('f1.csv');
    });

    it('keeps batches within the bytes a batch may carry, and larger files out of them', async () => {
      const server = filesApi();
      const engine = engineWith({ batch: BATCH });
      const files = [
        new File(['a'.repeat(90)], 'a.csv'),
        new File(['b'.repeat(90)], 'b.csv'),
        new File(['big'.repeat(100)], 'big.csv'),
      ];
      const items = await Promise.all(files.map((file) => engine.upload(job(file))));
      expect(items.every((item) => item.status === 'completed')).toBe(true);
      expect(posts(server)).toEqual([['a.csv', 'b.csv']]);
      expect(wire(server.requests)).toContain(`PUT ${FILES_PATH}/big.csv/content?commit=true`);

      const tight = filesApi();
      const engine2 = engineWith({ batch: { ...BATCH, bytes: 150 } });
      await Promise.all(
        ['c', 'd', 'e'].map((n) => engine2.upload(job(new File([n.repeat(90)], `${n}.csv`)))),
      );
      expect(posts(tight)).toEqual([['c.csv'], ['d.csv'], ['e.csv']]);
    });

    it('fails a file the batch refused with its reason; a busy one goes on alone', async () => {
      let busyOnce = true;
      const busy = filesApi({
        refuseInBatch: (key) => {
          if (key === 'refused.csv')
            return { status: 400, message: 'File size mismatch: refused.csv.' };
          if (key !== 'busy.csv' || !busyOnce) return undefined;
          busyOnce = false;
          return { status: 409, message: 'File with key "busy.csv" is being committed.' };
        },
      });
      const engine = engineWith({ batch: BATCH });
      const [ok, refused, waited] = await Promise.allSettled([
        engine.upload(job(new File(['x'], 'ok.csv'))),
        engine.upload(job(new File(['y'], 'refused.csv'))),
        engine.upload(job(new File(['z'], 'busy.csv'))),
      ]);
      expect(ok).toMatchObject({ status: 'fulfilled', value: { status: 'completed' } });
      expect(refused).toMatchObject({
        status: 'rejected',
        reason: { kind: 'http', status: 400, message: 'File size mismatch: refused.csv.' },
      });
      expect(waited).toMatchObject({ status: 'fulfilled', value: { status: 'completed' } });
      expect(wire(busy.requests)).toContain(`PUT ${FILES_PATH}/busy.csv/content?commit=true`);
    });

    it('sends each file alone when a batch fails, counting those it had committed', async () => {
      let lost = true;
      const server = filesApi();
      const realFetch = globalThis.fetch;
      // The batch commits every file, and its answer is lost on the way.
      vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
        const response = await realFetch(input, init);
        if (
          lost &&
          (input instanceof Request ? input.url : input.toString()).endsWith('/files-upload')
        ) {
          lost = false;
          return jsonResponse(502, { status: 502, message: 'Bad gateway' });
        }
        return response;
      });
      const engine = engineWith({ batch: BATCH });
      const items = await Promise.all(
        ['a.csv', 'b.csv'].map((n) => engine.upload(job(new File([n], n)))),
      );
      expect(items.map((item) => item.status)).toEqual(['completed', 'completed']);
      // Alone, each file's content goes again (a server refuses it as committed already, and
      // the engine reads it back committed: see the test of a lost answer above).
      expect(
        wire(server.requests)
          .filter((r) => r.startsWith('PUT'))
          .sort(),
      ).toEqual([
        `PUT ${FILES_PATH}/a.csv/content?commit=true`,
        `PUT ${FILES_PATH}/b.csv/content?commit=true`,
      ]);
    });

    it('deletes a file cancelled while its batch was on its way, once committed', async () => {
      let release: (() => void) | undefined;
      const server = filesApi({
        hold: (r) =>
          r.url === `${FILES_PATH}-upload`
            ? new Promise<void>((resolve) => (release = resolve))
            : undefined,
      });
      const onDeleted = vi.fn();
      const engine = engineWith({ batch: BATCH });
      const kept = engine.upload(job(new File(['x'], 'kept.csv')));
      const dropped = engine.upload(job(new File(['y'], 'dropped.csv'), { onDeleted }));
      await vi.waitFor(() => expect(release).toBeDefined());
      engine.cancel('dropped.csv');
      await expect(dropped).rejects.toMatchObject({ kind: 'aborted' });
      release!();
      expect(await kept).toMatchObject({ status: 'completed' });
      await vi.waitFor(() => expect(onDeleted).toHaveBeenCalledOnce());
      expect([...server.files.keys()]).toEqual(['kept.csv']);
    });

    it('keeps batches and single requests together within the concurrency', async () => {
      const server = filesApi();
      const { waiting, sendBytes, peak } = heldBytes();
      const engine = engineWith({ concurrency: 2, sendBytes, batch: { ...BATCH, files: 2 } });
      const files = [
        ...['a', 'b', 'c', 'd', 'e'].map((n) => new File([n], `${n}.csv`)),
        new File(['x'.repeat(200)], 'large1.csv'),
        new File(['y'.repeat(200)], 'large2.csv'),
        ...['f', 'g', 'h'].map((n) => new File([n], `${n}.csv`)),
      ];
      const done = Promise.all(files.map((file) => engine.upload(job(file))));
      let settled = false;
      void done.finally(() => (settled = true));
      while (!settled) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        for (const release of waiting.splice(0)) release();
      }
      const items = await done;
      expect(items.every((item) => item.status === 'completed')).toBe(true);
      expect(peak()).toBeLessThanOrEqual(2);
      expect(posts(server).flat().sort()).toEqual(
        ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((n) => `${n}.csv`),
      );
    });
  });

  it('sends a part again after a 5xx, then commits', async () => {
    let failed = false;
    const server = filesApi({
      refuse: (r) => {
        if (failed || r.method !== 'PUT' || !r.url.endsWith('/content/2')) return undefined;
        failed = true;
        return jsonResponse(503, { status: 503, message: 'Try again later.' });
      },
    });
    const engine = engineWith();
    const item = await engine.upload(job(new File([bytes(17 * MiB)], 'big.bin')));

    expect(item.status).toBe('completed');
    const puts = wire(server.requests).filter((r) => r.startsWith('PUT'));
    expect(puts.sort()).toEqual([
      `PUT ${FILES_PATH}/big.bin/content/1`,
      `PUT ${FILES_PATH}/big.bin/content/2`,
      `PUT ${FILES_PATH}/big.bin/content/2`,
    ]);
    expect(wire(server.requests).at(-1)).toBe(`POST ${FILES_PATH}/big.bin/commit`);
  });

  it('commits again while the server says the file is being committed (409), until it is done', async () => {
    let busy = 2;
    const server = filesApi({
      refuse: (r) => {
        if (r.method !== 'POST' || !r.url.endsWith('/commit') || busy === 0) return undefined;
        busy--;
        return errorResponse('CONFLICT', {
          message: 'File with key "big.bin" is being committed by another request.',
        });
      },
    });
    const engine = engineWith({ commitWaitMs: 0 });
    const item = await engine.upload(job(new File([bytes(17 * MiB)], 'big.bin')));

    expect(item.status).toBe('completed');
    expect(wire(server.requests).filter((r) => r.endsWith('/commit'))).toHaveLength(3);
  });

  it('refuses a plan whose parts exceed the largest part, before announcing the file', async () => {
    const server = filesApi();
    const file = new File([bytes(10)], 'huge.bin');
    const failure = engineWith()
      .upload(job(file, { plan: { type: 'M', parts: 2, partSize: MULTIPART_MAX_PART + 1 } }))
      .catch((error: unknown) => error);
    expect(await failure).toMatchObject({ reason: 'exceedsSize' });
    expect(server.requests).toEqual([]);
  });

  it('gives up a part the server keeps no link for, after asking for fresh links', async () => {
    const self = `${FILES}/big.bin`;
    // The file as the server describes it, on announcing and on re-reading: no part links.
    const linkless = {
      key: 'big.bin',
      status: 'pending',
      links: { self, commit: `${self}/commit` },
    };
    const server = filesApi({
      refuse: (r) => {
        if (r.method === 'POST' && r.url === FILES_PATH) {
          return jsonResponse(201, { entries: [linkless] });
        }
        if (r.method === 'GET' && r.url.endsWith('/big.bin')) return jsonResponse(200, linkless);
        return undefined;
      },
    });
    const failure = engineWith()
      .upload(job(new File([bytes(17 * MiB)], 'big.bin')))
      .catch((error: unknown) => error);
    expect(await failure).toMatchObject({ reason: 'invalidPartNumber' });
    expect(wire(server.requests)).toContain(`GET ${FILES_PATH}/big.bin`);
    expect(wire(server.requests).filter((r) => r.startsWith('PUT'))).toEqual([]);
  });

  it('uploads the same File under two keys at once, each as its own upload', async () => {
    const server = filesApi();
    const file = new File(['same bytes'], 'x.csv');
    const engine = engineWith();
    const items = await Promise.all([
      engine.upload(job(file, { key: 'a/x.csv' })),
      engine.upload(job(file, { key: 'b/x.csv' })),
    ]);
    expect(items.map((item) => [item.key, item.status])).toEqual([
      ['a/x.csv', 'completed'],
      ['b/x.csv', 'completed'],
    ]);
    expect(
      wire(server.requests)
        .filter((r) => r.startsWith('PUT'))
        .sort(),
    ).toEqual([
      `PUT ${FILES_PATH}/a%2Fx.csv/content?commit=true`,
      `PUT ${FILES_PATH}/b%2Fx.csv/content?commit=true`,
    ]);
    // And once more later: Uppy's memory of the earlier uploads of this File must not answer.
    const later = await engine.upload(job(file, { key: 'c/x.csv' }));
    expect([later.key, later.status]).toEqual(['c/x.csv', 'completed']);
    expect(wire(server.requests).at(-1)).toBe(`PUT ${FILES_PATH}/c%2Fx.csv/content?commit=true`);
  });

  it('sends an empty file as init and one empty PUT that commits it', async () => {
    const server = filesApi();
    const item = await engineWith().upload(job(new File([], 'empty.txt')));
    expect(item.status).toBe('completed');
    expect(wire(server.requests)).toEqual([
      `POST ${FILES_PATH}`,
      `PUT ${FILES_PATH}/empty.txt/content?commit=true`,
    ]);
  });

  it('commits with the contract when the content PUT answers the file still pending', async () => {
    // A server (or a proxy) that does not know the extension answers the PUT as InvenioRDM does.
    const server = filesApi({
      refuse: (r) =>
        r.method === 'PUT' && r.url.endsWith('?commit=true')
          ? jsonResponse(200, { key: 'a.csv', status: 'pending', links: {} })
          : undefined,
    });
    const item = await engineWith().upload(job(new File(['x'], 'a.csv')));
    expect(item.status).toBe('completed');
    expect(wire(server.requests)).toEqual([
      `POST ${FILES_PATH}`,
      `PUT ${FILES_PATH}/a.csv/content?commit=true`,
      `POST ${FILES_PATH}/a.csv/commit`,
    ]);
  });

  it('takes a file as committed when a content PUT whose answer was lost had committed it', async () => {
    const server = filesApi({
      refuse: (r) => {
        if (r.method !== 'PUT' || !r.url.endsWith('?commit=true')) return undefined;
        // The server committed the file; a proxy lost its answer.
        server.files.get('a.csv')!.status = 'completed';
        return new Response('Bad gateway', { status: 502 });
      },
    });
    const item = await engineWith().upload(job(new File(['x'], 'a.csv')));
    expect(item.status).toBe('completed');
    // Neither sent again nor committed twice: the entry says it is done.
    expect(wire(server.requests)).toEqual([
      `POST ${FILES_PATH}`,
      `PUT ${FILES_PATH}/a.csv/content?commit=true`,
      `GET ${FILES_PATH}/a.csv`,
    ]);
  });

  it('waits for the commit still running when a content PUT with commit answers 409', async () => {
    let conflicts = 0;
    const server = filesApi({
      refuse: (r) => {
        if (r.method === 'PUT' && r.url.endsWith('?commit=true'))
          return errorResponse('CONFLICT', { message: 'Being committed by another request.' });
        // The earlier attempt's commit is still running once, then has finished.
        if (r.method === 'POST' && r.url.endsWith('/commit') && conflicts++ === 0)
          return errorResponse('CONFLICT');
        return undefined;
      },
    });
    const item = await engineWith({ commitWaitMs: 0 }).upload(job(new File(['x'], 'a.csv')));
    expect(item.status).toBe('completed');
    expect(wire(server.requests)).toEqual([
      `POST ${FILES_PATH}`,
      `PUT ${FILES_PATH}/a.csv/content?commit=true`,
      `POST ${FILES_PATH}/a.csv/commit`,
      `POST ${FILES_PATH}/a.csv/commit`,
    ]);
  });

  it("fails with the server's reason when a content PUT with commit is refused", async () => {
    filesApi({
      refuse: (r) =>
        r.method === 'PUT' && r.url.endsWith('?commit=true')
          ? errorResponse('VALIDATION_FAILED', { message: 'Empty files are not accepted.' })
          : undefined,
    });
    await expect(engineWith().upload(job(new File([], 'empty.txt')))).rejects.toThrow(
      'Empty files are not accepted.',
    );
  });

  it('keeps apart files whose names differ only in case', async () => {
    filesApi();
    const engine = engineWith();
    const items = await Promise.all([
      engine.upload(job(new File(['a'], 'Data.csv'))),
      engine.upload(job(new File(['b'], 'data.csv'))),
    ]);
    expect(items.map((item) => [item.key, item.status])).toEqual([
      ['Data.csv', 'completed'],
      ['data.csv', 'completed'],
    ]);
  });

  it('deletes the entry of a file cancelled while the server was announcing it', async () => {
    const { server, init } = filesApiHoldingInit();
    const onCreated = vi.fn();
    const onDeleted = vi.fn();
    const engine = engineWith();
    const upload = engine.upload(job(new File(['x'], 'late.csv'), { onCreated, onDeleted }));
    await vi.waitFor(() => expect(init.answer).toBeDefined());

    engine.cancel('late.csv');
    await expect(upload).rejects.toMatchObject({ kind: 'aborted' });
    init.answer!();
    await vi.waitFor(() => expect(onDeleted).toHaveBeenCalledOnce());
    expect(onCreated).not.toHaveBeenCalled();
    expect(wire(server.requests)).toEqual([`POST ${FILES_PATH}`, `DELETE ${FILES_PATH}/late.csv`]);
    expect(server.files.size).toBe(0);
  });

  it('announces each file alone when the server refuses their batch, each hearing its own reason', async () => {
    const server = filesApi();
    const engine = engineWith();
    await engine.upload(job(new File(['first'], 'taken.csv')));

    const [fresh, taken] = await Promise.allSettled([
      engine.upload(job(new File(['a'], 'fresh.csv'))),
      engine.upload(job(new File(['b'], 'taken.csv'))),
    ]);
    expect(fresh).toMatchObject({ status: 'fulfilled', value: { status: 'completed' } });
    expect(taken).toMatchObject({ status: 'rejected' });
    const inits = server.requests
      .filter((r) => r.method === 'POST' && r.url === FILES_PATH)
      .map((r) => (r.body as Array<{ key: string }>).map((entry) => entry.key).join(' '));
    expect(inits.slice(0, 2)).toEqual(['taken.csv', 'fresh.csv taken.csv']);
    expect(inits.slice(2).sort()).toEqual(['fresh.csv', 'taken.csv']);
    expect([...server.files.keys()].sort()).toEqual(['fresh.csv', 'taken.csv']);
  });

  it('deletes the entry of a file cancelled while its batch was being announced', async () => {
    const { server, init } = filesApiHoldingInit();
    const onDeleted = vi.fn();
    const engine = engineWith();
    const kept = engine.upload(job(new File(['x'], 'kept.csv')));
    const dropped = engine.upload(job(new File(['y'], 'dropped.csv'), { onDeleted }));
    await vi.waitFor(() => expect(init.answer).toBeDefined());

    engine.cancel('dropped.csv');
    await expect(dropped).rejects.toMatchObject({ kind: 'aborted' });
    init.answer!();
    expect(await kept).toMatchObject({ status: 'completed' });
    await vi.waitFor(() => expect(onDeleted).toHaveBeenCalledOnce());
    const deletes = wire(server.requests).filter((r) => r.startsWith('DELETE'));
    expect(deletes).toEqual([`DELETE ${FILES_PATH}/dropped.csv`]);
    expect([...server.files.keys()]).toEqual(['kept.csv']);
  });

  it('leaves what reached the server when stopped, ready to resume', async () => {
    const server = filesApi({
      hold: (r) =>
        r.method === 'PUT' && r.url.endsWith('/content/2')
          ? new Promise(() => undefined)
          : undefined,
    });
    const store = createLocalResumeStore();
    const engine = engineWith({ resumeStore: store });
    const file = new File([bytes(17 * MiB)], 'big.bin');
    const upload = engine.upload(job(file));
    await vi.waitFor(() =>
      expect(wire(server.requests)).toContain(`PUT ${FILES_PATH}/big.bin/content/2`),
    );

    engine.destroy();
    await expect(upload).rejects.toMatchObject({ kind: 'aborted' });
    expect(wire(server.requests).some((r) => r.startsWith('DELETE'))).toBe(false);
    expect(server.files.get('big.bin')?.status).toBe('pending');
    expect(store.get(resumeKey('r1', 'big.bin', 17 * MiB))).toMatchObject({
      self: `${FILES}/big.bin`,
      parts: 2,
      partSize: 16 * MiB,
      fingerprint: await fingerprintOf(file),
    });
  });

  it('sends again a received part whose bytes differ from the local ones', async () => {
    const file = new File([bytes(17 * MiB)], 'big.bin');
    const server = filesApi({
      received: [
        // Part 1 of another file (its MD5 differs), part 2 of this one (its MD5 matches).
        { part: 1, size: 16 * MiB, checksum: 'md5:00000000000000000000000000000000' },
        { part: 2, size: 1 * MiB, checksum: 'md5:3f2c8bd9cfde6550fdff4b36617c3261' },
      ],
    });
    server.add({ key: 'big.bin', size: 17 * MiB, parts: 2, status: 'pending' });
    const store = await rememberingBig(file);
    const onResumed = vi.fn();
    const engine = engineWith({ resumeStore: store });
    const item = await engine.upload(job(file, { onResumed }));

    expect(item.status).toBe('completed');
    expect(onResumed).toHaveBeenCalledWith(1);
    expect(wire(server.requests)).toEqual([
      `GET ${FILES_PATH}/big.bin`,
      `GET ${FILES_PATH}/big.bin/parts`,
      `PUT ${FILES_PATH}/big.bin/content/1`,
      `POST ${FILES_PATH}/big.bin/commit`,
    ]);
    expect(store.get(resumeKey('r1', 'big.bin', 17 * MiB))).toBeUndefined();
  });

  it('reports the bytes the server holds: the listed parts, then each part sent', async () => {
    const file = new File([bytes(17 * MiB)], 'big.bin', { lastModified: 1_700_000_000_000 });
    const server = filesApi({
      received: [{ part: 1, size: 16 * MiB, checksum: 'md5:86cf57f926ca2598ddf451bb3375ac32' }],
    });
    server.add({ key: 'big.bin', size: 17 * MiB, parts: 2, status: 'pending' });
    const store = await rememberingBig(file);
    const onSafe = vi.fn();
    await engineWith({ resumeStore: store }).upload(job(file, { onSafe }));

    expect(onSafe.mock.calls.map(([safe]) => safe as number)).toEqual([16 * MiB, 17 * MiB]);
  });

  it('refuses to resume from a file of the same name and size modified since, sending nothing', async () => {
    const before = new File([bytes(17 * MiB)], 'big.bin', { lastModified: 1_700_000_000_000 });
    const after = new File([bytes(17 * MiB)], 'big.bin', { lastModified: 1_700_000_060_000 });
    const server = filesApi();
    server.add({ key: 'big.bin', size: 17 * MiB, parts: 2, status: 'pending' });
    const store = await rememberingBig(before);
    const key = resumeKey('r1', 'big.bin', 17 * MiB);
    const upload = engineWith({ resumeStore: store }).upload(job(after));

    await expect(upload).rejects.toMatchObject({ reason: 'differentFile' });
    expect(wire(server.requests)).toEqual([`GET ${FILES_PATH}/big.bin`]);
    // The interrupted upload stays, for the right file.
    expect(server.files.get('big.bin')?.status).toBe('pending');
    expect(store.get(key)).toBeDefined();
  });
});

describe('percentOf', () => {
  it('gives whole percent, rounded down, and 100 for an empty file', () => {
    expect(percentOf(999, 1000)).toBe(99);
    expect(percentOf(1000, 1000)).toBe(100);
    expect(percentOf(0, 0)).toBe(100);
  });
});

describe('expiresOf', () => {
  it("reads a presigned URL's lifetime in seconds (the time-out is expires × 1000)", () => {
    expect(
      expiresOf('https://s3.example/b/k?partNumber=1&X-Amz-Expires=900&X-Amz-Signature=x'),
    ).toBe(900);
    expect(
      expiresOf('http://127.0.0.1:5000/api/records/x/draft/files/a/content/1'),
    ).toBeUndefined();
  });
});
