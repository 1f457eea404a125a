import { AdditionalTitleSchema, MetadataSchema } from '@cairn/shared';
import { useTranslation } from 'react-i18next';
import { LanguageSelectField } from './LanguageSelectField';
import { MetadataTextField } from './MetadataTextField';
import { RepeatableField } from './RepeatableField';
import { VocabularySelectField } from './VocabularySelectField';

/** A new additional title is an alternative title (InvenioRDM's default). */
const DEFAULT_TITLE_TYPE = 'alternative-title';

/** `metadata.title` and `metadata.additional_titles` (title, type, language). */
export function TitlesField() {
  const { t } = useTranslation();
  return (
    <>
      <MetadataTextField
        name="metadata.title"
        label={t('metadata.titles.title')}
        schema={MetadataSchema.shape.title}
        required
        wraps
      />
      <RepeatableField
        name="metadata.additional_titles"
        legend={t('metadata.titles.additional')}
        addLabel={t('metadata.titles.add')}
        newRow={() => ({ title: '', type: DEFAULT_TITLE_TYPE, lang: '' })}
        rowLabel={(n) => t('metadata.titles.row', { n })}
        renderRow={(index) => (
          <>
            <MetadataTextField
              name={`metadata.additional_titles.${index}.title`}
              label={t('metadata.titles.additionalTitle')}
              schema={AdditionalTitleSchema.shape.title}
              required
            />
            <VocabularySelectField
              name={`metadata.additional_titles.${index}.type`}
              type="titletypes"
              label={t('metadata.type')}
              required
            />
            <LanguageSelectField
              name={`metadata.additional_titles.${index}.lang`}
              label={t('metadata.language')}
            />
          </>
        )}
      />
    </>
  );
}
