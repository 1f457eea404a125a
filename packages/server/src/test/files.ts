import crypto from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Engine } from '../database/database.js';
import { createTestApp, type TestApp, type TestAppOptions } from './app.js';

export type Caller = Awaited<ReturnType<TestApp['user']>>;

/** Metadata a draft can be published with. */
export const PUBLISHABLE_METADATA = {
  title: 'Sediment cores',
  publication_date: '2024-05-01',
  resource_type: { id: 'dataset' },
  creators: [{ person_or_org: { type: 'personal', family_name: 'Curie', given_name: 'Marie' } }],
};

export const md5 = (bytes: Buffer | string): string =>
  crypto.createHash('md5').update(bytes).digest('hex');

/** The test app with a store folder of its own, so its sweeps and listings see only its bytes. */
export async function createFilesTestApp(
  engine: Engine,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp & { storeRoot: string }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cairn-files-'));
  const t = await createTestApp(engine, { CAIRN_DATA_DIR: dataDir, ...env }, {}, options);
  if (t.config.storage.kind !== 'local') throw new Error('files tests need the local store');
  const storeRoot = t.config.storage.root;
  const close = t.close.bind(t);
  return Object.assign(t, {
    storeRoot,
    async close() {
      await close();
      await rm(dataDir, { recursive: true, force: true });
    },
  });
}

/**
 * Every file under the store's folder, relative and sorted: objects (`uploads/…`), multipart
 * uploads (`.multipart/<id>/…`) and temporary files (`.tmp/…`), so a test sees every byte left.
 */
export async function storedFiles(root: string): Promise<string[]> {
  try {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Part links carry a fresh expiration on every read; a snapshot must not see that as a change. */
function withoutExpirations(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutExpirations);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'expiration')
      .map(([k, v]) => [k, withoutExpirations(v)]),
  );
}

/** The draft files API as one caller (anonymous when `caller` is undefined) sees it. */
export class FilesApi {
  constructor(
    private readonly t: TestApp,
    readonly caller?: Caller,
  ) {}

  private get headers(): Record<string, string> {
    return this.caller?.headers ?? {};
  }

  as(caller?: Caller): FilesApi {
    return new FilesApi(this.t, caller);
  }

  /** A new draft of the caller (201 expected). */
  async createDraft(
    body: object = { metadata: PUBLISHABLE_METADATA },
  ): Promise<{ id: string; revision_id: number }> {
    const res = await this.t.request({
      method: 'POST',
      url: '/api/records',
      headers: this.headers,
      body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; revision_id: number }>();
  }

  /** A published record titled `title`, without files; its id. */
  async publishedRecord(title: string): Promise<string> {
    const { id } = await this.createDraft({
      metadata: { ...PUBLISHABLE_METADATA, title },
      files: { enabled: false },
    });
    await this.publish(id);
    return id;
  }

  init(id: string, entries: object | string): Promise<LightMyRequestResponse> {
    return this.t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files`,
      headers: this.headers,
      body: entries,
    });
  }

  put(
    id: string,
    key: string,
    bytes: Buffer | string,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    return this.t.app.inject({
      method: 'PUT',
      url: `/api/records/${id}/draft/files/${key}/content`,
      headers: { ...this.headers, 'content-type': 'application/octet-stream', ...headers },
      payload: bytes,
    });
  }

  putPart(id: string, key: string, part: number | string, bytes: Buffer | string) {
    return this.t.app.inject({
      method: 'PUT',
      url: `/api/records/${id}/draft/files/${key}/content/${part}`,
      headers: { ...this.headers, 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
  }

  commit(id: string, key: string): Promise<LightMyRequestResponse> {
    return this.t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files/${key}/commit`,
      headers: this.headers,
    });
  }

  delete(id: string, key?: string): Promise<LightMyRequestResponse> {
    return this.t.request({
      method: 'DELETE',
      url: `/api/records/${id}/draft/files${key === undefined ? '' : `/${key}`}`,
      headers: this.headers,
    });
  }

  get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.t.request({ method: 'GET', url, headers: { ...this.headers, ...headers } });
  }

  /** Init, content and commit of one file in one request, each expected to succeed. */
  async upload(id: string, key: string, bytes: Buffer | string): Promise<Record<string, any>> {
    const init = await this.init(id, [{ key }]);
    expect(init.statusCode, init.body).toBe(201);
    const put = await this.put(id, key, bytes);
    expect(put.statusCode, put.body).toBe(200);
    const commit = await this.commit(id, key);
    expect(commit.statusCode, commit.body).toBe(200);
    return commit.json();
  }

  /** `keys` announced in one init, then each sent and committed, each expected to succeed. */
  async uploadAll(
    id: string,
    keys: string[],
    content = (key: string): string => `${key}\n`,
  ): Promise<void> {
    const init = await this.init(
      id,
      keys.map((key) => ({ key })),
    );
    expect(init.statusCode, init.body).toBe(201);
    for (const key of keys) {
      expect((await this.put(id, key, content(key))).statusCode).toBe(200);
      expect((await this.commit(id, key)).statusCode).toBe(200);
    }
  }

  async publish(id: string): Promise<Record<string, any>> {
    const res = await this.t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/actions/publish`,
      headers: this.headers,
    });
    expect(res.statusCode, res.body).toBe(202);
    return res.json();
  }

  /** The draft as its owner reads it. */
  async draft(id: string): Promise<Record<string, any>> {
    const res = await this.get(`/api/records/${id}/draft`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  /** What a failed request must leave alone: the files list and the draft's revision. */
  async snapshot(id: string): Promise<{ files: unknown; revision: number }> {
    const files = await this.get(`/api/records/${id}/draft/files`);
    expect(files.statusCode, files.body).toBe(200);
    return {
      files: withoutExpirations(files.json()),
      revision: (await this.draft(id)).revision_id as number,
    };
  }
}
