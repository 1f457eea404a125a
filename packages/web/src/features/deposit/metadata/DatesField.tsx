import { DateEntrySchema } from '@cairn/shared';
import { useTranslation } from 'react-i18next';
import { MetadataTextField } from './MetadataTextField';
import { RepeatableField } from './RepeatableField';
import { VocabularySelectField } from './VocabularySelectField';

/**
 * `metadata.dates`: each a date or interval (`DATE` or `DATE/DATE`, each `YYYY`, `YYYY-MM` or
 * `YYYY-MM-DD`, checked on blur), its type and a description.
 */
export function DatesField() {
  const { t } = useTranslation();
  return (
    <RepeatableField
      name="metadata.dates"
      legend={t('metadata.dates.legend')}
      addLabel={t('metadata.dates.add')}
      newRow={() => ({ date: '', type: '', description: '' })}
      rowLabel={(n) => t('metadata.dates.row', { n })}
      renderRow={(index) => (
        <>
          <MetadataTextField
            name={`metadata.dates.${index}.date`}
            label={t('metadata.dates.date')}
            placeholder={t('metadata.dates.placeholder')}
            help={t('metadata.dates.help')}
            schema={DateEntrySchema.shape.date}
            required
          />
          <VocabularySelectField
            name={`metadata.dates.${index}.type`}
            type="datetypes"
            label={t('metadata.type')}
            required
          />
          <MetadataTextField
            name={`metadata.dates.${index}.description`}
            label={t('metadata.dates.description')}
          />
        </>
      )}
    />
  );
}
