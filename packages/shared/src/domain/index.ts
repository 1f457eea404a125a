/**
 * The record domain: schemas and types of a draft, the rules that load and validate it (with
 * InvenioRDM's messages), identifier and date helpers, and the derived statuses. The server
 * enforces these rules and the browser form shows the same ones.
 */
export * from './field-error.js';
export * from './edtf.js';
export * from './identifiers.js';
export * from './identifier-entry.js';
export * from './vocabulary.js';
export * from './creator.js';
export * from './metadata.js';
export * from './custom-fields.js';
export * from './access.js';
export * from './pids.js';
export * from './record.js';
export * from './status.js';
export * from './vocabulary-refs.js';
export * from './description-html.js';
export { loadRecord, validateForPublish } from '../validation/load-record.js';
export {
  MESSAGES,
  duplicatedAffiliationsMessage,
  invalidIdentifierMessage,
} from '../validation/messages.js';
export * from './community.js';
export * from './multipart.js';
export * from './export-formats.js';
