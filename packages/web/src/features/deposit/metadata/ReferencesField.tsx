import { useTranslation } from 'react-i18next';
import { MetadataTextField } from './MetadataTextField';
import { RepeatableField } from './RepeatableField';

/** `metadata.references`: bibliographic reference strings. */
export function ReferencesField() {
  const { t } = useTranslation();
  return (
    <RepeatableField
      name="metadata.references"
      legend={t('metadata.references.legend')}
      addLabel={t('metadata.references.add')}
      newRow={() => ({ reference: '' })}
      rowLabel={(n) => t('metadata.references.row', { n })}
      renderRow={(index) => (
        <MetadataTextField
          name={`metadata.references.${index}.reference`}
          label={t('metadata.references.reference')}
          required
        />
      )}
    />
  );
}
