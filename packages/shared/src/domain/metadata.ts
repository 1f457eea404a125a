import { z } from 'zod';
import { CreatorSchema } from './creator.js';
import { edtfProblem } from './edtf.js';
import { IdentifierEntrySchema } from './identifier-entry.js';
import { isHttpUrl } from './identifiers.js';
import { LocalizedTextSchema, VocabularyRefSchema } from './vocabulary.js';
import { DESCRIPTION_MIN_LENGTH, TITLE_MIN_LENGTH, VERSION_MAX_LENGTH } from '../limits.js';
import { MESSAGES } from '../validation/messages.js';

/*
 * The schemas in this file describe what a draft may STORE: every value has the right type and
 * format, but required values may still be missing, because a draft keeps what the user typed
 * (InvenioRDM's partial-save rule). `loadRecord` produces data that always satisfies them and
 * reports every problem with InvenioRDM's messages; `validateForPublish` adds the required values.
 */

const TitleTextSchema = z.string().min(TITLE_MIN_LENGTH, MESSAGES.tooShort);
const DescriptionTextSchema = z.string().min(DESCRIPTION_MIN_LENGTH, MESSAGES.tooShort);
const EdtfSchema = z.string().superRefine((value, ctx) => {
  const problem = edtfProblem(value);
  if (problem === undefined) return;
  ctx.addIssue({
    code: 'custom',
    message: problem === 'reversed' ? MESSAGES.intervalReversed : MESSAGES.invalidEdtf,
  });
});
const HttpUrlSchema = z.string().refine(isHttpUrl, MESSAGES.invalidUrl);

/** An additional title: `title` (≥3 characters), `type` (title types vocabulary) and `lang`. */
export const AdditionalTitleSchema = z.object({
  title: TitleTextSchema.optional(),
  type: VocabularyRefSchema.optional(),
  lang: VocabularyRefSchema.optional(),
});

/** An additional title. */
export type AdditionalTitle = z.infer<typeof AdditionalTitleSchema>;

/** An additional description (sanitised HTML, ≥3 characters) with its type and language. */
export const AdditionalDescriptionSchema = z.object({
  description: DescriptionTextSchema.optional(),
  type: VocabularyRefSchema.optional(),
  lang: VocabularyRefSchema.optional(),
});

/** An additional description. */
export type AdditionalDescription = z.infer<typeof AdditionalDescriptionSchema>;

/** A dated event: an EDTF date or interval, its type (date types vocabulary) and a note. */
export const DateEntrySchema = z.object({
  date: EdtfSchema.optional(),
  type: VocabularyRefSchema.optional(),
  description: z.string().optional(),
});

/** A date entry. */
export type DateEntry = z.infer<typeof DateEntrySchema>;

/** A subject: a vocabulary entry by `id`, or a free-text keyword in `subject`. */
export const SubjectSchema = z
  .object({ id: z.string().min(1).optional(), subject: z.string().min(1).optional() })
  .refine(
    (value) => value.id !== undefined || value.subject !== undefined,
    MESSAGES.subjectIdOrText,
  );

/** A subject or keyword. */
export type Subject = z.infer<typeof SubjectSchema>;

/** An alternate identifier of the record itself (`metadata.identifiers`). */
export const AlternateIdentifierSchema = IdentifierEntrySchema;

/** An alternate identifier. */
export type AlternateIdentifier = z.infer<typeof AlternateIdentifierSchema>;

const OptionalIdentifierShape = {
  identifier: z.string().min(1).optional(),
  scheme: IdentifierEntrySchema.shape.scheme.optional(),
};

/** A related work: identifier and scheme, how it relates (relation types) and its resource type. */
export const RelatedIdentifierSchema = z.object({
  ...OptionalIdentifierShape,
  relation_type: VocabularyRefSchema.optional(),
  resource_type: VocabularyRefSchema.optional(),
});

/** A related work. */
export type RelatedIdentifier = z.infer<typeof RelatedIdentifierSchema>;

/** A bibliographic reference as a string, optionally with the identifier of the cited work. */
export const ReferenceSchema = z.object({
  reference: z.string().optional(),
  ...OptionalIdentifierShape,
});

/** A reference. */
export type Reference = z.infer<typeof ReferenceSchema>;

/**
 * A license: a licenses-vocabulary `id`, or a custom license with a one-locale `title`, optional
 * one-locale `description` and an http(s) `link`. Never both kinds at once.
 */
export const RightsSchema = z.object({
  id: z.string().min(1).optional(),
  title: LocalizedTextSchema.optional(),
  description: LocalizedTextSchema.optional(),
  link: HttpUrlSchema.optional(),
});

/** A license entry. */
export type Rights = z.infer<typeof RightsSchema>;

/** A funder by id (funders vocabulary) or by free-text name. */
export const FunderSchema = z.object({
  id: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
});

/** A funder. */
export type Funder = z.infer<typeof FunderSchema>;

/** An award by id (awards vocabulary) or described: one-locale title, number and URL identifiers. */
export const AwardSchema = z.object({
  id: z.string().min(1).optional(),
  title: LocalizedTextSchema.optional(),
  number: z.string().min(1).optional(),
  identifiers: z.array(IdentifierEntrySchema).optional(),
});

/** An award or grant. */
export type Award = z.infer<typeof AwardSchema>;

/** One funding entry: who funded (required at publish) and, optionally, which award. */
export const FundingSchema = z.object({
  funder: FunderSchema.optional(),
  award: AwardSchema.optional(),
});

/** A funding entry. */
export type Funding = z.infer<typeof FundingSchema>;

/** A place the record is about: a GeoJSON geometry, a place name, a description or identifiers. */
export const LocationFeatureSchema = z.object({
  geometry: z.record(z.string(), z.unknown()).optional(),
  place: z.string().optional(),
  description: z.string().optional(),
  identifiers: z
    .array(z.object({ scheme: z.string().min(1), identifier: z.string().min(1) }))
    .optional(),
});

/** A location feature. */
export type LocationFeature = z.infer<typeof LocationFeatureSchema>;

/** `metadata.locations`: a list of features (no editor widget; REST clients send it). */
export const LocationsSchema = z.object({ features: z.array(LocationFeatureSchema) });

/** The record's locations. */
export type Locations = z.infer<typeof LocationsSchema>;

/**
 * `metadata` of a draft, in InvenioRDM's shapes. All keys optional, see the note at the top of this
 * file; `validateForPublish` lists what a published record must have.
 */
export const MetadataSchema = z.object({
  resource_type: VocabularyRefSchema.optional(),
  title: TitleTextSchema.optional(),
  additional_titles: z.array(AdditionalTitleSchema).optional(),
  publication_date: EdtfSchema.optional(),
  creators: z.array(CreatorSchema).optional(),
  contributors: z.array(CreatorSchema).optional(),
  description: DescriptionTextSchema.optional(),
  additional_descriptions: z.array(AdditionalDescriptionSchema).optional(),
  rights: z.array(RightsSchema).optional(),
  copyright: z.string().optional(),
  publisher: z.string().optional(),
  subjects: z.array(SubjectSchema).optional(),
  languages: z.array(VocabularyRefSchema).optional(),
  dates: z.array(DateEntrySchema).optional(),
  version: z.string().max(VERSION_MAX_LENGTH, MESSAGES.versionTooLong).optional(),
  identifiers: z.array(AlternateIdentifierSchema).optional(),
  related_identifiers: z.array(RelatedIdentifierSchema).optional(),
  references: z.array(ReferenceSchema).optional(),
  funding: z.array(FundingSchema).optional(),
  locations: LocationsSchema.optional(),
  sizes: z.array(z.string().min(1)).optional(),
  formats: z.array(z.string().min(1)).optional(),
});

/** A draft's metadata. */
export type Metadata = z.infer<typeof MetadataSchema>;

/** The metadata keys a client may send; any other key is reported as "Unknown field.". */
export const METADATA_FIELDS: readonly (keyof Metadata)[] = Object.freeze(
  Object.keys(MetadataSchema.shape) as (keyof Metadata)[],
);
