// Loads the records search benchmark's records into the server's database, through the server's
// bulk path (RecordsBulkRepository), with the configuration `cairn` reads (CAIRN_DATA_DIR,
// DATABASE_URL). Prints one line of JSON with its timings.
//
//   node bench/search/load.js --records N --owner EMAIL [--communities N]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RecordDataSchema } from '@cairn/shared';
import {
  createServices,
  loadConfig,
  openDatabase,
  RecordsBulkRepository,
  toUser,
} from '@cairn/server';
import { generateRecords } from './generate.js';

// A sample of the records is checked against the schema a publish stores: the generator's
// records must be what the product would have written.
const VALIDATE_EVERY = 997;

const { values } = parseArgs({
  options: {
    records: { type: 'string' },
    owner: { type: 'string' },
    communities: { type: 'string', default: '500' },
  },
});
const count = Number(values.records);
const communityCount = Number(values.communities);
if (!Number.isInteger(count) || count < 1 || !values.owner) {
  process.stderr.write('usage: node bench/search/load.js --records N --owner EMAIL\n');
  process.exit(2);
}

const webDist = fileURLToPath(new URL('../../packages/web/dist', import.meta.url));
const config = loadConfig(process.env, { webDist: path.resolve(webDist) });
const database = openDatabase(config.database);
try {
  const services = await createServices(config, database);
  const owner = await services.users.findByEmail(values.owner);
  if (!owner) throw new Error(`no account for ${values.owner}`);

  // Communities through the service, as `cairn communities create` makes them: few, and what
  // the facet reads of them (the title) is then what the product wrote.
  const started = performance.now();
  /** @type {string[]} */
  const communityIds = [];
  for (let i = 0; i < communityCount; i++) {
    const c = await services.communities.create(toUser(owner), {
      slug: `bench-${i}`,
      metadata: { title: `Bench community ${i}` },
      access: { visibility: 'public' },
    });
    communityIds.push(c.row.id);
  }
  const communitiesMs = performance.now() - started;

  const bulk = new RecordsBulkRepository(database.db, database.engine);
  let generateMs = 0;
  let insertMs = 0;
  let loaded = 0;
  let lastReport = performance.now();
  const batches = generateRecords({ count, ownerId: owner.id, communityIds, batch: 2_000 });
  for (;;) {
    const t0 = performance.now();
    const next = batches.next();
    generateMs += performance.now() - t0;
    if (next.done) break;
    for (let i = 0; i < next.value.length; i += VALIDATE_EVERY) {
      const parsed = RecordDataSchema.safeParse(next.value[i]?.data);
      if (!parsed.success) throw new Error(`generated record is invalid: ${parsed.error.message}`);
    }
    const t1 = performance.now();
    await bulk.insertPublished(next.value);
    insertMs += performance.now() - t1;
    loaded += next.value.length;
    if (performance.now() - lastReport > 30_000) {
      lastReport = performance.now();
      process.stderr.write(
        `search load: ${loaded.toLocaleString('en')} records, ${((lastReport - started) / 1000).toFixed(0)} s\n`,
      );
    }
  }
  const t2 = performance.now();
  await bulk.refreshStatistics();
  const analyzeMs = performance.now() - t2;
  process.stdout.write(
    `${JSON.stringify({
      records: loaded,
      communities: communityIds.length,
      seconds: (performance.now() - started) / 1000,
      communitiesSeconds: communitiesMs / 1000,
      generateSeconds: generateMs / 1000,
      insertSeconds: insertMs / 1000,
      analyzeSeconds: analyzeMs / 1000,
    })}\n`,
  );
} finally {
  await database.close();
}
