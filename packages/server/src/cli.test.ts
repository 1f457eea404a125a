import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from './app.js';
import { main } from './cli.js';
import { loadConfig } from './config.js';
import { openDatabase } from './database/database.js';
import { createServices, type Services } from './services.js';

// The CLI reads its configuration from process.env like the real `npx cairn`; these are the
// variables it must see set (or unset) here, restored afterwards.
const ENV_KEYS = ['CAIRN_DATA_DIR', 'DATABASE_URL', 'PORT', 'CAIRN_SITE_URL'] as const;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(...argv: string[]): Promise<Run> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const capture = (into: string[]) => (chunk: string | Uint8Array) => {
    into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture(stdout));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture(stderr));
  try {
    const code = await main(argv);
    return { code, stdout: stdout.join(''), stderr: stderr.join('') };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('cairn CLI (SQLite in a temporary data dir)', () => {
  const saved: Partial<Record<(typeof ENV_KEYS)[number], string>> = {};
  let dataDir: string;

  /** Opens the data dir the CLI wrote to, as the server would, for one look. */
  async function withServices<T>(fn: (s: Services) => Promise<T>): Promise<T> {
    const config = loadConfig({
      CAIRN_DATA_DIR: dataDir,
      CAIRN_SITE_URL: 'https://cairn.test',
      CAIRN_LOG_LEVEL: 'silent',
    });
    const database = openDatabase(config.database);
    try {
      return await fn(await createServices(config, database));
    } finally {
      await database.close();
    }
  }

  async function counts() {
    return withServices(async ({ database: { db } }) => {
      const count = async (table: 'users' | 'records' | 'drafts') =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      return {
        users: await count('users'),
        records: await count('records'),
        drafts: await count('drafts'),
      };
    });
  }

  beforeAll(() => {
    for (const key of ENV_KEYS) saved[key] = process.env[key];
  });
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-cli-'));
    for (const key of ENV_KEYS) delete process.env[key];
    process.env.CAIRN_DATA_DIR = dataDir;
  });
  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  afterAll(() => {
    for (const key of ENV_KEYS) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  it('creates a user with a generated password and prints it once', async () => {
    const result = await run('users', 'create', 'ada@example.org', '--name', 'Ada');
    expect(result.code).toBe(0);
    const match = /^Created user ada@example\.org \(id \d+\) with password (\S+)\n$/.exec(
      result.stdout,
    );
    expect(match, result.stdout).not.toBeNull();
    const user = await withServices((s) => s.users.authenticate('ada@example.org', match?.[1]));
    expect(user).toMatchObject({ email: 'ada@example.org', name: 'Ada', isAdmin: false });
  });

  it('creates an admin with the given password and does not echo it', async () => {
    const result = await run(
      'users',
      'create',
      'grace@example.org',
      '--password',
      'a long password',
      '--admin',
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Created admin user grace@example\.org \(id \d+\)\n$/);
    expect(result.stdout).not.toContain('a long password');
    const user = await withServices((s) =>
      s.users.authenticate('grace@example.org', 'a long password'),
    );
    expect(user.isAdmin).toBe(true);
  });

  it('refuses a taken address with exit code 1 and says why', async () => {
    expect((await run('users', 'create', 'taken@example.org')).code).toBe(0);
    const again = await run('users', 'create', 'TAKEN@example.org');
    expect(again).toEqual({
      code: 1,
      stdout: '',
      stderr: 'cairn: An account with this email address already exists.\n',
    });
    expect((await counts()).users).toBe(1);
  });

  it('refuses bad input with exit code 1 and every problem', async () => {
    const result = await run('users', 'create', 'not-an-email', '--password', 'short');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'cairn: A validation error occurred. email: Not a valid email address.; password: Password must be at least 8 characters long.\n',
    );
    expect((await run('users', 'create')).stderr).toBe('cairn: users create needs an EMAIL\n');
  });

  it("sets, then resets, a user's per-record file quota", async () => {
    await run('users', 'create', 'quota@example.org', '--password', 'a long password');
    const set = await run(
      'users',
      'quota',
      'quota@example.org',
      '--max-files',
      '500',
      '--max-bytes',
      '2000000000000',
    );
    expect(set).toEqual({
      code: 0,
      stdout: 'quota@example.org: at most 500 files and 2000000000000 bytes per record.\n',
      stderr: '',
    });
    const stored = await withServices(async ({ database: { db } }) =>
      db.selectFrom('userQuotas').selectAll().executeTakeFirst(),
    );
    expect(stored).toMatchObject({ maxFiles: 500, maxBytes: 2000000000000 });
    const reset = await run('users', 'quota', 'quota@example.org');
    expect(reset.stdout).toBe('quota@example.org uses the configured quota again.\n');
    expect((await run('users', 'quota', 'quota@example.org', '--max-files', 'lots')).stderr).toBe(
      'cairn: --max-files must be a whole number\n',
    );
    expect((await run('users', 'quota', 'nobody@example.org', '--max-files', '1')).code).toBe(1);
  });

  it('prints only the token, and the token authenticates against the API', async () => {
    await run('users', 'create', 'token@example.org', '--password', 'a long password');
    const result = await run('tokens', 'create', 'token@example.org', '--name', 'laptop');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^cairn_[A-Za-z0-9_-]{20,}\n$/);
    const token = result.stdout.trim();

    const me = await withServices(async (services) => {
      const app = await buildApp(services, { logger: false });
      try {
        return await app.inject({
          method: 'GET',
          url: '/api/me',
          headers: { authorization: `Bearer ${token}` },
        });
      } finally {
        await app.close();
      }
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email: 'token@example.org' });

    const unknown = await run('tokens', 'create', 'nobody@example.org');
    expect(unknown).toEqual({
      code: 1,
      stdout: '',
      stderr: 'cairn: no account for nobody@example.org\n',
    });
  });

  it('loads the demo data once: a second run changes nothing', async () => {
    const first = await run('demo');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^Loaded: user ada@cairn\.example, user grace@cairn\.example, sample affiliations, sample funders, sample names, sample awards, sample subjects, record \S+, community glaciology, community open-science, community polar-station\n$/,
    );
    const after = await counts();
    expect(after).toEqual({ users: 2, records: 1, drafts: 0 });

    const second = await run('demo');
    expect(second).toEqual({ code: 0, stdout: 'Demo data already present.\n', stderr: '' });
    expect(await counts()).toEqual(after);
  });

  it('imports a vocabulary dump, reports bad lines and imports nothing from a bad file', async () => {
    const good = path.join(dataDir, 'subjects.csv');
    fs.writeFileSync(
      good,
      'id,subject,scheme\nfos-1,Natural sciences,FOS\nfos-2,Mathematics,FOS\n',
    );
    const imported = await run('vocabularies', 'import', 'subjects', good);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(
      /^subjects: 2 records read, 2 added, 0 updated, 0 unchanged in \d+\.\d s\n$/,
    );
    const again = await run('vocabularies', 'import', 'subjects', good);
    expect(again.stdout).toMatch(/^subjects: 2 records read, 0 added, 0 updated, 2 unchanged/);

    const bad = path.join(dataDir, 'bad.csv');
    fs.writeFileSync(bad, 'id,subject,scheme\nfos-3,Physics,FOS\nfos-4,,FOS\n');
    const refused = await run('vocabularies', 'import', 'subjects', bad);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'cairn: nothing was imported; fix these records and run the import again:\n' +
        'line 3: subject: Missing data for required field.\n',
    });
    const found = await withServices((s) => s.vocabularyItems.search('subjects', { q: 'physics' }));
    expect(found.total).toBe(0);

    expect(await run('vocabularies', 'import', 'people', good)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('unknown vocabulary "people"') as string,
    });
    expect(await run('vocabularies', 'import', 'affiliations', good)).toMatchObject({
      code: 1,
      stderr: 'cairn: affiliations are imported from json, not csv\n',
    });
    expect(await run('vocabularies', 'import', 'names', '/nonexistent.csv')).toMatchObject({
      code: 1,
      stderr: 'cairn: no such file: /nonexistent.csv\n',
    });
  });

  it('creates communities and adds members', async () => {
    await run('users', 'create', 'owner@example.org', '--password', 'correct horse');
    await run('users', 'create', 'curator@example.org', '--password', 'correct horse');
    const created = await run(
      'communities',
      'create',
      'Ice-Cores',
      '--title',
      'Ice cores',
      '--owner',
      'owner@example.org',
      '--visibility',
      'restricted',
      '--review-policy',
      'members',
      '--submission-policy',
      'closed',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^Created community ice-cores \(id [0-9a-f-]{36}\)\n$/);
    const added = await run(
      'communities',
      'add-member',
      'ice-cores',
      'curator@example.org',
      '--role',
      'curator',
    );
    expect(added).toEqual({
      code: 0,
      stdout: 'curator@example.org is now curator of ice-cores.\n',
      stderr: '',
    });
    await withServices(async (s) => {
      const community = await s.communities.resolve('ice-cores');
      expect(community.data.access).toMatchObject({
        visibility: 'restricted',
        review_policy: 'members',
        record_submission_policy: 'closed',
      });
      const curator = await s.users.findByEmail('curator@example.org');
      expect(await s.communities.roleOf(community.row.id, curator!.id)).toBe('curator');
    });
    const duplicate = await run(
      'communities',
      'create',
      'ice-cores',
      '--title',
      'Again',
      '--owner',
      'owner@example.org',
    );
    expect(duplicate).toMatchObject({
      code: 1,
      stderr:
        'cairn: A validation error occurred. slug: A community with this identifier already exists.\n',
    });
    const badRole = await run(
      'communities',
      'add-member',
      'ice-cores',
      'curator@example.org',
      '--role',
      'boss',
    );
    expect(badRole).toMatchObject({
      code: 1,
      stderr: 'cairn: --role must be one of owner, manager, curator, reader\n',
    });
    const missing = await run(
      'communities',
      'add-member',
      'no-such',
      'curator@example.org',
      '--role',
      'reader',
    );
    expect(missing).toMatchObject({
      code: 1,
      stderr: 'cairn: The persistent identifier does not exist.\n',
    });
  });

  it('answers an unknown command or option with the usage and exit code 2', async () => {
    const unknown = await run('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/^Usage: cairn <command>/);
    const option = await run('users', 'create', 'x@example.org', '--frobnicate');
    expect(option.code).toBe(2);
    expect(option.stderr).toContain('Usage: cairn <command>');
  });

  it('answers a bad configuration with every problem and exit code 2', async () => {
    process.env.PORT = 'abc';
    process.env.DATABASE_URL = 'mysql://cairn@db/cairn';
    const result = await run('demo');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Invalid configuration:\n {2}- PORT: .*\n {2}- DATABASE_URL: /);
  });
});
