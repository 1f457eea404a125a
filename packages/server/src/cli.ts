import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './database/database.js';
import { createServices, type Services } from './services.js';
import { buildApp } from './app.js';
import { startSweeps } from './sweeps/scheduler.js';
import { DEMO_USERS, loadDemo } from './demo.js';
import { handleShutdownSignals } from './modules/ops/shutdown.js';
import { limitHeapGrowth } from './modules/ops/heap.js';
import { BACKUP_USAGE, backupCommand } from './modules/ops/backup-command.js';
import {
  logStorageCheck,
  STORAGE_USAGE,
  storageCommand,
} from './modules/files/storage/storage-command.js';
import { AppError } from './errors.js';
import {
  ImportUsageError,
  runImportCommand,
} from './modules/vocabularies/indexed/import/import-command.js';
import { ImportAborted, ImportFailed } from './modules/vocabularies/indexed/import/importer.js';
import { toUser } from './modules/users/users.service.js';
import { COMMUNITY_ROLES, type CommunityRole } from './modules/communities/communities.service.js';

const USAGE = `Usage: cairn <command>

  serve                                   run the server (what npm start runs after the build)
  users create EMAIL [--password P] [--name NAME] [--admin]
  users quota EMAIL [--max-files N] [--max-bytes N]
                                          set a user's per-record file quota (omit both to reset)
  tokens create EMAIL [--name NAME]       print a new personal access token (only the token)
  demo                                    load the demo data (idempotent)
  vocabularies import TYPE FILE           load names, affiliations, funders, awards or subjects
                                          from a dump (ROR JSON, CSV or JSON; see README.md)
  communities create SLUG --title T --owner EMAIL [--visibility public|restricted]
              [--review-policy closed|open|members] [--submission-policy open|closed]
  communities add-member SLUG EMAIL --role owner|manager|curator|reader
${BACKUP_USAGE}
${STORAGE_USAGE}

Configuration comes from the environment: PORT, HOST, CAIRN_DATA_DIR, CAIRN_SITE_URL,
DATABASE_URL, CAIRN_DOI_PREFIX, CAIRN_DOI_REQUIRED, CAIRN_DATACITE_URL/USERNAME/PASSWORD,
CAIRN_RESTRICTION_GRACE_DAYS … (see README.md).`;

const here = path.dirname(fileURLToPath(import.meta.url));

async function withServices<T>(config: Config, fn: (s: Services) => Promise<T>): Promise<T> {
  const database = openDatabase(config.database);
  try {
    return await fn(await createServices(config, database));
  } finally {
    await database.close();
  }
}

async function serve(config: Config): Promise<void> {
  limitHeapGrowth(config.operations.heapGrowthPercent);
  const database = openDatabase(config.database);
  const services = await createServices(config, database);
  const app = await buildApp(services);
  const fresh =
    (await services.search.search(undefined, {})).total === 0 &&
    !(await services.users.findByEmail(DEMO_USERS[0].email));
  if (fresh) {
    const { created } = await loadDemo(services);
    if (created.length > 0) app.log.info(`demo data loaded: ${created.join(', ')}`);
  }
  const stopSweeps = startSweeps(services, app.log, app.operations.sweepObserver);
  await app.listen({ port: config.port, host: config.host });
  const lines = [
    '',
    `Cairn is running at ${config.siteUrl}  (${config.database.kind === 'sqlite' ? `SQLite in ${config.dataDir}` : 'PostgreSQL'})`,
    'Demo accounts:',
    ...DEMO_USERS.map(
      (u) => `  ${u.email.padEnd(22)} password: ${u.password}${u.isAdmin ? '  (admin)' : ''}`,
    ),
    `API reference: ${config.siteUrl}/api/docs`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
  handleShutdownSignals({ app, services, stopSweeps });
  void logStorageCheck(config, app.log);
}

/** Entry point of `npx cairn`; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  let config: Config;
  try {
    config = loadConfig(process.env, { webDist: path.resolve(here, '../../web/dist') });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  try {
    if (command === 'serve') {
      await serve(config);
      return -1;
    }
    if (command === 'storage') return await storageCommand(config, sub);
    if (command === 'backup' || command === 'restore')
      return await backupCommand(config, command, argv.slice(1));
    if (command === 'demo') {
      const { created } = await withServices(config, loadDemo);
      process.stdout.write(
        created.length ? `Loaded: ${created.join(', ')}\n` : 'Demo data already present.\n',
      );
      return 0;
    }
    if (command === 'users' && sub === 'create') {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          password: { type: 'string' },
          name: { type: 'string' },
          admin: { type: 'boolean' },
        },
      });
      const email = positionals[0];
      if (!email) throw new UsageError('users create needs an EMAIL');
      const password = values.password ?? cryptoPassword();
      const user = await withServices(config, (s) =>
        s.users.createUser({ email, password, name: values.name, isAdmin: values.admin ?? false }),
      );
      process.stdout.write(
        `Created ${user.isAdmin ? 'admin ' : ''}user ${user.email} (id ${user.id})${values.password ? '' : ` with password ${password}`}\n`,
      );
      return 0;
    }
    if (command === 'users' && sub === 'quota') {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { 'max-files': { type: 'string' }, 'max-bytes': { type: 'string' } },
      });
      const email = positionals[0];
      if (!email) throw new UsageError('users quota needs an EMAIL');
      const number = (name: string, value: string | undefined) => {
        if (value === undefined) return null;
        if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
        return Number(value);
      };
      const maxFiles = number('max-files', values['max-files']);
      const maxBytes = number('max-bytes', values['max-bytes']);
      await withServices(config, async (s) => {
        const user = await s.users.findByEmail(email);
        if (!user) throw new UsageError(`no account for ${email}`);
        await s.files.setUserQuota(user.id, maxFiles, maxBytes);
      });
      process.stdout.write(
        maxFiles === null && maxBytes === null
          ? `${email} uses the configured quota again.\n`
          : `${email}: at most ${maxFiles ?? 'the configured number of'} files and ${maxBytes ?? 'the configured number of'} bytes per record.\n`,
      );
      return 0;
    }
    if (command === 'communities') return await communitiesCommand(config, sub, rest);
    if (command === 'tokens' && sub === 'create') {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { name: { type: 'string' } },
      });
      const email = positionals[0];
      if (!email) throw new UsageError('tokens create needs an EMAIL');
      const token = await withServices(config, async (s) => {
        const user = await s.users.findByEmail(email);
        if (!user) throw new UsageError(`no account for ${email}`);
        return (await s.users.createToken(user.id, values.name ?? 'cli')).token;
      });
      process.stdout.write(`${token}\n`);
      return 0;
    }
    if (command === 'vocabularies' && sub === 'import') {
      const [type, file] = rest;
      if (!type || !file) throw new UsageError('vocabularies import needs a TYPE and a FILE');
      const r = await withServices(config, (s) =>
        runImportCommand(s.vocabularyItems, type, file, config.defaultLocale),
      );
      process.stdout.write(
        `${type}: ${r.records} records read, ${r.inserted} added, ${r.updated} updated, ${r.unchanged} unchanged in ${(r.ms / 1000).toFixed(1)} s\n`,
      );
      return 0;
    }
    process.stderr.write(`${USAGE}\n`);
    return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  } catch (error) {
    if (error instanceof ImportFailed) {
      process.stderr.write(
        `cairn: nothing was imported; fix these records and run the import again:\n${error.message}\n`,
      );
      return 1;
    }
    if (error instanceof ImportAborted) {
      process.stderr.write(`cairn: nothing was imported: ${error.message}\n`);
      return 1;
    }
    if (
      error instanceof UsageError ||
      error instanceof AppError ||
      error instanceof ImportUsageError
    ) {
      const details =
        error instanceof AppError && error.errors
          ? error.errors.map((e) => ` ${e.field}: ${e.messages.join(' ')}`).join(';')
          : '';
      process.stderr.write(`cairn: ${error.message}${details}\n`);
      return 1;
    }
    if (
      error instanceof TypeError &&
      'code' in error &&
      String(error.code).startsWith('ERR_PARSE_ARGS')
    ) {
      process.stderr.write(`cairn: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
}

class UsageError extends Error {}

/** `cairn communities create|add-member`: the API's rules, acting as the owner or the system. */
async function communitiesCommand(
  config: Config,
  sub: string | undefined,
  rest: string[],
): Promise<number> {
  if (sub === 'create') {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        title: { type: 'string' },
        owner: { type: 'string' },
        visibility: { type: 'string' },
        'review-policy': { type: 'string' },
        'submission-policy': { type: 'string' },
      },
    });
    const slug = positionals[0];
    if (!slug || !values.title || !values.owner)
      throw new UsageError('communities create needs SLUG, --title and --owner');
    const community = await withServices(config, async (s) => {
      const owner = await s.users.findByEmail(values.owner!);
      if (!owner) throw new UsageError(`no account for ${values.owner}`);
      return s.communities.create(toUser(owner), {
        slug,
        metadata: { title: values.title },
        access: {
          ...(values.visibility ? { visibility: values.visibility } : {}),
          ...(values['review-policy'] ? { review_policy: values['review-policy'] } : {}),
          ...(values['submission-policy']
            ? { record_submission_policy: values['submission-policy'] }
            : {}),
        },
      });
    });
    process.stdout.write(`Created community ${community.row.slug} (id ${community.row.id})\n`);
    return 0;
  }
  if (sub === 'add-member') {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { role: { type: 'string' } },
    });
    const [slug, email] = positionals;
    const role = values.role;
    if (!slug || !email || !role)
      throw new UsageError('communities add-member needs SLUG, EMAIL and --role');
    if (!(COMMUNITY_ROLES as readonly string[]).includes(role))
      throw new UsageError(`--role must be one of ${COMMUNITY_ROLES.join(', ')}`);
    await withServices(config, async (s) => {
      const user = await s.users.findByEmail(email);
      if (!user) throw new UsageError(`no account for ${email}`);
      const community = await s.communities.resolve(slug);
      await s.communities.members.addMemberAsSystem(
        community.row.id,
        user.id,
        role as CommunityRole,
      );
    });
    process.stdout.write(`${email} is now ${role} of ${slug}.\n`);
    return 0;
  }
  process.stderr.write(`${USAGE}\n`);
  return 2;
}

function cryptoPassword(): string {
  return `cairn-${crypto.randomBytes(9).toString('base64url')}`;
}
