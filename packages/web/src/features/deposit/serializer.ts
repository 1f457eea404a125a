import type { Creator, RecordJson } from '../../api/records';

/*
 * Form values <-> API payload, after InvenioRDM's DepositRecordSerializer (reference §2.4). Form
 * paths equal API paths (`metadata.creators.0.person_or_org.family_name`) so that server errors
 * land on inputs without translation.
 */

export type CreatorType = 'personal' | 'organizational';

export interface CreatorFormValues {
  person_or_org: { type: CreatorType; family_name: string; given_name: string; name: string };
}

export interface DepositFormValues {
  metadata: {
    title: string;
    creators: CreatorFormValues[];
    publication_date: string;
    /** The vocabulary id; the payload wraps it as `{id}`. */
    resource_type: string;
  };
}

/** What POST /api/records and PUT …/draft receive. */
export interface DraftPayload {
  metadata: Record<string, unknown>;
  access: Record<string, unknown>;
  files: { enabled: boolean };
  pids: Record<string, unknown>;
  custom_fields: Record<string, unknown>;
}

export function createEmptyCreator(): CreatorFormValues {
  return { person_or_org: { type: 'personal', family_name: '', given_name: '', name: '' } };
}

/** A new upload: InvenioRDM's form defaults the publication date to today. */
export function createEmptyFormValues(today: string): DepositFormValues {
  return {
    metadata: {
      title: '',
      creators: [createEmptyCreator()],
      publication_date: today,
      resource_type: '',
    },
  };
}

export function toFormValues(draft: RecordJson): DepositFormValues {
  const { metadata } = draft;
  const creators = (metadata.creators ?? []).map(toCreatorFormValues);
  return {
    metadata: {
      title: metadata.title ?? '',
      creators: creators.length > 0 ? creators : [createEmptyCreator()],
      publication_date: metadata.publication_date ?? '',
      resource_type: metadata.resource_type?.id ?? '',
    },
  };
}

function toCreatorFormValues(creator: Creator): CreatorFormValues {
  const person = creator.person_or_org ?? {};
  return {
    person_or_org: {
      type: person.type === 'organizational' ? 'organizational' : 'personal',
      family_name: person.family_name ?? '',
      given_name: person.given_name ?? '',
      // The server fills `name` as "Family, Given" for persons; only organisations edit it.
      name: person.type === 'organizational' ? (person.name ?? '') : '',
    },
  };
}

/**
 * The payload for saving `values` on top of `base`, the draft as last returned by the server
 * (null before the first save).
 *
 * PUT replaces metadata, custom fields and PIDs wholesale (reference §1.1), so everything this
 * form does not edit yet is sent back as the server returned it. Empty values are stripped,
 * then `metadata`, `custom_fields` and `pids` are always present as InvenioRDM's serializer does.
 */
export function serializeDraft(values: DepositFormValues, base: RecordJson | null): DraftPayload {
  const baseCreators = base?.metadata.creators ?? [];
  const metadata = {
    ...base?.metadata,
    title: values.metadata.title,
    creators: values.metadata.creators.map((creator, index) =>
      serializeCreator(creator, baseCreators[index]),
    ),
    publication_date: values.metadata.publication_date,
    resource_type: { id: values.metadata.resource_type },
  };
  const cleaned = removeEmptyValues({
    metadata,
    access: base?.access ?? { record: 'public', files: 'public' },
    custom_fields: base?.custom_fields ?? {},
  }) as Partial<DraftPayload> | null;
  return {
    metadata: cleaned?.metadata ?? {},
    access: cleaned?.access ?? { record: 'public', files: 'public' },
    files: { enabled: isFilesEnabled(base) },
    pids: base?.pids ?? {},
    custom_fields: cleaned?.custom_fields ?? {},
  };
}

function serializeCreator(creator: CreatorFormValues, base: Creator | undefined) {
  const { type, family_name, given_name, name } = creator.person_or_org;
  const identifiers = base?.person_or_org?.['identifiers'];
  const personOrOrg =
    type === 'personal'
      ? { type, family_name, given_name, identifiers }
      : { type, name, identifiers };
  // Keeps what this form does not edit yet (role, affiliations) when editing a saved creator.
  return { ...base, person_or_org: personOrOrg };
}

/**
 * Files arrive in a later version of the form; until then a draft is metadata-only so it can be
 * published. A draft that already holds files (uploaded through the API) keeps them enabled:
 * disabling files while files exist is refused by the server.
 */
function isFilesEnabled(base: RecordJson | null): boolean {
  const files = base?.files;
  if (!files?.enabled) return false;
  return (files.count ?? 0) > 0 || Object.keys(files.entries ?? {}).length > 0;
}

/**
 * InvenioRDM's `_removeEmptyValues` (rule R, reference §2.4): drops empty strings, null,
 * undefined, empty arrays and empty objects, deeply. Numbers and booleans survive as object
 * values but, as in InvenioRDM, falsy ones are dropped from arrays.
 */
export function removeEmptyValues(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(removeEmptyValues).filter((item) => {
      if (typeof item === 'number' || typeof item === 'boolean') return Boolean(item);
      return !isEmpty(item);
    });
    return items.length > 0 ? items : null;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .map(([key, item]) => [key, removeEmptyValues(item)] as const)
      .filter(([, item]) => !isEmpty(item));
    return entries.length > 0 ? Object.fromEntries(entries) : null;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return value === '' || value === undefined ? null : value;
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}
