import type { ComboboxItem, ComboboxItemGroup } from '@mantine/core';

/**
 * Resource types nest by id as InvenioRDM's vocabulary nests them: `image-photo` is a subtype of
 * `image`. Alone, three subtypes read "Other" (of publication, of image, and the top-level one),
 * so a subtype is named with its type ("Image: Other", worded by `name`), which is also what the
 * field shows once chosen, and each type with subtypes becomes a group holding itself and them.
 * Types without subtypes stay single entries. Groups and entries keep the order of their type's
 * label; within a group the type comes first, then its subtypes by label.
 */
export function groupResourceTypes(
  options: readonly ComboboxItem[],
  name: (type: string, subtype: string) => string,
): (ComboboxItem | ComboboxItemGroup<ComboboxItem>)[] {
  const labels = new Map(options.map((option) => [option.value, option.label]));
  const families = new Map<string, { type?: ComboboxItem; subtypes: ComboboxItem[] }>();
  for (const option of options) {
    const dash = option.value.indexOf('-');
    const parent = dash > 0 ? option.value.slice(0, dash) : option.value;
    const family = families.get(parent) ?? { subtypes: [] };
    families.set(parent, family);
    if (dash > 0 && labels.has(parent)) {
      family.subtypes.push({ ...option, label: name(labels.get(parent) ?? parent, option.label) });
    } else if (dash > 0) {
      // A subtype whose type is not offered keeps its own label, alone.
      families.set(option.value, { type: option, subtypes: [] });
    } else {
      family.type = option;
    }
  }
  const byLabel = (a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label);
  const entries = [...families.values()]
    .filter((family) => family.type !== undefined || family.subtypes.length > 0)
    .map((family) => ({
      label: family.type?.label ?? family.subtypes[0]?.label ?? '',
      type: family.type,
      subtypes: family.subtypes.sort(byLabel),
    }))
    .sort(byLabel);
  return entries.map(({ label, type, subtypes }) =>
    subtypes.length === 0 && type
      ? type
      : { group: label, items: type ? [type, ...subtypes] : subtypes },
  );
}
