import { z } from 'zod';
import { AccessSchema } from './access.js';
import { CustomFieldsSchema } from './custom-fields.js';
import { MetadataSchema } from './metadata.js';
import { PidsSchema } from './pids.js';

/** Whether the record has files, and which one the landing page previews. */
export const RecordFilesSchema = z.object({
  enabled: z.boolean(),
  default_preview: z.string().min(1).optional(),
});

/** `files` settings of a draft (the entries themselves live in the files API). */
export type RecordFiles = z.infer<typeof RecordFilesSchema>;

/**
 * The storable part of a draft as the API accepts it: what `loadRecord` returns and the server
 * stores. Dump-only keys (id, links, status, versions, parent, …) are not part of it.
 */
export const RecordDataSchema = z.object({
  metadata: MetadataSchema,
  custom_fields: CustomFieldsSchema,
  access: AccessSchema,
  files: RecordFilesSchema,
  pids: PidsSchema,
});

/** The storable part of a draft. */
export type RecordData = z.infer<typeof RecordDataSchema>;

/** The instance settings and the day that the record rules depend on. */
export interface ValidationOptions {
  /** Locales accepted as keys of custom-license title/description and award titles, e.g. ['en','de']. */
  locales: readonly string[];
  /** When true, metadata.publisher is required (managed DOI registration). */
  publisherRequired?: boolean;
  /** Today's date as YYYY-MM-DD in UTC, for embargo checks (injected so tests are deterministic). */
  today: string;
}
