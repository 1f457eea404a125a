import type {
  AffiliationFormValues,
  CreatorFormValues,
  PersonOrOrgFormValues,
  VocabularyId,
} from '@cairn/shared';

/**
 * A creator or contributor as the deposit form holds it: a `CreatorFormValues` that is never
 * changed in place, only replaced.
 *
 * Why a class: on every keystroke in any field bound with `useController`, React Hook Form
 * deep-copies the whole form values for its watchers, and its copy keeps class instances by
 * reference (it copies plain objects and arrays only). With plain objects, 10,000 creators cost
 * tens of milliseconds per keystroke in the title; as entries, copying the list is copying
 * 10,000 references. Nothing may write into an entry (no input is registered under a creator's
 * path: the dialog has its own form), so sharing them is safe.
 */
export class CreatorEntry implements CreatorFormValues {
  readonly person_or_org: PersonOrOrgFormValues;
  readonly role: VocabularyId;
  readonly affiliations: AffiliationFormValues[];

  constructor(values: CreatorFormValues) {
    this.person_or_org = values.person_or_org;
    this.role = values.role;
    this.affiliations = values.affiliations;
  }
}

/** `values` as an entry (itself when it already is one). */
export function toCreatorEntry(values: CreatorFormValues): CreatorEntry {
  return values instanceof CreatorEntry ? values : new CreatorEntry(values);
}
