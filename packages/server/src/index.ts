export { buildApp } from './app.js';
export { loadConfig, type Config } from './config.js';
export { openDatabase } from './database/database.js';
export { createServices, type Services } from './services.js';
export { main } from './cli.js';
export type { DatabaseObserver } from './database/database.js';
export {
  RecordsBulkRepository,
  type BulkRecord,
} from './modules/records/records-bulk.repository.js';
export { toUser } from './modules/users/users.service.js';
