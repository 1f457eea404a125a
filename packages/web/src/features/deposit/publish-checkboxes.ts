/** An instance's extra checkbox of the publish dialog (config `publishModalExtra`). */
export interface ExtraCheckbox {
  id: string;
  label: string;
}

/**
 * Throws when two extra checkboxes share an id: their answers would be indistinguishable. The form
 * checks when it opens, before the dialog's code is fetched.
 */
export function assertUniqueCheckboxIds(checkboxes: readonly ExtraCheckbox[]): void {
  const seen = new Set<string>();
  for (const { id } of checkboxes) {
    if (seen.has(id)) throw new Error(`Duplicate extra checkbox id "${id}" in the publish dialog.`);
    seen.add(id);
  }
}
