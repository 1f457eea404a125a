import {
  CUSTOM_FIELD_GROUPS,
  deserializeDraft,
  type DepositFormValues,
  type SerializerOptions,
} from '@cairn/shared';
import { useMemo } from 'react';
import type { RecordJson } from '../../api/records';
import { useBootstrap } from '../../bootstrap';
import { toCreatorEntry } from './creators/creator-entry';

/** The serializer's options from the page configuration. */
export function useSerializerOptions(): SerializerOptions {
  const { config } = useBootstrap();
  return useMemo(
    () => ({
      defaultLocale: config.defaultLocale,
      vocabularyCustomFields: config.vocabularyCustomFields,
    }),
    [config.defaultLocale, config.vocabularyCustomFields],
  );
}

/**
 * The form's starting values: the draft's, or for a new upload InvenioRDM's form defaults
 * (publication date today, public access).
 */
export function createDraftValues(
  draft: RecordJson | null,
  options: SerializerOptions,
  today: string,
): DepositFormValues {
  const { values } = deserializeDraft(draft ?? {}, options);
  if (!draft) values.metadata.publication_date = today;
  return asFormValues(values);
}

/**
 * Values loaded into the form from outside it (a draft, the journal, the other tab's version):
 * creators and contributors become entries, which the form shares instead of copying (see
 * CreatorEntry).
 */
export function asFormValues(values: DepositFormValues): DepositFormValues {
  return {
    ...values,
    metadata: {
      ...values.metadata,
      creators: values.metadata.creators.map(toCreatorEntry),
      contributors: values.metadata.contributors.map(toCreatorEntry),
    },
    custom_fields: withEveryGroup(values.custom_fields),
  };
}

/**
 * Every custom field group with every text sub-field, `''` where the draft has none. The groups'
 * inputs register there and would add what is missing otherwise, leaving a form that differs
 * from its defaults before anyone typed: React Hook Form then recomputes the dirty state of every
 * field, all 10,000 creators deep, each time a field returns to its original value. Empty values
 * are not sent (rule R).
 */
function withEveryGroup(customFields: DepositFormValues['custom_fields']) {
  const filled: DepositFormValues['custom_fields'] = { ...customFields };
  for (const [group, fields] of Object.entries(CUSTOM_FIELD_GROUPS)) {
    const values: Record<string, unknown> = { ...filled[group] };
    for (const [field, kind] of Object.entries(fields)) {
      // A list of identifiers is not an input of its own (CustomFieldsSections).
      if (kind !== 'identifiers') values[field] ??= '';
    }
    filled[group] = values;
  }
  return filled;
}

/**
 * The form's values as they are now. The form changes its plain objects and arrays in place as
 * the person types, so those are copied; anything else (creator entries, which are replaced and
 * never changed) is kept by reference, as React Hook Form copies values itself. A deep copy of
 * 10,000 creators at each save would cost tens of milliseconds for nothing.
 */
export function snapshotValues<T>(value: T): T {
  if (Array.isArray(value)) return value.map(snapshotValues) as T;
  if (
    value !== null &&
    typeof value === 'object' &&
    Object.getPrototypeOf(value) === Object.prototype
  )
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, snapshotValues(item)]),
    ) as T;
  return value;
}
