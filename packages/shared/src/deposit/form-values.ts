import type { Access } from '../domain/access.js';

/*
 * The deposit form's values: InvenioRDM's "frontend record", what its serializer's deserialize
 * rules 3–9 make of a draft (serializer.ts lists them). Form paths equal API paths
 * (`metadata.creators.0.person_or_org.family_name`) so that the server's error paths land on inputs
 * without translation; only the shapes below differ from the API, and `serializeDraft` /
 * `deserializeDraft` convert them. Every editor widget binds to these types and nothing else.
 */

/** A vocabulary reference the form keeps as its plain id (`""` when unset). */
export type VocabularyId = string;

/** One identifier of a person, organisation or custom field (`{scheme, identifier}`). */
export interface IdentifierFormValues {
  scheme: string;
  identifier: string;
}

/**
 * A creator's affiliation: a vocabulary entry (`id`, with its `name` kept for display) or free
 * text (`name` only) — an "allow-additions" field (rule 6).
 */
export interface AffiliationFormValues {
  id?: string;
  name: string;
}

export interface PersonOrOrgFormValues {
  type: 'personal' | 'organizational';
  given_name: string;
  family_name: string;
  /** Organisations only; the server fills "Family, Given" for persons. */
  name: string;
  identifiers: IdentifierFormValues[];
}

/** A creator or contributor. `role` is a creatorsroles/contributorsroles id or `""`. */
export interface CreatorFormValues {
  person_or_org: PersonOrOrgFormValues;
  role: VocabularyId;
  affiliations: AffiliationFormValues[];
}

export interface AdditionalTitleFormValues {
  title: string;
  /** titletypes id; a new entry defaults to `alternative-title`. */
  type: VocabularyId;
  lang: VocabularyId;
}

export interface AdditionalDescriptionFormValues {
  /** Sanitised HTML. */
  description: string;
  type: VocabularyId;
  lang: VocabularyId;
}

export interface DateFormValues {
  /** EDTF: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or an interval `DATE/DATE`. */
  date: string;
  type: VocabularyId;
  description: string;
}

/** A subject from a vocabulary (`id`, label kept) or free text (`subject` only). */
export interface SubjectFormValues {
  id?: string;
  subject: string;
}

export interface RelatedIdentifierFormValues {
  scheme: string;
  identifier: string;
  relation_type: VocabularyId;
  resource_type: VocabularyId;
}

export interface ReferenceFormValues {
  reference: string;
}

/**
 * A license: a standard one is `{id}` (its `title`/`description` kept only for display), a
 * custom one has no `id` and plain-text `title`, `description` and `link` (rule 7; the serializer
 * wraps title and description by the default locale).
 */
export interface RightsFormValues {
  id?: string;
  title?: string;
  description?: string;
  link?: string;
}

/**
 * A funder or award: from the vocabulary (`id`, label kept for display) or custom with a plain
 * `title` and `url` (rule 8; sent as `title: {<locale>: …}` and `identifiers: [{scheme: 'url'}]`).
 * An award also carries its `number` and, custom, an `acronym`.
 */
export interface FunderFormValues {
  id?: string;
  name?: string;
  title?: string;
  url?: string;
}

export interface AwardFormValues {
  id?: string;
  title?: string;
  number?: string;
  acronym?: string;
  url?: string;
}

export interface FundingFormValues {
  funder: FunderFormValues;
  award: AwardFormValues;
}

export interface MetadataFormValues {
  resource_type: VocabularyId;
  title: string;
  additional_titles: AdditionalTitleFormValues[];
  publication_date: string;
  creators: CreatorFormValues[];
  contributors: CreatorFormValues[];
  /** Sanitised HTML. */
  description: string;
  additional_descriptions: AdditionalDescriptionFormValues[];
  rights: RightsFormValues[];
  /** languages ids. */
  languages: VocabularyId[];
  dates: DateFormValues[];
  version: string;
  publisher: string;
  identifiers: IdentifierFormValues[];
  related_identifiers: RelatedIdentifierFormValues[];
  references: ReferenceFormValues[];
  subjects: SubjectFormValues[];
  funding: FundingFormValues[];
}

/**
 * One PID as the form holds it. `provider` is `external` (the user's own DOI), `not_needed`
 * (the user chose to publish without one) or the managed provider's name (`datacite`).
 */
export interface PidFormValues {
  identifier: string;
  provider: string;
  client?: string;
}

/** `custom_fields`: groups keyed as `journal:journal`, each a map of its sub-fields. */
export type CustomFieldsFormValues = Record<string, Record<string, unknown>>;

export interface FilesFormValues {
  enabled: boolean;
  default_preview?: string;
}

export interface DepositFormValues {
  metadata: MetadataFormValues;
  access: Access;
  pids: Record<string, PidFormValues>;
  custom_fields: CustomFieldsFormValues;
  files: FilesFormValues;
}

/** A new, empty creator: a person (the common case). */
export function createEmptyCreator(): CreatorFormValues {
  return {
    person_or_org: { type: 'personal', given_name: '', family_name: '', name: '', identifiers: [] },
    role: '',
    affiliations: [],
  };
}
