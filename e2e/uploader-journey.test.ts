import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { addCreator, DRAFT_PATH, publishFromEditor } from './support/deposit.js';
import { activate, expectVisibleFocus, hasFocus, tabTo } from './support/keyboard.js';
import { createAccount, type TestAccount } from './support/server.js';
import { expectPath, test } from './support/test.js';

const MiB = 1024 * 1024;
let dir = '';

/** A file of `size` bytes whose content depends on `seed`, so two files never share parts. */
async function makeFile(name: string, size: number, seed: number): Promise<string> {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i += 4) bytes.writeUInt32LE((i * 2654435761 + seed) >>> 0, i);
  const file = path.join(dir, name);
  await fs.writeFile(file, bytes);
  return file;
}

/** The names in a zip's central directory, in its order. */
function zipNames(zip: Buffer): string[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const names: string[] = [];
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
    const nameLength = zip.readUInt16LE(at + 28);
    names.push(zip.subarray(at + 46, at + 46 + nameLength).toString('utf8'));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return names;
}

/**
 * Writes `makeFile`'s bytes into the page's origin private file system and returns nothing:
 * its handles are real FileSystemFileHandles, as Chromium's pickers give.
 */
async function makeOpfsFile(page: Page, filePath: string, size: number, seed: number) {
  await page.evaluate(
    async ({ filePath, size, seed }) => {
      const bytes = new Uint8Array(size);
      const view = new DataView(bytes.buffer);
      for (let i = 0; i < size; i += 4) view.setUint32(i, (i * 2654435761 + seed) >>> 0, true);
      let folder = await navigator.storage.getDirectory();
      const names = filePath.split('/');
      const name = names.pop()!;
      for (const segment of names)
        folder = await folder.getDirectoryHandle(segment, { create: true });
      const writable = await (await folder.getFileHandle(name, { create: true })).createWritable();
      await writable.write(bytes);
      await writable.close();
    },
    { filePath, size, seed },
  );
}

/**
 * Chromium's pickers as a person would answer them: the file picker gives `files`, the folder
 * picker `folder`, all from the origin private file system. (The real pickers cannot be
 * answered from Playwright; the app calls these exactly as it calls them.)
 */
async function answerPickers(page: Page, files: string[], folder: string): Promise<void> {
  await page.evaluate(
    ({ files, folder }) => {
      const pickers = window as unknown as Record<string, unknown>;
      pickers.showOpenFilePicker = async () => {
        const root = await navigator.storage.getDirectory();
        return Promise.all(files.map((name) => root.getFileHandle(name)));
      };
      pickers.showDirectoryPicker = async () =>
        (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
    },
    { files, folder },
  );
}

async function md5Of(file: string): Promise<string> {
  return `md5:${createHash('md5')
    .update(await fs.readFile(file))
    .digest('hex')}`;
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-uploads-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function logIn(page: Page, account: TestAccount): Promise<void> {
  await page.goto('/login?next=%2Fuploads%2Fnew');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'New upload', level: 1 }).waitFor();
}

async function fillDraft(page: Page, title: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  await addCreator(page, 'Franklin', 'Rosalind');
  await page.getByRole('textbox', { name: 'Publication date', exact: true }).fill('1952-05-06');
  await page.getByRole('combobox', { name: 'Resource type', exact: true }).click();
  await page.getByRole('option', { name: 'Dataset', exact: true }).click();
}

/** Picks files through the "Choose files" button, operated from the keyboard. */
async function chooseFiles(page: Page, files: string[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose files' }).focus();
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(files);
}

/** A file's row: the table shows a file in a folder by its own name, under its folder's row. */
function fileRow(page: Page, name: string) {
  return page.getByRole('row').filter({ hasText: name.split('/').pop()! });
}

/** Opens the folders above `key` in the editor's tree (they start closed), top down. */
async function openFoldersOf(page: Page, key: string): Promise<void> {
  const segments = key.split('/').slice(0, -1);
  for (let depth = 1; depth <= segments.length; depth++) {
    const path = `${segments.slice(0, depth).join('/')}/`;
    const folder = page.getByRole('button', { name: `Folder ${path}`, exact: true });
    await folder.waitFor({ timeout: 60_000 });
    if ((await folder.getAttribute('aria-expanded')) !== 'true') await folder.click();
  }
}

async function waitUploaded(page: Page, name: string): Promise<void> {
  await fileRow(page, name).getByRole('link', { name, exact: true }).waitFor({ timeout: 60_000 });
  await fileRow(page, name).getByText('100%').waitFor();
}

/** The API as the page's own session (cookies and CSRF), as the app itself calls it. */
async function apiGet(page: Page, url: string): Promise<Record<string, unknown>> {
  return page.evaluate(async (target) => {
    const response = await fetch(target, { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`${target}: ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  }, url);
}

/** A file's bytes as text, read with the page's own session. */
async function apiText(page: Page, url: string): Promise<string> {
  return page.evaluate(async (target) => {
    const response = await fetch(target);
    if (!response.ok) throw new Error(`${target}: ${response.status}`);
    return response.text();
  }, url);
}

function draftIdOf(page: Page): string {
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
}

describe('file uploader journey', () => {
  test('three files, one of 20 MiB sent in parts, are uploaded and published', async ({
    page,
    server,
  }) => {
    const small = await makeFile('readme.txt', 2_000, 1);
    const medium = await makeFile('counts.csv', 3 * MiB, 2);
    const big = await makeFile('diffraction.bin', 20 * MiB, 3);
    const account = await createAccount(server.services);
    await logIn(page, account);
    await fillDraft(page, 'Photo 51 diffraction data');

    const puts: Request[] = [];
    const commits: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().includes('/draft/files/')) puts.push(request);
      if (request.method() === 'POST' && request.url().endsWith('/commit'))
        commits.push(request.url());
    });
    await chooseFiles(page, [small, medium, big]);
    await expectPath(page, DRAFT_PATH);
    for (const name of ['readme.txt', 'counts.csv', 'diffraction.bin'])
      await waitUploaded(page, name);

    // 20 MiB is two parts of 16 MiB and 4 MiB (the shared chunk rule), each with its Content-MD5.
    const parts = puts.filter((r) => /\/diffraction\.bin\/content\/\d+$/.test(r.url()));
    expect(parts.map((r) => r.url().split('/').pop()).sort()).toEqual(['1', '2']);
    for (const part of parts)
      expect(part.headers()['content-md5']).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    // A file in one piece is committed by the PUT of its content: no commit of its own.
    expect(puts.filter((r) => r.url().endsWith('/readme.txt/content?commit=true'))).toHaveLength(1);
    expect(commits.filter((url) => url.includes('/readme.txt/'))).toEqual([]);
    expect(commits.filter((url) => url.includes('/diffraction.bin/'))).toHaveLength(1);
    await page.getByText('3 out of 5 files').waitFor();
    await page.getByText('24.1 MB out of 10 GB').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    const id = draftIdOf(page);
    await page.getByRole('radio', { name: 'Preview counts.csv' }).check();
    await publishFromEditor(page);
    await expectPath(page, `/records/${id}`);

    const files = (await apiGet(page, `/api/records/${id}/files`)) as {
      default_preview?: string;
      entries: Array<{ key: string; checksum: string; size: number }>;
    };
    const byKey = Object.fromEntries(files.entries.map((e) => [e.key, e]));
    expect(byKey['readme.txt']?.checksum).toBe(await md5Of(small));
    expect(byKey['counts.csv']?.checksum).toBe(await md5Of(medium));
    expect(byKey['diffraction.bin']).toMatchObject({ size: 20 * MiB, checksum: await md5Of(big) });
    expect(files.default_preview).toBe('counts.csv');
  });

  test('an upload interrupted by a reload resumes, sending only the missing part', async ({
    page,
    server,
  }) => {
    // 40 MiB: parts of 16, 16 and 8 MiB.
    const big = await makeFile('survey.bin', 40 * MiB, 4);
    const account = await createAccount(server.services);
    await logIn(page, account);
    await fillDraft(page, 'A survey sent twice');

    // The last part hangs, as on a dropped connection, while the first two arrive.
    const held: Route[] = [];
    await page.route('**/draft/files/survey.bin/content/3', (route) => {
      held.push(route);
    });
    const arrived: string[] = [];
    page.on('response', (response) => {
      if (/\/survey\.bin\/content\/\d$/.test(response.url()) && response.ok())
        arrived.push(response.url().split('/').pop()!);
    });
    await chooseFiles(page, [big]);
    await expect.poll(() => arrived.sort(), { timeout: 60_000 }).toEqual(['1', '2']);
    const id = draftIdOf(page);

    // Leaving during an upload asks first.
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.type());
      void dialog.accept();
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Edit upload', level: 1 }).waitFor();
    // The held request died with the page it belonged to.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    expect(held).toHaveLength(1);
    expect(dialogs).toEqual(['beforeunload']);
    // A file chosen through the input left no handle: the row names the file to choose again.
    await fileRow(page, 'survey.bin')
      .getByText('Upload interrupted. To resume it, choose survey.bin (41.9 MB) again.')
      .waitFor();
    await fileRow(page, 'survey.bin').getByText('33.6 MB of 41.9 MB safe on the server').waitFor();
    expect(await page.getByRole('region', { name: 'Interrupted uploads' }).count()).toBe(0);

    const listing = (await apiGet(page, `/api/records/${id}/draft/files/survey.bin/parts`)) as {
      received: Array<{ part: number }>;
      missing: number[];
    };
    expect(listing.received.map((p) => p.part)).toEqual([1, 2]);
    expect(listing.missing).toEqual([3]);

    const sent: string[] = [];
    page.on('request', (request) => {
      if (
        request.method() === 'PUT' ||
        request.method() === 'POST' ||
        request.method() === 'DELETE'
      )
        sent.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await chooseFiles(page, [big]);
    await waitUploaded(page, 'survey.bin');
    await page.getByText('Resumed: 2 parts were already uploaded.').waitFor();
    const base = `/api/records/${id}/draft/files/survey.bin`;
    expect(sent).toEqual([`PUT ${base}/content/3`, `POST ${base}/commit`]);

    const file = (await apiGet(page, base)) as { checksum: string; size: number };
    expect(file).toMatchObject({ size: 40 * MiB, checksum: await md5Of(big) });
  });

  test('expired part links are replaced from the file, and a part refused with 503 is sent again', async ({
    page,
    server,
  }) => {
    // 36 MiB: parts of 16, 16 and 4 MiB.
    const file = await makeFile('retried.bin', 36 * MiB, 5);
    const account = await createAccount(server.services);
    await logIn(page, account);
    await fillDraft(page, 'Links that age');

    // The announcement's part links arrive already expired, at addresses never to be used.
    await page.route('**/api/records/*/draft/files', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      const response = await route.fetch();
      const body = (await response.json()) as {
        entries: Array<{ links: { parts?: Array<{ url: string; expiration?: string }> } }>;
      };
      for (const part of body.entries[0]?.links.parts ?? []) {
        part.url = `${part.url}?stale=1`;
        part.expiration = '2000-01-01T00:00:00+00:00';
      }
      await route.fulfill({ response, json: body });
    });
    // The first attempt of part 2 meets an unavailable server.
    let refused = 0;
    await page.route('**/draft/files/retried.bin/content/2', async (route) => {
      if (refused > 0) return route.fallback();
      refused++;
      await route.fulfill({ status: 503, json: { status: 503, message: 'Try again later.' } });
    });
    const seen: string[] = [];
    page.on('request', (request) => {
      const { pathname, search } = new URL(request.url());
      if (pathname.includes('/draft/files/retried.bin'))
        seen.push(`${request.method()} ${pathname.replace(/^.*\/draft\/files\//, '')}${search}`);
    });

    await chooseFiles(page, [file]);
    await waitUploaded(page, 'retried.bin');

    // The file's self link was read for fresh links before any part was sent.
    expect(seen.indexOf('GET retried.bin')).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf('GET retried.bin')).toBeLessThan(
      seen.findIndex((r) => r.startsWith('PUT')),
    );
    const puts = seen.filter((r) => r.startsWith('PUT'));
    expect(puts.sort()).toEqual([
      'PUT retried.bin/content/1',
      'PUT retried.bin/content/2',
      'PUT retried.bin/content/2',
      'PUT retried.bin/content/3',
    ]);
    expect(refused).toBe(1);
    const id = draftIdOf(page);
    const stored = (await apiGet(page, `/api/records/${id}/draft/files/retried.bin`)) as {
      checksum: string;
      status: string;
    };
    expect(stored).toMatchObject({ status: 'completed', checksum: await md5Of(file) });
  });

  test('a folder chosen from the keyboard keeps its paths, shows as a tree, and a folder of it downloads as a zip', async ({
    page,
    server,
  }) => {
    const folder = path.join(dir, 'survey');
    await fs.mkdir(path.join(folder, 'raw', '2024'), { recursive: true });
    await fs.mkdir(path.join(folder, 'raw', '2023'), { recursive: true });
    await fs.writeFile(path.join(folder, 'README.txt'), 'Counts from two stations.\n');
    await fs.writeFile(path.join(folder, 'raw', '2023', 'notes.txt'), 'Fog all week.\n');
    await fs.writeFile(path.join(folder, 'raw', '2024', 'station-1.csv'), 'site,count\nA,1\n');
    await fs.writeFile(path.join(folder, 'raw', '2024', 'station-2.csv'), 'site,count\nB,2\n');
    const account = await createAccount(server.services);
    await logIn(page, account);
    await fillDraft(page, 'A survey in folders');

    const sent: string[] = [];
    page.on('request', (request) => {
      if (/\/draft\/files(-upload|\/.*\/content.*)$/.test(request.url()))
        sent.push(
          `${request.method()} ${new URL(request.url()).pathname.replace(/^.*\/draft\//, '')}`,
        );
    });
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose a folder' }).focus();
    await page.keyboard.press('Enter');
    await (await chooser).setFiles(folder);
    const keys = [
      'survey/README.txt',
      'survey/raw/2023/notes.txt',
      'survey/raw/2024/station-1.csv',
      'survey/raw/2024/station-2.csv',
    ];

    // The editor's tree: one folder with the count, size and progress of all four files.
    const editor = page.getByRole('table', { name: 'Files of this upload' });
    const survey = editor.getByRole('button', { name: 'Folder survey/', exact: true });
    const surveyRow = editor
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: 'Folder survey/', exact: true }) });
    await surveyRow.getByText('100%', { exact: true }).waitFor({ timeout: 60_000 });
    expect(await surveyRow.textContent()).toContain('survey/4 files');
    await tabTo(page, survey);
    await page.keyboard.press('ArrowRight');
    expect(await survey.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    const raw = editor.getByRole('button', { name: 'Folder survey/raw/', exact: true });
    expect(await hasFocus(raw)).toBe(true);
    await expectVisibleFocus(page);
    expect(
      await editor
        .getByRole('row')
        .filter({ has: page.getByRole('button', { name: 'Folder survey/raw/', exact: true }) })
        .textContent(),
    ).toContain('raw/3 files');
    await page.keyboard.press('Enter');
    await editor.getByRole('button', { name: 'Folder survey/raw/2024/', exact: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    const id = draftIdOf(page);
    const listed = (await apiGet(page, `/api/records/${id}/draft/files`)) as {
      entries: Array<{ key: string; size: number; status: string }>;
    };
    expect(listed.entries.map((e) => e.key).sort()).toEqual(keys);
    expect(listed.entries.every((e) => e.status === 'completed')).toBe(true);
    // The folder's small files went together, in one form, not a request each; each file holds
    // its own bytes.
    expect(sent).toEqual(['POST files-upload']);
    expect(
      await apiText(page, `/api/records/${id}/draft/files/survey/raw/2023/notes.txt/content`),
    ).toBe('Fog all week.\n');
    await publishFromEditor(page);
    await expectPath(page, `/records/${id}`);

    // The landing page's tree, walked from the keyboard alone.
    const files = page.getByRole('region', { name: 'Files' });
    const tree = files.getByRole('table', { name: 'Files' });
    const top = tree.getByRole('button', { name: 'Folder survey/', exact: true });
    await tabTo(page, top);
    await page.keyboard.press('Enter');
    expect(await top.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    const landingRaw = tree.getByRole('button', { name: 'Folder survey/raw/', exact: true });
    expect(await hasFocus(landingRaw)).toBe(true);
    await page.keyboard.press(' ');
    expect(await landingRaw.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const y2024 = tree.getByRole('button', { name: 'Folder survey/raw/2024/', exact: true });
    expect(await hasFocus(y2024)).toBe(true);
    await page.keyboard.press('ArrowRight');
    await tree.getByRole('link', { name: 'survey/raw/2024/station-2.csv' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // The folder's zip holds its two files under their paths, and nothing else.
    const zip = tree.getByRole('link', { name: 'Download folder (zip): survey/raw/2024/' });
    expect(await zip.getAttribute('href')).toBe(
      `/api/records/${id}/files-archive?prefix=survey/raw/2024/`,
    );
    const download = page.waitForEvent('download');
    await activate(page, zip);
    const saved = await (await download).path();
    expect(zipNames(await fs.readFile(saved)).sort()).toEqual([
      'survey/raw/2024/station-1.csv',
      'survey/raw/2024/station-2.csv',
    ]);

    // Filtered by name, then by type: the folders holding matches open by themselves.
    const filter = files.getByRole('searchbox', { name: 'Filter by name or folder' });
    await filter.fill('STATION-2');
    await tree.getByRole('link', { name: 'survey/raw/2024/station-2.csv' }).waitFor();
    expect(await tree.getByRole('link', { name: 'survey/raw/2024/station-1.csv' }).count()).toBe(0);
    await filter.fill('');
    await files
      .getByRole('combobox', { name: 'Type' })
      .selectOption({ label: '.txt, text/plain (2)' });
    await tree.getByRole('link', { name: 'survey/raw/2023/notes.txt' }).waitFor();
    await tree.getByRole('link', { name: 'survey/README.txt' }).waitFor();
    expect(
      await tree.getByRole('button', { name: 'Folder survey/raw/2024/', exact: true }).count(),
    ).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    // An editor, a publication and a landing page walked key by key: longer than one page's.
  }, 180_000);

  test('uploads of files and folders chosen with handles resume with one click after a reload', async ({
    page,
    server,
  }) => {
    // 40 MiB in a folder (parts of 16, 16 and 8 MiB) and 34 MiB alone (16, 16 and 2 MiB).
    const scan = await makeFile('scan.bin', 40 * MiB, 6);
    const photo = await makeFile('photo.bin', 34 * MiB, 7);
    const account = await createAccount(server.services);
    await logIn(page, account);
    await fillDraft(page, 'Scans kept by handle');
    await makeOpfsFile(page, 'survey/raw/scan.bin', 40 * MiB, 6);
    await makeOpfsFile(page, 'survey/README.txt', 100, 8);
    await makeOpfsFile(page, 'photo.bin', 34 * MiB, 7);
    await answerPickers(page, ['photo.bin'], 'survey');

    // The last part of each big file hangs, as on a dropped connection.
    const held: Route[] = [];
    await page.route(
      (url) => /\/(scan|photo)\.bin\/content\/3$/.test(url.pathname),
      (route) => {
        held.push(route);
      },
    );
    const arrived: string[] = [];
    page.on('response', (response) => {
      const match = /\/(scan|photo)\.bin\/content\/(\d)$/.exec(new URL(response.url()).pathname);
      if (match && response.ok()) arrived.push(`${match[1]} ${match[2]}`);
    });
    // Chosen from the keyboard: the file, then the folder.
    for (const button of ['Choose files', 'Choose a folder']) {
      await page.getByRole('button', { name: button }).focus();
      await page.keyboard.press('Enter');
    }
    await openFoldersOf(page, 'survey/README.txt');
    await waitUploaded(page, 'survey/README.txt');
    await expect
      .poll(() => arrived.sort(), { timeout: 60_000 })
      .toEqual(['photo 1', 'photo 2', 'scan 1', 'scan 2']);
    await fileRow(page, 'photo.bin').getByText('33.6 MB of 35.7 MB safe on the server').waitFor();
    const id = draftIdOf(page);

    page.on('dialog', (dialog) => void dialog.accept());
    await page.reload();
    await page.getByRole('heading', { name: 'Edit upload', level: 1 }).waitFor();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    expect(held).toHaveLength(2);
    const banner = page.getByRole('region', { name: 'Interrupted uploads' });
    await banner.getByText('2 uploads were interrupted.').waitFor();
    await openFoldersOf(page, 'survey/raw/scan.bin');
    for (const [name, safe] of [
      ['photo.bin', '33.6 MB of 35.7 MB'],
      ['survey/raw/scan.bin', '33.6 MB of 41.9 MB'],
    ] as const) {
      await fileRow(page, name)
        .getByText('Upload interrupted. Resume it with the button above.')
        .waitFor();
      await fileRow(page, name).getByText(`${safe} safe on the server`).waitFor();
    }
    expect(await axeViolations(page)).toEqual([]);

    const sent: string[] = [];
    page.on('request', (request) => {
      if (['PUT', 'POST', 'DELETE'].includes(request.method()))
        sent.push(`${request.method()} ${decodeURIComponent(new URL(request.url()).pathname)}`);
    });
    // One press resumes both (the origin's own files need no permission prompt).
    await banner.getByRole('button', { name: 'Resume' }).focus();
    await page.keyboard.press('Enter');
    await waitUploaded(page, 'photo.bin');
    await waitUploaded(page, 'survey/raw/scan.bin');
    await banner.waitFor({ state: 'detached' });

    const base = `/api/records/${id}/draft/files`;
    expect(sent.sort()).toEqual([
      `POST ${base}/photo.bin/commit`,
      `POST ${base}/survey/raw/scan.bin/commit`,
      `PUT ${base}/photo.bin/content/3`,
      `PUT ${base}/survey/raw/scan.bin/content/3`,
    ]);
    const listed = (await apiGet(page, `${base}`)) as {
      entries: Array<{ key: string; checksum: string; status: string }>;
    };
    const byKey = Object.fromEntries(listed.entries.map((e) => [e.key, e]));
    expect(byKey['photo.bin']).toMatchObject({ status: 'completed', checksum: await md5Of(photo) });
    expect(byKey['survey/raw/scan.bin']).toMatchObject({
      status: 'completed',
      checksum: await md5Of(scan),
    });
  });

  test('a metadata-only record is saved as such and published without files', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services);
    await logIn(page, account);
    await fillDraft(page, 'Field notes without data');
    await page.getByRole('checkbox', { name: 'Metadata-only record' }).check();
    await page.getByText('This is a Metadata-only record.').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Record successfully saved.').waitFor();
    const id = draftIdOf(page);

    await page.reload();
    await page.getByRole('heading', { name: 'Edit upload', level: 1 }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Metadata-only record' }).isChecked()).toBe(
      true,
    );
    await publishFromEditor(page);
    await expectPath(page, `/records/${id}`);
    const record = (await apiGet(page, `/api/records/${id}`)) as {
      files: { enabled: boolean };
      access: { files: string };
    };
    expect(record.files.enabled).toBe(false);
    expect(record.access.files).toBe('public');
  });
});
