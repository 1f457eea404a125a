import { DEFAULT_ACCESS, type Access } from '../domain/access.js';
import type {
  AffiliationFormValues,
  AwardFormValues,
  CreatorFormValues,
  CustomFieldsFormValues,
  DepositFormValues,
  FunderFormValues,
  IdentifierFormValues,
  MetadataFormValues,
  PidFormValues,
  RightsFormValues,
  SubjectFormValues,
} from './form-values.js';
import { removeEmptyValues } from './remove-empty-values.js';
import {
  asArray,
  asObject,
  asString,
  isObject,
  mapVocabularyFields,
  optionalString,
  withoutUndefined,
  type Json,
} from './loose-json.js';
import type {
  ApiRecord,
  DeserializedDraft,
  DraftRecordInfo,
  SerializerOptions,
} from './serializer.js';

// API → form: the deserialize rules of serializer.ts.

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

/**
 * Rules 4–6: declared sub-keys only; role as its id; affiliations as `{id?, name}`. Exported for
 * the creators list's JSON import, which reads the same objects as a draft holds.
 */
export function deserializeCreator(item: unknown): CreatorFormValues {
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
  return mapVocabularyFields(
    customFields,
    vocabularyFields,
    collapseVocabulary,
  ) as CustomFieldsFormValues;
}

function collapseVocabulary(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(collapseVocabulary);
  return isObject(value) && 'id' in value ? value['id'] : value;
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
