import { z } from 'zod';
import { MetadataSchema, RelatedIdentifierSchema } from '../domain/metadata.js';
import { FieldErrorSchema } from './common.js';

/** The file formats `POST …/draft/actions/import-metadata` reads. */
export const IMPORT_FILE_FORMATS = [
  'bibtex',
  'ris',
  'cff',
  'datacite-json',
  'datacite-xml',
  'codemeta',
  'inveniordm',
] as const;
export type ImportFileFormat = (typeof IMPORT_FILE_FORMATS)[number];

/** The most a file import reads (5 MiB); a larger one is refused with 413. */
export const IMPORT_MAX_FILE_BYTES = 5 * 1024 * 1024;

/**
 * The body of `POST …/draft/actions/import-metadata` (a Cairn extension): a DOI, or a file's text
 * with its format (detected from the content when left out).
 */
export const ImportMetadataBody = z.union([
  z.object({ doi: z.string().min(1).meta({ description: 'A DOI, bare or as a doi.org URL' }) }),
  z.object({
    content: z
      .string()
      .min(1)
      .meta({ description: `The file's text, at most ${IMPORT_MAX_FILE_BYTES} bytes (UTF-8)` }),
    format: z
      .enum(IMPORT_FILE_FORMATS)
      .optional()
      .meta({ description: 'What the file is; detected from the content when left out' }),
  }),
]);
export type ImportMetadataRequest = z.infer<typeof ImportMetadataBody>;

/** A value no vocabulary entry matched: kept as free text, or left out where only entries go. */
export const UnmatchedImportSchema = z.object({
  field: z
    .string()
    .meta({ description: 'Where in the draft, e.g. metadata.creators.0.affiliations.0' }),
  value: z.string(),
  kept: z.enum(['free_text', 'dropped']),
});
export type UnmatchedImport = z.infer<typeof UnmatchedImportSchema>;

/** What an import would set; nothing is saved. */
export const ImportMetadataAnswerSchema = z.object({
  metadata: MetadataSchema,
  unmatched: z.array(UnmatchedImportSchema),
  /** Values the draft could not take as they were (invalid identifiers, dates…), left out. */
  errors: z.array(FieldErrorSchema),
  source: z.object({
    format: z.enum(['doi', ...IMPORT_FILE_FORMATS]),
    doi: z.string().optional(),
    agency: z.enum(['datacite', 'crossref']).optional(),
    url: z.string().optional(),
  }),
  /**
   * How the draft may point at the work the metadata came from (its DOI): derived from it, or
   * supplementing it. Offered, not part of `metadata`.
   */
  suggested_related_identifiers: z.array(RelatedIdentifierSchema),
});
export type ImportMetadataAnswer = z.infer<typeof ImportMetadataAnswerSchema>;
