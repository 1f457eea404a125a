import { z } from 'zod';
import { MESSAGES } from '../validation/messages.js';

/**
 * A reference to a vocabulary entry by id (`{id: 'dataset'}`). Responses add a localised `title`;
 * requests only need the id. Whether the id exists is checked against the database by the server
 * (see `collectVocabularyRefs`), not here.
 */
export const VocabularyRefSchema = z.object({ id: z.string().min(1) });

/** A vocabulary entry referenced by id. */
export type VocabularyRef = z.infer<typeof VocabularyRefSchema>;

/** The vocabularies a record refers to, named as InvenioRDM's `/api/vocabularies/{type}` does. */
export type VocabularyType =
  | 'resourcetypes'
  | 'titletypes'
  | 'descriptiontypes'
  | 'datetypes'
  | 'relationtypes'
  | 'creatorsroles'
  | 'contributorsroles'
  | 'licenses'
  | 'languages'
  | 'subjects'
  | 'affiliations'
  | 'funders'
  | 'awards';

/**
 * A text keyed by one locale (`{en: 'My license'}`): how titles and descriptions of custom
 * licenses and awards are stored. Which locales are allowed is instance configuration, checked by
 * `loadRecord` against `ValidationOptions.locales`.
 */
export const LocalizedTextSchema = z
  .record(z.string(), z.string())
  .refine((value) => Object.keys(value).length === 1, MESSAGES.onlyOneValue);

/** A text keyed by one locale. */
export type LocalizedText = z.infer<typeof LocalizedTextSchema>;
