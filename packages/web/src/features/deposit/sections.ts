import type { FieldError } from '../../api/records';

export interface DepositSection {
  /** The id of the section element; banner links scroll to it. */
  id: string;
  labelKey: 'deposit.sections.basicInformation';
  /** Error fields belong to the first section listing them or a parent path of them. */
  fields: readonly string[];
}

/** The form's sections in page order, with the fields InvenioRDM assigns them (reference §4.2). */
export const DEPOSIT_SECTIONS: readonly DepositSection[] = [
  {
    id: 'basic-information',
    labelKey: 'deposit.sections.basicInformation',
    fields: [
      'pids.doi',
      'metadata.resource_type',
      'metadata.title',
      'metadata.additional_titles',
      'metadata.publication_date',
      'metadata.creators',
      'metadata.description',
      'metadata.additional_descriptions',
      'metadata.rights',
    ],
  },
];

export interface SectionErrors {
  section: DepositSection;
  count: number;
}

export interface GroupedErrors {
  sections: SectionErrors[];
  /** Errors on fields the form does not show yet; the banner lists their messages. */
  unplaced: FieldError[];
}

export function groupErrorsBySection(errors: readonly FieldError[]): GroupedErrors {
  const counts = new Map<DepositSection, number>();
  const unplaced: FieldError[] = [];
  for (const error of errors) {
    const section = DEPOSIT_SECTIONS.find((candidate) =>
      candidate.fields.some(
        (field) => error.field === field || error.field.startsWith(`${field}.`),
      ),
    );
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
