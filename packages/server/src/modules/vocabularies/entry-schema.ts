import { z } from 'zod';

/**
 * Field schemas shared by every vocabulary an admin or an importer writes, with the messages
 * InvenioRDM's marshmallow schemas give.
 */
export const MAX_TEXT = 2000;

const missing = 'Missing data for required field.';

/** Trimmed, non-empty text of at most `max` characters. */
export const text = (max = MAX_TEXT) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? missing : 'Not a valid string.') })
    .trim()
    .min(1, 'Shorter than minimum length 1.')
    .max(max, `Longer than maximum length ${max}.`);

/** `{en: "…", de: "…"}`: text per language code. */
export const localized = z.record(
  z.string().regex(/^[a-z]{2,3}([_-][A-Za-z]{2,4})?$/, 'Not a valid language code.'),
  text(),
  { error: (issue) => (issue.input === undefined ? missing : 'Not a valid mapping type.') },
);

export const props = z.record(z.string(), z.string().max(MAX_TEXT)).optional();
export const tags = z.array(text(100)).max(50).optional();

/** An entry id that can stand in a URL path segment. */
export const entryId = (max = 500) =>
  text(max).refine((id) => !/[\s/?#]/.test(id), 'Not a valid identifier.');
