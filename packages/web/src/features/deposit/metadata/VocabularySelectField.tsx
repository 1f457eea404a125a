import type { DepositFormValues } from '@cairn/shared';
import { useWatch, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../../components/form/SelectField';
import { useVocabularyOptions, type ListedVocabulary } from './api';
import { groupResourceTypes } from './resource-type-groups';

export interface VocabularySelectFieldProps {
  name: FieldPath<DepositFormValues>;
  label: string;
  type: ListedVocabulary;
  /** Only entries with this tag (`depositable`, `linkable`). */
  tags?: string;
  required?: boolean;
  placeholder?: string;
  help?: string;
}

/**
 * One entry of a small vocabulary, chosen by its title and stored as its id. A stored id the
 * vocabulary no longer lists still shows (as the id), so nothing is silently dropped.
 */
export function VocabularySelectField({
  name,
  label,
  type,
  tags,
  required,
  placeholder,
  help,
}: VocabularySelectFieldProps) {
  const { t } = useTranslation();
  const { options, isError } = useVocabularyOptions(type, tags);
  const value = useWatch<DepositFormValues>({ name });
  const shown =
    typeof value === 'string' && value !== '' && !options.some((option) => option.value === value)
      ? [...options, { value, label: value }]
      : options;
  return (
    <SelectField<DepositFormValues>
      name={name}
      label={label}
      help={isError ? t('metadata.vocabularyUnavailable') : help}
      placeholder={placeholder}
      options={
        type === 'resourcetypes'
          ? groupResourceTypes(shown, (parent, subtype) =>
              t('metadata.resourceType.subtype', { type: parent, subtype }),
            )
          : shown
      }
      required={required}
      searchable
      clearable={!required}
      nothingFoundMessage={t('metadata.nothingFound')}
    />
  );
}
