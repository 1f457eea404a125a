import { z } from 'zod';
import { isEdtfDate } from './edtf.js';
import { IdentifierEntrySchema } from './identifier-entry.js';
import { isHttpUrl, isValidIdentifier } from './identifiers.js';
import { MESSAGES } from '../validation/messages.js';

/**
 * How one sub-field of a custom field group is checked: free `text`, a checked `isbn` or `issn`,
 * an http(s) `url`, a single EDTF `date`, or a list of `identifiers`.
 */
export type CustomFieldKind = 'text' | 'isbn' | 'issn' | 'url' | 'date' | 'identifiers';

/**
 * The custom field groups Cairn ships (imprint, journal, meeting, thesis), keyed as InvenioRDM keys
 * them, with the kind of each sub-field. One table drives both the schema below and `loadRecord`.
 */
export const CUSTOM_FIELD_GROUPS = Object.freeze({
  'imprint:imprint': { title: 'text', isbn: 'isbn', place: 'text', pages: 'text', edition: 'text' },
  'journal:journal': { title: 'text', issn: 'issn', volume: 'text', issue: 'text', pages: 'text' },
  'meeting:meeting': {
    title: 'text',
    acronym: 'text',
    dates: 'text',
    place: 'text',
    url: 'url',
    session: 'text',
    session_part: 'text',
    identifiers: 'identifiers',
  },
  'thesis:thesis': {
    university: 'text',
    department: 'text',
    type: 'text',
    date_submitted: 'date',
    date_defended: 'date',
  },
} as const satisfies Record<string, Record<string, CustomFieldKind>>);

/** A custom field group's key, e.g. `journal:journal`. */
export type CustomFieldGroup = keyof typeof CUSTOM_FIELD_GROUPS;

const TextSchema = z.string().min(1);
const IsbnSchema = z
  .string()
  .refine((value) => isValidIdentifier('isbn', value), MESSAGES.invalidIsbn);
const IssnSchema = z
  .string()
  .refine((value) => isValidIdentifier('issn', value), MESSAGES.invalidIssn);
const UrlSchema = z.string().refine(isHttpUrl, MESSAGES.invalidUrl);
const DateSchema = z
  .string()
  .refine((value) => isEdtfDate(value, { allowInterval: false }), MESSAGES.invalidEdtfDate);

/** Imprint of a book, chapter or report. */
export const ImprintSchema = z.object({
  title: TextSchema.optional(),
  isbn: IsbnSchema.optional(),
  place: TextSchema.optional(),
  pages: TextSchema.optional(),
  edition: TextSchema.optional(),
});

/** Journal an article appeared in. */
export const JournalSchema = z.object({
  title: TextSchema.optional(),
  issn: IssnSchema.optional(),
  volume: TextSchema.optional(),
  issue: TextSchema.optional(),
  pages: TextSchema.optional(),
});

/** Conference or meeting a contribution was presented at. */
export const MeetingSchema = z.object({
  title: TextSchema.optional(),
  acronym: TextSchema.optional(),
  dates: TextSchema.optional(),
  place: TextSchema.optional(),
  url: UrlSchema.optional(),
  session: TextSchema.optional(),
  session_part: TextSchema.optional(),
  identifiers: z.array(IdentifierEntrySchema).optional(),
});

/** Thesis details; both dates are single EDTF dates. */
export const ThesisSchema = z.object({
  university: TextSchema.optional(),
  department: TextSchema.optional(),
  type: TextSchema.optional(),
  date_submitted: DateSchema.optional(),
  date_defended: DateSchema.optional(),
});

/** `custom_fields` of a draft: only the groups of `CUSTOM_FIELD_GROUPS`, each optional. */
export const CustomFieldsSchema = z.object({
  'imprint:imprint': ImprintSchema.optional(),
  'journal:journal': JournalSchema.optional(),
  'meeting:meeting': MeetingSchema.optional(),
  'thesis:thesis': ThesisSchema.optional(),
});

/** A draft's custom fields. */
export type CustomFields = z.infer<typeof CustomFieldsSchema>;

/** An imprint. */
export type Imprint = z.infer<typeof ImprintSchema>;
/** A journal. */
export type Journal = z.infer<typeof JournalSchema>;
/** A meeting. */
export type Meeting = z.infer<typeof MeetingSchema>;
/** A thesis. */
export type Thesis = z.infer<typeof ThesisSchema>;

/**
 * The one widget the deposit form offers for a field other than the groups above: a field the
 * instance announces but does not offer yet (InvenioRDM's `ComingSoonField`).
 */
export const COMING_SOON_WIDGET = 'ComingSoonField';

/**
 * One entry of the deposit form's custom fields area, in the spirit of InvenioRDM's
 * `RDM_CUSTOM_FIELDS_UI` fields: one of the groups above (`{field: 'journal:journal'}`, shown
 * with its own widget), or a placeholder (`{field: 'cern:experiment', ui_widget:
 * 'ComingSoonField', props: {label, description}}`), which holds no value.
 */
export const CustomFieldUiSchema = z
  .object({
    field: z.string().min(1),
    ui_widget: z.literal(COMING_SOON_WIDGET).optional(),
    props: z
      .object({ label: z.string().min(1).optional(), description: z.string().optional() })
      .optional(),
  })
  .superRefine((entry, ctx) => {
    const isGroup = Object.hasOwn(CUSTOM_FIELD_GROUPS, entry.field);
    if (isGroup && entry.ui_widget !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['ui_widget'],
        message: `${entry.field} has a widget of its own; leave ui_widget out`,
      });
    }
    if (!isGroup && entry.ui_widget === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['ui_widget'],
        message: `${entry.field} is not one of ${Object.keys(CUSTOM_FIELD_GROUPS).join(', ')}: only ${COMING_SOON_WIDGET} can show it`,
      });
    }
    if (entry.ui_widget === COMING_SOON_WIDGET && entry.props?.label === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['props', 'label'],
        message: `${COMING_SOON_WIDGET} needs a label`,
      });
    }
  });

/** A custom fields area entry. */
export type CustomFieldUi = z.infer<typeof CustomFieldUiSchema>;

/** What the deposit form shows in its custom fields area, in this order; each field once. */
export const CustomFieldsUiSchema = z
  .array(CustomFieldUiSchema)
  .refine(
    (entries) => new Set(entries.map((entry) => entry.field)).size === entries.length,
    'each field may be listed once',
  );

/** The custom fields area: the four groups, in the order above, unless configured otherwise. */
export const DEFAULT_CUSTOM_FIELDS_UI: readonly CustomFieldUi[] = Object.freeze(
  (Object.keys(CUSTOM_FIELD_GROUPS) as CustomFieldGroup[]).map((field) => ({ field })),
);
