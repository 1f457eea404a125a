import type {
  AwardFormValues,
  CreatorFormValues,
  CustomFieldsFormValues,
  DepositFormValues,
  FunderFormValues,
  FundingFormValues,
  MetadataFormValues,
  RightsFormValues,
} from './form-values.js';
import { ROW_LISTS } from './empty-rows.js';
import { isEmptyValue, removeEmptyValues } from './remove-empty-values.js';
import { asArray, asObject, mapVocabularyFields, withoutUndefined } from './loose-json.js';
import type { ApiRecord, DraftPayload, SerializerOptions } from './serializer.js';

// Form → API: the serialize rules of serializer.ts.

/** The metadata keys the form edits; any other metadata key of the draft is sent back as is. */
const FORM_METADATA_KEYS = [
  'resource_type',
  'title',
  'additional_titles',
  'publication_date',
  'creators',
  'contributors',
  'description',
  'additional_descriptions',
  'rights',
  'languages',
  'dates',
  'version',
  'publisher',
  'identifiers',
  'related_identifiers',
  'references',
  'subjects',
  'funding',
] as const satisfies readonly (keyof MetadataFormValues)[];

/**
 * The payload for saving `values` (serialize rules 1–6): vocabulary ids as `{id}`, custom license
 * and funding titles wrapped by the default locale, a funding `url` as an `identifiers` entry,
 * empty values removed (rule R), `pids`, `metadata` and `custom_fields` always present. Read-only
 * parts (status, versions, links, …) are never sent.
 *
 * PUT replaces metadata wholesale, as InvenioRDM's does, so metadata keys the form does not edit
 * (`copyright`, `locations`, …) are taken from `base`, the draft as the server last returned it
 * (null before the first save).
 */
export function serializeDraft(
  values: DepositFormValues,
  base: ApiRecord | null,
  options: SerializerOptions,
): DraftPayload {
  const baseMetadata = asObject(base?.['metadata']);
  const untouched = Object.fromEntries(
    Object.entries(baseMetadata).filter(
      ([key]) => !(FORM_METADATA_KEYS as readonly string[]).includes(key),
    ),
  );
  const metadata = { ...untouched, ...serializeMetadata(values.metadata, options.defaultLocale) };
  const customFields = serializeCustomFields(
    values.custom_fields,
    options.vocabularyCustomFields ?? [],
  );
  const cleaned = asObject(
    removeEmptyValues({
      metadata,
      access: values.access,
      files: values.files,
      custom_fields: customFields,
    }),
  );
  // Serialize rule 5: pids always go, even `{}`, so the server does not depend on the previous
  // state. A chosen-but-empty external DOI is kept: it is what blocks publishing without a DOI.
  const pids: Record<string, unknown> = {};
  for (const [scheme, pid] of Object.entries(values.pids)) {
    pids[scheme] = withoutUndefined({
      identifier: pid.identifier,
      provider: pid.provider,
      client: pid.client || undefined,
    });
  }
  const cleanedMetadata: Record<string, unknown> = { ...asObject(cleaned['metadata']) };
  // A row the person added and left empty is sent as `{}` in its place rather than dropped:
  // the server reads it as absent but counts it, so the indexes of its messages about the rows
  // after it still match the form's rows (emptyRowErrors flags the empty row itself).
  for (const key of ROW_LISTS) {
    const rows = asArray(metadata[key]);
    if (rows.length > 0) cleanedMetadata[key] = rows.map((row) => asObject(removeEmptyValues(row)));
  }
  return {
    metadata: cleanedMetadata,
    access: { ...asObject(cleaned['access']) },
    // `enabled: false` is a meaningful boolean, kept by rule R at object level.
    files: { ...asObject(cleaned['files']) },
    pids,
    custom_fields: { ...asObject(cleaned['custom_fields']) },
  };
}

function vocabulary(id: string): { id: string } {
  return { id };
}

function serializeMetadata(metadata: MetadataFormValues, locale: string): Record<string, unknown> {
  return {
    resource_type: vocabulary(metadata.resource_type),
    title: metadata.title,
    additional_titles: metadata.additional_titles.map((entry) => ({
      title: entry.title,
      type: vocabulary(entry.type),
      lang: vocabulary(entry.lang),
    })),
    publication_date: metadata.publication_date,
    creators: metadata.creators.map(serializeCreator),
    contributors: metadata.contributors.map(serializeCreator),
    description: metadata.description,
    additional_descriptions: metadata.additional_descriptions.map((entry) => ({
      description: entry.description,
      type: vocabulary(entry.type),
      lang: vocabulary(entry.lang),
    })),
    rights: metadata.rights.map((entry) => serializeRight(entry, locale)),
    languages: metadata.languages.map(vocabulary),
    dates: metadata.dates.map((entry) => ({
      date: entry.date,
      type: vocabulary(entry.type),
      description: entry.description,
    })),
    version: metadata.version,
    publisher: metadata.publisher,
    identifiers: metadata.identifiers.map(({ scheme, identifier }) => ({ scheme, identifier })),
    related_identifiers: metadata.related_identifiers.map((entry) => ({
      scheme: entry.scheme,
      identifier: entry.identifier,
      relation_type: vocabulary(entry.relation_type),
      resource_type: vocabulary(entry.resource_type),
    })),
    references: metadata.references.map(({ reference }) => ({ reference })),
    subjects: metadata.subjects.map(({ id, subject }) => (id ? { id, subject } : { subject })),
    funding: metadata.funding.map((entry) => serializeFunding(entry, locale)),
  };
}

/**
 * A person sends its names, an organisation its name: the form keeps both while the person
 * switches type, and the server would refuse a name that does not belong to the type. Exported for
 * the creators list's JSON export, which writes what a draft would send.
 */
export function serializeCreator(creator: CreatorFormValues): Record<string, unknown> {
  const { type, given_name, family_name, name, identifiers } = creator.person_or_org;
  const ids = identifiers.map(({ scheme, identifier }) => ({ scheme, identifier }));
  return {
    person_or_org:
      type === 'personal'
        ? { type, given_name, family_name, identifiers: ids }
        : { type, name, identifiers: ids },
    role: vocabulary(creator.role),
    // Only the parts present, so a free-text affiliation is `{name}`.
    affiliations: creator.affiliations.map(({ id, name }) => (id ? { id, name } : { name })),
  };
}

/** A standard license is `{id}`; a custom one has its texts wrapped by the default locale. */
function serializeRight(entry: RightsFormValues, locale: string): Record<string, unknown> {
  if (entry.id) return { id: entry.id };
  const { id: _id, title, description, ...rest } = entry;
  return {
    ...rest,
    ...(title !== undefined ? { title: { [locale]: title } } : {}),
    ...(description !== undefined ? { description: { [locale]: description } } : {}),
  };
}

function serializeFunding(entry: FundingFormValues, locale: string): Record<string, unknown> {
  return {
    funder: serializeFundingPart(entry.funder, locale),
    award: serializeFundingPart(entry.award, locale),
  };
}

function serializeFundingPart(
  part: FunderFormValues | AwardFormValues,
  locale: string,
): Record<string, unknown> {
  if (part.id) return { id: part.id };
  const { id: _id, title, url, ...rest } = part;
  return {
    ...rest,
    ...(title ? { title: { [locale]: title } } : {}),
    ...(url ? { identifiers: [{ identifier: url, scheme: 'url' }] } : {}),
  };
}

function serializeCustomFields(
  customFields: CustomFieldsFormValues,
  vocabularyFields: readonly string[],
): Record<string, unknown> {
  return mapVocabularyFields(customFields, vocabularyFields, expandVocabulary);
}

function expandVocabulary(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(expandVocabulary);
  return typeof value === 'string' ? { id: value } : value;
}

/** Whether the serialized payload would save nothing the person typed (an untouched new form). */
export function isEmptyPayload(payload: DraftPayload): boolean {
  return isEmptyValue(payload.metadata) && isEmptyValue(payload.custom_fields);
}
