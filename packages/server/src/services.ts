import type { Config } from './config.js';
import type { DatabaseHandle } from './database/database.js';
import { migrateToLatest } from './database/migrate.js';
import { UsersRepository } from './modules/users/users.repository.js';
import { UsersService } from './modules/users/users.service.js';
import { VocabulariesRepository } from './modules/vocabularies/vocabularies.repository.js';
import { VocabulariesService } from './modules/vocabularies/vocabularies.service.js';
import { RecordsRepository } from './modules/records/records.repository.js';
import { RecordsService } from './modules/records/records.service.js';
import { RecordsSearchService } from './modules/records/records-search.service.js';
import { DoiRegistrationService } from './modules/pids/doi-registration.service.js';

/** Every service of the app, wired once; the HTTP layer and the CLI share them. */
export interface Services {
  config: Config;
  database: DatabaseHandle;
  users: UsersService;
  vocabularies: VocabulariesService;
  records: RecordsService;
  search: RecordsSearchService;
  doi: DoiRegistrationService;
}

/** Migrates the database, loads shipped vocabularies into an empty one, and wires the services. */
export async function createServices(config: Config, database: DatabaseHandle): Promise<Services> {
  await migrateToLatest(database.db);
  const vocabularies = new VocabulariesService(new VocabulariesRepository(database.db));
  await vocabularies.loadFixtures();
  const recordsRepo = new RecordsRepository(database.db, database.engine);
  const doi = new DoiRegistrationService(recordsRepo, vocabularies, config);
  const records = new RecordsService(recordsRepo, vocabularies, config, doi);
  return {
    config,
    database,
    users: new UsersService(new UsersRepository(database.db), config.sessionDays),
    vocabularies,
    records,
    search: new RecordsSearchService(recordsRepo, records),
    doi,
  };
}
