import { MESSAGES } from '../validation/messages.js';
import type { MetadataFormValues } from './form-values.js';
import type { FieldError } from '../domain/field-error.js';

/**
 * The required values of each list whose rows the form adds empty, as the server requires them
 * in a row that holds anything (load-metadata.ts). Creators and additional titles are left out:
 * their rows are never empty (they keep their type), so the server already names what they miss.
 */
const ROW_REQUIREMENTS = {
  additional_descriptions: ['description', 'type'],
  dates: ['date', 'type'],
  identifiers: ['identifier', 'scheme'],
  related_identifiers: ['identifier', 'scheme', 'relation_type'],
  references: ['reference'],
} as const satisfies { [K in keyof MetadataFormValues]?: readonly string[] };

/** The lists `emptyRowErrors` looks at, which the serializer sends an empty row of as `{}`. */
export const ROW_LISTS = Object.keys(ROW_REQUIREMENTS) as (keyof typeof ROW_REQUIREMENTS)[];

function isBlank(value: unknown): boolean {
  return (
    value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
  );
}

/**
 * "Missing data for required field." for each required value of every row the person added and
 * left empty, at the row's own index. The server reads an empty row as no row at all (the form
 * sends blank values for what was left alone), so without this a row that was added and not
 * filled in would vanish at the next load without a word, where a half-filled one is flagged.
 */
export function emptyRowErrors(metadata: MetadataFormValues): FieldError[] {
  const errors: FieldError[] = [];
  for (const list of ROW_LISTS) {
    const rows: readonly object[] = metadata[list];
    rows.forEach((row, index) => {
      if (!Object.values(row).every(isBlank)) return;
      for (const key of ROW_REQUIREMENTS[list]) {
        errors.push({ field: `metadata.${list}.${index}.${key}`, messages: [MESSAGES.required] });
      }
    });
  }
  return errors;
}
