import { useTranslation } from 'react-i18next';
import { VocabularySelectField } from './VocabularySelectField';

/** `metadata.resource_type`: one of the depositable resource types. */
export function ResourceTypeField() {
  const { t } = useTranslation();
  return (
    <VocabularySelectField
      name="metadata.resource_type"
      type="resourcetypes"
      tags="depositable"
      label={t('metadata.resourceType.label')}
      placeholder={t('metadata.resourceType.placeholder')}
      required
    />
  );
}
