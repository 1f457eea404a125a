export { buildApp } from './app.js';
export { loadConfig, type Config } from './config.js';
export { openDatabase } from './database/database.js';
export { createServices, type Services } from './services.js';
export { main } from './cli.js';
