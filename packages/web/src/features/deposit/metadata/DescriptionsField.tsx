import { useTranslation } from 'react-i18next';
import { LanguageSelectField } from './LanguageSelectField';
import { RepeatableField } from './RepeatableField';
import { RichTextField } from './RichTextField';
import { VocabularySelectField } from './VocabularySelectField';

/**
 * `metadata.description` (rich text, sanitised) and `metadata.additional_descriptions`, each
 * with its text, type (required) and language.
 */
export function DescriptionsField() {
  const { t } = useTranslation();
  return (
    <>
      <RichTextField name="metadata.description" label={t('metadata.descriptions.description')} />
      <RepeatableField
        name="metadata.additional_descriptions"
        legend={t('metadata.descriptions.additional')}
        addLabel={t('metadata.descriptions.add')}
        newRow={() => ({ description: '', type: '', lang: '' })}
        rowLabel={(n) => t('metadata.descriptions.row', { n })}
        renderRow={(index) => (
          <>
            <RichTextField
              name={`metadata.additional_descriptions.${index}.description`}
              label={t('metadata.descriptions.additionalDescription')}
              required
            />
            <VocabularySelectField
              name={`metadata.additional_descriptions.${index}.type`}
              type="descriptiontypes"
              label={t('metadata.type')}
              required
            />
            <LanguageSelectField
              name={`metadata.additional_descriptions.${index}.lang`}
              label={t('metadata.language')}
            />
          </>
        )}
      />
    </>
  );
}
