import type { ServerFieldError } from '@cairn/shared';

/** The i18n keys of the section titles (namespace `deposit.sections`). */
export type DepositSectionLabelKey =
  | 'deposit.sections.files'
  | 'deposit.sections.basicInformation'
  | 'deposit.sections.recommendedInformation'
  | 'deposit.sections.funding'
  | 'deposit.sections.alternateIdentifiers'
  | 'deposit.sections.relatedWorks'
  | 'deposit.sections.references'
  | 'deposit.sections.customFields'
  | 'deposit.sections.visibility';

export interface DepositSection {
  /** The id of the section element; banner links and the section nav scroll to it. */
  id: string;
  labelKey: DepositSectionLabelKey;
  /** Error fields belong to the first section listing them or a parent path of them. */
  fields: readonly string[];
}

/**
 * The form's sections in page order, with the fields InvenioRDM assigns them
 * (`depositFormSectionsConfig`); the sidebar's visibility card comes last.
 */
export const DEPOSIT_SECTIONS: readonly DepositSection[] = [
  { id: 'files', labelKey: 'deposit.sections.files', fields: ['files', 'media_files'] },
  {
    id: 'basic-information',
    labelKey: 'deposit.sections.basicInformation',
    fields: [
      'pids.doi',
      'pids',
      'metadata.resource_type',
      'metadata.title',
      'metadata.additional_titles',
      'metadata.publication_date',
      'metadata.creators',
      'metadata.description',
      'metadata.additional_descriptions',
      'metadata.rights',
      'metadata.copyright',
    ],
  },
  {
    id: 'recommended-information',
    labelKey: 'deposit.sections.recommendedInformation',
    fields: [
      'metadata.contributors',
      'metadata.subjects',
      'metadata.languages',
      'metadata.dates',
      'metadata.version',
      'metadata.publisher',
    ],
  },
  { id: 'funding', labelKey: 'deposit.sections.funding', fields: ['metadata.funding'] },
  {
    id: 'alternate-identifiers',
    labelKey: 'deposit.sections.alternateIdentifiers',
    fields: ['metadata.identifiers'],
  },
  {
    id: 'related-works',
    labelKey: 'deposit.sections.relatedWorks',
    fields: ['metadata.related_identifiers'],
  },
  { id: 'references', labelKey: 'deposit.sections.references', fields: ['metadata.references'] },
  { id: 'custom-fields', labelKey: 'deposit.sections.customFields', fields: ['custom_fields'] },
  { id: 'visibility', labelKey: 'deposit.sections.visibility', fields: ['access'] },
];

export interface SectionErrors {
  section: DepositSection;
  count: number;
}

export interface GroupedErrors {
  sections: SectionErrors[];
  /** Errors on fields no section shows; the banner lists their messages. */
  unplaced: ServerFieldError[];
}

/** The section of an error path, or undefined. */
export function sectionOf(field: string): DepositSection | undefined {
  return DEPOSIT_SECTIONS.find((candidate) =>
    candidate.fields.some((path) => field === path || field.startsWith(`${path}.`)),
  );
}

export function groupErrorsBySection(errors: readonly ServerFieldError[]): GroupedErrors {
  const counts = new Map<DepositSection, number>();
  const unplaced: ServerFieldError[] = [];
  for (const error of errors) {
    const section = sectionOf(error.field);
    if (section) counts.set(section, (counts.get(section) ?? 0) + 1);
    else unplaced.push(error);
  }
  return {
    sections: DEPOSIT_SECTIONS.filter((section) => counts.has(section)).map((section) => ({
      section,
      count: counts.get(section) ?? 0,
    })),
    unplaced,
  };
}
