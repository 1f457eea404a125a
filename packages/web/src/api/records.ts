import { z } from 'zod';

/*
 * The slice of InvenioRDM's record JSON that the web app reads. Objects are loose: unknown keys are
 * kept, so a draft can be sent back with every field the form does not edit yet (PUT replaces
 * metadata wholesale).
 */

/** One item of the wire `errors` list: `{field, messages, severity?, description?}`. */
export const FieldErrorSchema = z.looseObject({
  field: z.string(),
  messages: z.array(z.string()),
  severity: z.string().optional(),
  description: z.string().optional(),
});
export type FieldError = z.infer<typeof FieldErrorSchema>;

const LocalizedTextSchema = z.record(z.string(), z.string());

export const VocabularyRefSchema = z.looseObject({
  id: z.string(),
  title: LocalizedTextSchema.optional(),
});

export const PersonOrOrgSchema = z.looseObject({
  type: z.string().optional(),
  name: z.string().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
});

export const CreatorSchema = z.looseObject({
  person_or_org: PersonOrOrgSchema.optional(),
});
export type Creator = z.infer<typeof CreatorSchema>;

export const RecordMetadataSchema = z.looseObject({
  title: z.string().optional(),
  creators: z.array(CreatorSchema).optional(),
  publication_date: z.string().optional(),
  resource_type: VocabularyRefSchema.optional(),
});

export const RecordLinksSchema = z.looseObject({
  self: z.string().optional(),
  self_html: z.string().optional(),
  publish: z.string().optional(),
  record_html: z.string().optional(),
  preview_html: z.string().optional(),
  versions: z.string().optional(),
  latest_html: z.string().optional(),
});

export const RecordFilesSchema = z.looseObject({
  enabled: z.boolean().optional(),
  count: z.number().optional(),
  entries: z.record(z.string(), z.unknown()).optional(),
});

const RecordUiSchema = z.looseObject({
  publication_date_l10n_long: z.string().optional(),
  resource_type: z.looseObject({ title_l10n: z.string().optional() }).optional(),
});

/** A draft or a published record as the API returns it. */
export const RecordJsonSchema = z.looseObject({
  id: z.string(),
  revision_id: z.number().optional(),
  status: z.string().optional(),
  is_draft: z.boolean().optional(),
  is_published: z.boolean().optional(),
  updated: z.string().optional(),
  links: RecordLinksSchema.prefault({}),
  metadata: RecordMetadataSchema.prefault({}),
  access: z.record(z.string(), z.unknown()).optional(),
  files: RecordFilesSchema.optional(),
  pids: z.record(z.string(), z.unknown()).optional(),
  custom_fields: z.record(z.string(), z.unknown()).optional(),
  errors: z.array(FieldErrorSchema).optional(),
  ui: RecordUiSchema.optional(),
  versions: z
    .looseObject({ index: z.number().optional(), is_latest: z.boolean().optional() })
    .optional(),
});
export type RecordJson = z.infer<typeof RecordJsonSchema>;

/** `GET /api/user/records`, the caller's own uploads; only the hits are read. */
export const RecordSearchResultSchema = z.looseObject({
  hits: z.looseObject({ hits: z.array(RecordJsonSchema) }),
});
export type RecordSearchResult = z.infer<typeof RecordSearchResultSchema>;

/** The display name InvenioRDM computes for persons ("Family, Given"), else the given parts. */
export function formatCreatorName(creator: Creator): string {
  const person = creator.person_or_org;
  if (!person) return '';
  if (person.name) return person.name;
  return [person.family_name, person.given_name].filter(Boolean).join(', ');
}
