export * from './errors/catalogue.js';
export * from './domain/index.js';
export * from './limits.js';
