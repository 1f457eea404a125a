export * from './errors/catalogue.js';
export * from './domain/index.js';
export * from './limits.js';
export * from './deposit/form-values.js';
export * from './deposit/remove-empty-values.js';
export * from './deposit/serializer.js';
export * from './deposit/errors.js';
export * from './deposit/deposit-state.js';
