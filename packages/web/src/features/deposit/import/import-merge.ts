import type {
  ImportMetadataAnswer,
  MetadataFormValues,
  RelatedIdentifierFormValues,
  UnmatchedImport,
} from '@cairn/shared';

/*
 * What the Import dialog reviews and applies: the fields an import would set, read into the
 * form's shapes, and which of them the person takes. Pure, so that the dialog only shows it.
 */

/** The fields an import may set, in the order the review lists them (the form's order). */
export const IMPORT_FIELDS = [
  'resource_type',
  'title',
  'additional_titles',
  'publication_date',
  'creators',
  'description',
  'additional_descriptions',
  'rights',
  'contributors',
  'subjects',
  'languages',
  'dates',
  'version',
  'publisher',
  'funding',
  'identifiers',
  'related_identifiers',
  'references',
] as const satisfies ReadonlyArray<keyof MetadataFormValues>;

export type ImportField = (typeof IMPORT_FIELDS)[number];

/** One field of the review: what the import would set beside what the form holds. */
export interface ReviewField<F extends ImportField = ImportField> {
  field: F;
  imported: MetadataFormValues[F];
  current: MetadataFormValues[F];
  /** Values no vocabulary entry matched, under this field. */
  unmatched: UnmatchedImport[];
}

/** The answer read for review: the fields it would set, in order, and the offered relations. */
export interface ImportReview {
  fields: ReviewField[];
  /** The source's DOI as related identifiers to choose from, in the form's shape. */
  suggestions: RelatedIdentifierFormValues[];
}

/**
 * Reads API metadata into the form's shapes (the draft's deserializer): handed in by the form,
 * whose chunk has it, so that the dialog's chunk shares no module of its own with the page.
 */
export type ToFormMetadata = (metadata: Record<string, unknown>) => MetadataFormValues;

/** The answer's metadata in the form's shapes, field by field beside the form's own values. */
export function reviewImport(
  answer: ImportMetadataAnswer,
  current: MetadataFormValues,
  toFormMetadata: ToFormMetadata,
): ImportReview {
  const suggestions = toFormMetadata({
    related_identifiers: answer.suggested_related_identifiers,
  }).related_identifiers;
  const imported = toFormMetadata(answer.metadata);
  const sent = new Set(Object.keys(answer.metadata));
  const fields = IMPORT_FIELDS.filter((field) => sent.has(field) && !isEmpty(imported[field])).map(
    (field): ReviewField => ({
      field,
      imported: imported[field],
      current: current[field],
      unmatched: answer.unmatched.filter((entry) => fieldOf(entry.field) === field),
    }),
  );
  return { fields, suggestions };
}

/** `metadata.creators.1.affiliations.0` → `creators`. */
export function fieldOf(path: string): string {
  return path.replace(/^metadata\./, '').split('.')[0] ?? '';
}

/** What qualifies an entry rather than fills it: a row with only these set is a blank row. */
const QUALIFIERS = new Set(['type', 'lang', 'role', 'scheme', 'relation_type', 'resource_type']);

/** Whether the form holds nothing in a field: no text, no entries, or entries left blank. */
export function isEmpty(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.every(isEmpty);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).every(([key, inner]) => QUALIFIERS.has(key) || isEmpty(inner));
  }
  return value === undefined || value === null;
}

/** Taken by default: the fields the form holds nothing in, so that nothing typed is replaced. */
export function defaultChoice(fields: readonly ReviewField[]): Set<ImportField> {
  return new Set(fields.filter((entry) => isEmpty(entry.current)).map((entry) => entry.field));
}

/**
 * The form's new values for the fields taken, and the chosen relations after its own. Creators
 * are plain values here: the form makes them its list's entries as it takes them (asFormValues).
 */
export function mergeImport(
  current: MetadataFormValues,
  review: ImportReview,
  taken: ReadonlySet<ImportField>,
  relations: readonly RelatedIdentifierFormValues[],
): Partial<MetadataFormValues> {
  const changes: Partial<Record<ImportField, unknown>> = {};
  for (const { field, imported } of review.fields) {
    if (!taken.has(field)) continue;
    changes[field] = imported;
  }
  if (relations.length > 0) {
    const base = (changes.related_identifiers ??
      current.related_identifiers.filter(
        (entry) => !isEmpty(entry),
      )) as RelatedIdentifierFormValues[];
    const key = (r: RelatedIdentifierFormValues) =>
      `${r.scheme}|${r.identifier.toLowerCase()}|${r.relation_type}`;
    const known = new Set(base.map(key));
    changes.related_identifiers = [...base, ...relations.filter((r) => !known.has(key(r)))];
  }
  return changes as Partial<MetadataFormValues>;
}
