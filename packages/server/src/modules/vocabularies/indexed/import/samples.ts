import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { VocabularyItemsService } from '../items.service.js';
import type { IndexedType } from '../kinds.js';
import { importVocabulary } from './importer.js';

/** The small real dumps in `packages/server/samples/vocabularies` (see its README). */
export const SAMPLES_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../samples/vocabularies',
);

// Funders before awards and affiliations before names: their references must resolve.
const SAMPLES: ReadonlyArray<[IndexedType, string]> = [
  ['affiliations', 'ror-v2.json'],
  ['funders', 'ror-v2.json'],
  ['names', 'names.csv'],
  ['names', 'names.jsonl'],
  ['awards', 'awards.csv'],
  ['subjects', 'subjects.csv'],
];

/** Imports one sample file through the importer the CLI uses. */
export function importSample(items: VocabularyItemsService, type: IndexedType, file: string) {
  return importVocabulary(items, type, fs.createReadStream(path.join(SAMPLES_DIR, file)), {
    format: file.endsWith('.csv') ? 'csv' : 'json',
    locale: 'en',
  });
}

/**
 * Loads the samples into vocabularies that are still empty, so that the demo suggests people,
 * organisations, funders, awards and subjects; a site that imported real dumps is left alone.
 * Returns the types it loaded.
 */
export async function loadVocabularySamples(items: VocabularyItemsService): Promise<string[]> {
  const empty = new Set<IndexedType>();
  for (const [type] of SAMPLES) if (await items.isEmpty(type)) empty.add(type);
  for (const [type, file] of SAMPLES) if (empty.has(type)) await importSample(items, type, file);
  return [...empty];
}
