import { DEFAULT_ACCESS, type Access } from '../domain/access.js';
import type {
  AffiliationFormValues,
  AwardFormValues,
  CreatorFormValues,
  CustomFieldsFormValues,
  DepositFormValues,
  FunderFormValues,
  FundingFormValues,
  IdentifierFormValues,
  MetadataFormValues,
  PidFormValues,
  RightsFormValues,
  SubjectFormValues,
} from './form-values.js';
import { ROW_LISTS } from './empty-rows.js';
import { isEmptyValue, removeEmptyValues } from './remove-empty-values.js';

/*
 * Form values ⇄ API payload, after InvenioRDM's DepositRecordSerializer. Its rules, numbered here
 * in the order it applies them; a comment's "rule N" is deserialize rule N unless it says
 * otherwise.
 *
 * Deserialize (API → form):
 *   1. only the keys the editor uses are kept (access, metadata, pids, custom_fields, files,
 *      links, status, versions, parent, expanded, ui, review, …); `errors`, `stats` and the
 *      like are dropped;
 *   2. empty values are stripped (rule R), but `pids` is put back as sent when it was not empty;
 *   3. every field gets its default: text `''`, lists `[]`, access public/public, pids `{}`;
 *   4. lists of objects keep only their declared sub-keys (a reference keeps `reference` alone);
 *   5. vocabulary fields collapse `{id, title…}` to the id;
 *   6. vocabularies that allow additions (affiliations, subjects) keep `{id?, name|subject}`;
 *   7. a standard licence is held by its id; a custom one has its title and description
 *      unwrapped from the default locale;
 *   8. funder and award titles are unwrapped, and a `url` identifier becomes `url`;
 *   9. vocabulary custom fields collapse to their ids.
 *
 * Serialize (form → API):
 *   1. only access, metadata, files, pids and custom_fields are sent, never status, versions,
 *      `ui` or the like;
 *   2. `pids` is set aside;
 *   3. every field is turned back: ids to `{id}`, custom titles wrapped by the default locale,
 *      a funding `url` to an `identifiers` entry;
 *   4. empty values are stripped again (rule R);
 *   5. `pids` always goes, `{}` when empty;
 *   6. `metadata` and `custom_fields` are always present.
 *
 * Rule R is `_removeEmptyValues` (remove-empty-values.ts).
 */

/** A draft or record as the API returns it; read defensively, every key may be missing. */
export type ApiRecord = Readonly<Record<string, unknown>>;

/** What the serializer needs from the instance configuration. */
export interface SerializerOptions {
  /** Custom-license and custom-funding titles are wrapped as `{[defaultLocale]: text}`. */
  defaultLocale: string;
  /**
   * Custom fields (`journal:journal` style keys, or `group.field` for a field inside a group)
   * whose values are vocabulary references: sent as `{id}`, held by the form as the id.
   */
  vocabularyCustomFields?: readonly string[];
}

/**
 * The parts of a draft the editor reads but never sends (rule 1 of deserialize minus the form's
 * values): links for every action, the status and versions for the buttons, the parent and
 * `expanded` for the community, `ui` for display labels, the revision for `If-Match`.
 */
export interface DraftRecordInfo {
  id?: string;
  links: Readonly<Record<string, string>>;
  status?: string;
  is_published: boolean;
  versions?: Readonly<{ index?: number; is_latest?: boolean; is_latest_draft?: boolean }>;
  parent?: ApiRecord;
  /** `?expand=1` data: the review receiver and default community as full objects. */
  expanded: ApiRecord;
  ui?: ApiRecord;
  /** A new-version draft's own review request (first versions keep it in `parent.review`). */
  review?: ApiRecord;
  revision_id?: number;
  created?: string;
  updated?: string;
  /** The files as the draft lists them (`entries` keyed by file name). */
  files?: ApiRecord;
  media_files?: ApiRecord;
}

export interface DeserializedDraft {
  values: DepositFormValues;
  record: DraftRecordInfo;
}

/** What POST /api/records and PUT {links.self} receive. */
export interface DraftPayload {
  metadata: Record<string, unknown>;
  access: Record<string, unknown>;
  files: Record<string, unknown>;
  pids: Record<string, unknown>;
  custom_fields: Record<string, unknown>;
}

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

// ---------------------------------------------------------------------------------------------
// Reading loosely typed JSON

type Json = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObject(value: unknown): Json {
  return isObject(value) ? value : {};
}

function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Rule 5: `{id, title…}` → the id; a value without `id` (already a string) is kept. */
function toVocabularyId(value: unknown): string {
  if (isObject(value)) return asString(value['id']);
  return asString(value);
}

/**
 * Rules 7–8: a title wrapped by locale (`{en: 'Text'}`) as the default locale's text. A title
 * stored under another locale still shows rather than vanishing from the form.
 */
function unwrapLocalized(value: unknown, locale: string): string | undefined {
  if (typeof value === 'string') return value;
  if (!isObject(value)) return undefined;
  const text = value[locale] ?? Object.values(value).find((item) => typeof item === 'string');
  return typeof text === 'string' ? text : undefined;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}

// ---------------------------------------------------------------------------------------------
// Deserialize (API → form)

/**
 * The form values and read-only parts of `apiRecord` (deserialize rules 1–9). Every list field is
 * present (`[]`), every text field a string (`''`), access defaults to public/public, `pids` is
 * kept as sent even when its values are empty (rule 2).
 */
export function deserializeDraft(
  apiRecord: ApiRecord,
  options: SerializerOptions,
): DeserializedDraft {
  const originalPids = asObject(apiRecord['pids']);
  // Rule 2: the nulls of an "empty dump" and blank strings go before defaults are applied. Only
  // the parts read below are cleaned: `ui`, `expanded` and the rest can be as large again.
  const cleaned = asObject(
    removeEmptyValues({
      metadata: apiRecord['metadata'],
      access: apiRecord['access'],
      pids: apiRecord['pids'],
      custom_fields: apiRecord['custom_fields'],
    }),
  );
  const pids = Object.keys(originalPids).length > 0 ? originalPids : asObject(cleaned['pids']);
  return {
    values: {
      metadata: deserializeMetadata(asObject(cleaned['metadata']), options.defaultLocale),
      access: deserializeAccess(cleaned['access']),
      pids: deserializePids(pids),
      custom_fields: deserializeCustomFields(
        asObject(cleaned['custom_fields']),
        options.vocabularyCustomFields ?? [],
      ),
      files: deserializeFiles(apiRecord['files']),
    },
    record: readRecordInfo(apiRecord),
  };
}

/**
 * The read-only parts of `apiRecord`, as `deserializeDraft` gives them, without reading the
 * form's values: after a save the editor needs these only, and the values can be 10,000 creators.
 */
export function readRecordInfo(apiRecord: ApiRecord): DraftRecordInfo {
  const links = Object.fromEntries(
    Object.entries(asObject(apiRecord['links'])).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
  const versions = asObject(apiRecord['versions']);
  return withoutUndefined<DraftRecordInfo>({
    id: optionalString(apiRecord['id']),
    links,
    status: optionalString(apiRecord['status']),
    is_published: apiRecord['is_published'] === true,
    versions: isObject(apiRecord['versions'])
      ? withoutUndefined({
          index: typeof versions['index'] === 'number' ? versions['index'] : undefined,
          is_latest: typeof versions['is_latest'] === 'boolean' ? versions['is_latest'] : undefined,
          is_latest_draft:
            typeof versions['is_latest_draft'] === 'boolean'
              ? versions['is_latest_draft']
              : undefined,
        })
      : undefined,
    parent: isObject(apiRecord['parent']) ? apiRecord['parent'] : undefined,
    expanded: asObject(apiRecord['expanded']),
    ui: isObject(apiRecord['ui']) ? apiRecord['ui'] : undefined,
    review: isObject(apiRecord['review']) ? apiRecord['review'] : undefined,
    revision_id:
      typeof apiRecord['revision_id'] === 'number' ? apiRecord['revision_id'] : undefined,
    created: optionalString(apiRecord['created']),
    updated: optionalString(apiRecord['updated']),
    files: isObject(apiRecord['files']) ? apiRecord['files'] : undefined,
    media_files: isObject(apiRecord['media_files']) ? apiRecord['media_files'] : undefined,
  });
}

function deserializeMetadata(metadata: Json, locale: string): MetadataFormValues {
  return {
    resource_type: toVocabularyId(metadata['resource_type']),
    title: asString(metadata['title']),
    additional_titles: asArray(metadata['additional_titles']).map((item) => {
      const entry = asObject(item);
      return {
        title: asString(entry['title']),
        type: toVocabularyId(entry['type']),
        lang: toVocabularyId(entry['lang']),
      };
    }),
    publication_date: asString(metadata['publication_date']),
    creators: asArray(metadata['creators']).map(deserializeCreator),
    contributors: asArray(metadata['contributors']).map(deserializeCreator),
    description: asString(metadata['description']),
    additional_descriptions: asArray(metadata['additional_descriptions']).map((item) => {
      const entry = asObject(item);
      return {
        description: asString(entry['description']),
        type: toVocabularyId(entry['type']),
        lang: toVocabularyId(entry['lang']),
      };
    }),
    rights: asArray(metadata['rights']).map((item) => deserializeRight(asObject(item), locale)),
    languages: asArray(metadata['languages']).map(toVocabularyId),
    dates: asArray(metadata['dates']).map((item) => {
      const entry = asObject(item);
      return {
        date: asString(entry['date']),
        type: toVocabularyId(entry['type']),
        description: asString(entry['description']),
      };
    }),
    version: asString(metadata['version']),
    publisher: asString(metadata['publisher']),
    identifiers: asArray(metadata['identifiers']).map(deserializeIdentifier),
    related_identifiers: asArray(metadata['related_identifiers']).map((item) => {
      const entry = asObject(item);
      return {
        scheme: asString(entry['scheme']),
        identifier: asString(entry['identifier']),
        relation_type: toVocabularyId(entry['relation_type']),
        resource_type: toVocabularyId(entry['resource_type']),
      };
    }),
    // Rule 4: only `reference` is declared, so a reference's identifier/scheme are not edited.
    references: asArray(metadata['references']).map((item) => ({
      reference: asString(asObject(item)['reference']),
    })),
    subjects: asArray(metadata['subjects']).map((item): SubjectFormValues => {
      const entry = asObject(item);
      const id = optionalString(entry['id']);
      return { ...(id ? { id } : {}), subject: asString(entry['subject']) };
    }),
    funding: asArray(metadata['funding']).map((item) => {
      const entry = asObject(item);
      return {
        funder: deserializeFundingPart(entry['funder'], locale),
        award: deserializeFundingPart(entry['award'], locale),
      };
    }),
  };
}

function deserializeIdentifier(item: unknown): IdentifierFormValues {
  const entry = asObject(item);
  return { scheme: asString(entry['scheme']), identifier: asString(entry['identifier']) };
}

/** Rules 4–6: declared sub-keys only; role as its id; affiliations as `{id?, name}`. */
function deserializeCreator(item: unknown): CreatorFormValues {
  const entry = asObject(item);
  const person = asObject(entry['person_or_org']);
  const isOrganisation = person['type'] === 'organizational';
  return {
    person_or_org: {
      type: isOrganisation ? 'organizational' : 'personal',
      ...(isOrganisation
        ? {
            given_name: asString(person['given_name']),
            family_name: asString(person['family_name']),
          }
        : personNames(person)),
      // The server fills "Family, Given" for persons; only an organisation's name is edited.
      name: isOrganisation ? asString(person['name']) : '',
      identifiers: asArray(person['identifiers']).map(deserializeIdentifier),
    },
    role: toVocabularyId(entry['role']),
    affiliations: asArray(entry['affiliations']).map((affiliation): AffiliationFormValues => {
      const value = asObject(affiliation);
      const id = optionalString(value['id']);
      return { ...(id ? { id } : {}), name: asString(value['name']) };
    }),
  };
}

/**
 * A person's family and given names as the form edits them. A person stored with its display name
 * alone (as API clients and imports send it: `{"type": "personal", "name": "Doe, Jane"}`) has the
 * name split at its first comma, family name first, as the server joins them, so the next save
 * sends the same name back; a name without a comma becomes the family name whole (less a given
 * name sent beside it that starts it). A given name that was sent is kept as it is. Since the form sends only these two parts, a person is never
 * saved with fewer names than it was read with.
 */
function personNames(person: Readonly<Record<string, unknown>>): {
  given_name: string;
  family_name: string;
} {
  const given = asString(person['given_name']);
  const family = asString(person['family_name']);
  const name = asString(person['name']).trim();
  if (family.trim() !== '' || name === '' || name === given.trim()) {
    return { given_name: given, family_name: family };
  }
  const comma = name.indexOf(',');
  if (comma < 0) {
    // "Jane Doe" next to the given name "Jane": the rest is the family name.
    const rest = given.trim() !== '' && name.startsWith(`${given.trim()} `);
    return { given_name: given, family_name: rest ? name.slice(given.trim().length).trim() : name };
  }
  return {
    family_name: name.slice(0, comma).trim(),
    given_name: given.trim() !== '' ? given : name.slice(comma + 1).trim(),
  };
}

/**
 * Rule 7: a standard license is held by its id; its title and description (unwrapped) stay for
 * display only — `serializeDraft` sends `{id}`. A custom license's title and description are
 * unwrapped from the default locale.
 */
function deserializeRight(entry: Json, locale: string): RightsFormValues {
  const id = optionalString(entry['id']);
  const title = unwrapLocalized(entry['title'], locale);
  const description = unwrapLocalized(entry['description'], locale);
  const link = optionalString(entry['link']);
  return withoutUndefined<RightsFormValues>({ id, title, description, link });
}

/**
 * Rule 8: title unwrapped; `identifiers` dropped, its `url` entry copied to `url`. A missing
 * funder or award becomes `{}`.
 */
function deserializeFundingPart(
  value: unknown,
  locale: string,
): FunderFormValues & AwardFormValues {
  const entry = asObject(value);
  const { title, identifiers, ...rest } = entry;
  const url = asArray(identifiers)
    .map(asObject)
    .find((identifier) => identifier['scheme'] === 'url')?.['identifier'];
  const unwrapped = unwrapLocalized(title, locale);
  const result: Record<string, unknown> = { ...rest };
  if (unwrapped !== undefined) result['title'] = unwrapped;
  if (typeof url === 'string') result['url'] = url;
  return result;
}

/** A new record is public, record and files; an access without an embargo gets an inactive one. */
function deserializeAccess(value: unknown): Access {
  const access = asObject(value);
  if (Object.keys(access).length === 0) {
    return { ...DEFAULT_ACCESS, embargo: { ...DEFAULT_ACCESS.embargo } };
  }
  return {
    ...access,
    record: access['record'] === 'restricted' ? 'restricted' : 'public',
    files: access['files'] === 'restricted' ? 'restricted' : 'public',
    embargo: isObject(access['embargo'])
      ? (access['embargo'] as Access['embargo'])
      : { active: false },
  };
}

function deserializePids(pids: Json): Record<string, PidFormValues> {
  return Object.fromEntries(
    Object.entries(pids).map(([scheme, value]) => {
      const pid = asObject(value);
      const client = optionalString(pid['client']);
      return [
        scheme,
        {
          identifier: asString(pid['identifier']),
          provider: asString(pid['provider']),
          ...(client ? { client } : {}),
        },
      ];
    }),
  );
}

/**
 * Rule 9: vocabulary custom fields hold their ids (also inside lists). InvenioRDM's `__key` on
 * list elements is not needed: React Hook Form keys its own field arrays.
 */
function deserializeCustomFields(
  customFields: Json,
  vocabularyFields: readonly string[],
): CustomFieldsFormValues {
  const result: CustomFieldsFormValues = {};
  for (const [key, value] of Object.entries(customFields)) {
    if (vocabularyFields.includes(key)) {
      result[key] = collapseVocabulary(value) as Record<string, unknown>;
      continue;
    }
    if (!isObject(value)) {
      result[key] = value as Record<string, unknown>;
      continue;
    }
    result[key] = Object.fromEntries(
      Object.entries(value).map(([field, item]) => [
        field,
        vocabularyFields.includes(`${key}.${field}`) ? collapseVocabulary(item) : item,
      ]),
    );
  }
  return result;
}

function collapseVocabulary(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(collapseVocabulary);
  return isObject(value) && 'id' in value ? value['id'] : value;
}

function expandVocabulary(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(expandVocabulary);
  return typeof value === 'string' ? { id: value } : value;
}

function deserializeFiles(value: unknown): DepositFormValues['files'] {
  const files = asObject(value);
  const defaultPreview = optionalString(files['default_preview']);
  return {
    // InvenioRDM's default (RDM_DEFAULT_FILES_ENABLED): a record has files unless made
    // metadata-only.
    enabled: files['enabled'] !== false,
    ...(defaultPreview ? { default_preview: defaultPreview } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Serialize (form → API)

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
 * switches type, and the server would refuse a name that does not belong to the type.
 */
function serializeCreator(creator: CreatorFormValues): Record<string, unknown> {
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
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(customFields)) {
    if (vocabularyFields.includes(key)) {
      result[key] = expandVocabulary(value);
      continue;
    }
    if (!isObject(value)) {
      result[key] = value;
      continue;
    }
    result[key] = Object.fromEntries(
      Object.entries(value).map(([field, item]) => [
        field,
        vocabularyFields.includes(`${key}.${field}`) ? expandVocabulary(item) : item,
      ]),
    );
  }
  return result;
}

/** Whether the serialized payload would save nothing the person typed (an untouched new form). */
export function isEmptyPayload(payload: DraftPayload): boolean {
  return isEmptyValue(payload.metadata) && isEmptyValue(payload.custom_fields);
}
