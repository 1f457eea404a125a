import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import type { TestApp } from '../../test/app.js';
import {
  createFilesTestApp,
  FilesApi,
  PUBLISHABLE_METADATA,
  type Caller,
} from '../../test/files.js';
import { expectError } from '../../test/assertions.js';

// What a zip or tar file holds, listed without sending the archive (InvenioRDM's container
// listing). The archives are written by Python's zipfile and tarfile, not by Cairn, so the
// listing reads what other tools make.

/** Runs a Python script that writes an archive into `dir`; the archive's bytes. */
async function python(dir: string, name: string, script: string): Promise<Buffer> {
  const path = join(dir, name);
  execFileSync('python3', ['-c', script, path]);
  return readFile(path);
}

const TREE = `
import sys, zipfile, tarfile, io, time
files = {'README.txt': b'read me\\n', 'raw/2024/station-1.csv': b'a,b\\n1,2\\n' * 100,
         'raw/2024/station-2.csv': b'a,b\\n3,4\\n', 'docs/': None}
`;

describe.each(ENGINES)('container listing on %s', (engine) => {
  let t: TestApp & { storeRoot: string };
  let owner: Caller;
  let api: FilesApi;
  let dir: string;

  beforeAll(async () => {
    t = await createFilesTestApp(engine, { CAIRN_FILES_MAX_PER_RECORD: '20' });
    owner = await t.user();
    api = new FilesApi(t, owner);
    dir = await mkdtemp(join(tmpdir(), 'cairn-container-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const expectedTree = [
    { key: 'README.txt', type: 'file', size: 8 },
    {
      key: 'raw',
      type: 'directory',
      entries: [
        {
          key: '2024',
          type: 'directory',
          entries: [
            { key: 'station-1.csv', type: 'file', size: 800 },
            { key: 'station-2.csv', type: 'file', size: 8 },
          ],
        },
      ],
    },
    { key: 'docs', type: 'directory', entries: [] },
  ];

  it('lists a zip, a tar and a tar.gz as the same tree, in the draft and once published', async () => {
    const zip = await python(
      dir,
      'data.zip',
      `${TREE}
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    for name, data in files.items():
        z.writestr(name, data if data is not None else b'')
`,
    );
    const tarScript = (mode: string) => `${TREE}
with tarfile.open(sys.argv[1], '${mode}') as t:
    for name, data in files.items():
        info = tarfile.TarInfo(name.rstrip('/'))
        info.mtime = 1700000000
        if data is None:
            info.type = tarfile.DIRTYPE
            t.addfile(info)
        else:
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
`;
    const tar = await python(dir, 'data.tar', tarScript('w'));
    const tgz = await python(dir, 'data.tar.gz', tarScript('w:gz'));

    const { id } = await api.createDraft();
    await api.upload(id, 'data.zip', zip);
    await api.upload(id, 'data.tar', tar);
    await api.upload(id, 'nested/data.tar.gz', tgz);

    for (const [key, format] of [
      ['data.zip', 'zip'],
      ['data.tar', 'tar'],
      ['nested/data.tar.gz', 'tar.gz'],
    ] as const) {
      const res = await api.get(`/api/records/${id}/draft/files/${key}/container`);
      expect(res.statusCode, res.body).toBe(200);
      const listing = res.json();
      expect(listing).toMatchObject({ key, format, truncated: false });
      expect(listing.total).toBe(4);
      expect(stripDates(listing.entries)).toEqual(expectedTree);
    }
    const tarListing = (await api.get(`/api/records/${id}/draft/files/data.tar/container`)).json();
    expect(tarListing.entries[0].modified).toBe('2023-11-14T22:13:20.000Z');

    await api.publish(id);
    const published = await api
      .as(undefined)
      .get(`/api/records/${id}/files/nested/data.tar.gz/container`);
    expect(published.statusCode, published.body).toBe(200);
    expect(stripDates(published.json().entries)).toEqual(expectedTree);
  });

  it('lists the first 1,000 entries of a larger archive and says how many there are', async () => {
    const zip = await python(
      dir,
      'many.zip',
      `
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    for i in range(1500):
        z.writestr(f'f{i:04}.txt', str(i))
`,
    );
    const { id } = await api.createDraft();
    await api.upload(id, 'many.zip', zip);
    const listing = (await api.get(`/api/records/${id}/draft/files/many.zip/container`)).json();
    expect(listing).toMatchObject({ format: 'zip', total: 1500, truncated: true });
    expect(listing.entries).toHaveLength(1000);
    expect(listing.entries[999]).toEqual(expect.objectContaining({ key: 'f0999.txt', size: 3 }));
  });

  it('refuses what is not an archive, or is a broken one, with a message', async () => {
    const { id } = await api.createDraft();
    await api.upload(id, 'table.csv', 'a,b\n1,2\n');
    await api.upload(id, 'fake.zip', 'this is not a zip file at all');
    await api.upload(id, 'fake.tar.gz', 'nor is this gzip');
    await api.init(id, [{ key: 'pending.zip' }]);
    const url = (key: string) => `/api/records/${id}/draft/files/${key}/container`;
    expectError(
      await api.get(url('table.csv')),
      400,
      'VALIDATION_FAILED',
      'File table.csv is not a zip or tar archive.',
    );
    for (const [key, format] of [
      ['fake.zip', 'zip'],
      ['fake.tar.gz', 'tar.gz'],
    ]) {
      const res = await api.get(url(key!));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toContain(`File ${key} cannot be read as a ${format} archive`);
    }
    expect((await api.get(url('pending.zip'))).statusCode).toBe(404);
    expect((await api.get(url('missing.zip'))).statusCode).toBe(404);
  });

  it('shows a restricted record’s archive only to those who may download its files', async () => {
    const zip = await python(
      dir,
      'secret.zip',
      `
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    z.writestr('inside.txt', 'secret')
`,
    );
    const { id } = await api.createDraft({
      metadata: PUBLISHABLE_METADATA,
      access: { record: 'public', files: 'restricted' },
    });
    await api.upload(id, 'secret.zip', zip);
    await api.publish(id);
    const path = `/api/records/${id}/files/secret.zip`;
    const stranger = api.as(await t.user());
    for (const who of [api.as(undefined), stranger]) {
      const content = await who.get(`${path}/content`);
      expect(content.statusCode).not.toBe(200);
      expect((await who.get(`${path}/container`)).statusCode).toBe(content.statusCode);
    }
    expect((await api.get(`${path}/container`)).json().entries).toEqual([
      expect.objectContaining({ key: 'inside.txt', size: 6 }),
    ]);
  });
});

function stripDates(entries: Array<Record<string, any>>): unknown[] {
  return entries.map(({ modified: _modified, entries: children, ...rest }) =>
    children ? { ...rest, entries: stripDates(children) } : rest,
  );
}
